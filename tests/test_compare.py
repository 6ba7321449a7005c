"""The conformance comparator follows the contract's rules (it is itself a test oracle)."""

import pytest

from k8sjobs.conformance.compare import mismatches


@pytest.mark.parametrize(("expect", "actual", "ok"), [
    ({"a": 1}, {"a": 1, "b": 2}, True),
    ({"a": 1}, {"a": 2}, False),
    ({"a": 1}, {}, False),
    ({"l": [1, 2]}, {"l": [2, 1]}, False),
    ({"deleted": ["b", "a"]}, {"deleted": ["a", "b"]}, True),
    ({"fields": ["x"]}, {"fields": ["x", "y"]}, False),
    ({"events": {"A": 2}}, {"events": {"A": 2, "B": 0}}, True),
    ({"events": {"A": 2}}, {"events": {"A": 1}}, False),
    ({"after": [{"stepIndex": 1, "x": 3}]}, {"after": [{"stepIndex": 0, "x": 1}, {"stepIndex": 1, "x": 3}]}, True),
    ({"after": [{"stepIndex": 2, "x": 3}]}, {"after": [{"stepIndex": 1, "x": 3}]}, False),
    ({"conditionCount": 2}, {"conditions": [{"type": "A"}, {"type": "B"}]}, True),
    ({"conditionTypeCounts": {"A": 1}}, {"conditions": [{"type": "A"}, {"type": "A"}]}, False),
    ({"conditionsContain": [{"type": "B"}]}, {"conditions": [{"type": "A"}, {"type": "B", "status": "True"}]}, True),
    ({"valid": True}, {"valid": 1}, False),
    ({"n": 1}, {"n": 1.0}, True),
    ({"failedIndexes": None}, {"failedIndexes": ""}, False),
], ids=lambda v: str(v)[:40])
def test_comparison_rules(expect, actual, ok):
    assert (not mismatches(expect, actual)) is ok
