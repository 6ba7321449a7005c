"""Whether an Indexed Job's successPolicy is met (upstream success_policy.go)."""

from __future__ import annotations

import pytest
from builders import job, with_status
from hypothesis import given
from hypothesis import strategies as st

from k8sjobs.api.types import JobCondition, SuccessPolicy, SuccessPolicyRule
from k8sjobs.controller.job.indexed_job_utils import OrderedIntervals, parse_indexes_from_string
from k8sjobs.controller.job.success_policy import (
    has_success_criteria_met_condition,
    is_success_criteria_met_condition,
    match_succeeded_indexes_rule,
    match_success_policy,
)


def rules(*pairs: tuple[str | None, int | None]) -> SuccessPolicy:
    """A successPolicy from (succeededIndexes, succeededCount) pairs."""
    return SuccessPolicy(rules=tuple(SuccessPolicyRule(succeeded_indexes=i, succeeded_count=c) for i, c in pairs))


CASES = [
    pytest.param(None, 5, "0-4", (False, ""), id="without a policy it is never met"),
    pytest.param(rules((None, 1)), 5, "", (False, ""), id="it is never met while no index succeeded"),
    pytest.param(rules(("0,2", None)), 5, "0-2", (True, "Matched rules at index 0"),
                 id="a succeededIndexes rule is met when all listed indexes succeeded"),
    pytest.param(rules(("1-3", None)), 6, "0-2,5", (False, ""), id="one missing listed index is enough to fail"),
    pytest.param(rules((None, 3)), 5, "0,3,4", (True, "Matched rules at index 0"),
                 id="a succeededCount rule counts every succeeded index"),
    pytest.param(rules((None, 3)), 5, "0,4", (False, ""), id="a succeededCount rule not yet reached"),
    pytest.param(rules(("2-6", 2)), 10, "0,1,4,8,9", (False, ""),
                 id="with both fields only succeeded indexes in the list count"),
    pytest.param(rules(("2-6", 2)), 10, "0,4,6,9", (True, "Matched rules at index 0"),
                 id="with both fields reaching the count in the list is enough"),
    pytest.param(rules(("4", None), (None, 2)), 5, "0,1", (True, "Matched rules at index 1"),
                 id="the message names the first rule that is met"),
    pytest.param(rules(("x,9", None), (None, 1)), 5, "0", (True, "Matched rules at index 1"),
                 id="a rule whose list parses to nothing is skipped"),
    pytest.param(rules(("3-9", None)), 5, "3,4", (True, "Matched rules at index 0"),
                 id="listed indexes are parsed leniently against completions"),
    pytest.param(rules(("1", 5)), 5, "1", (True, "Matched rules at index 0"),
                 id="all listed indexes succeeding is enough even below succeededCount"),
]


@pytest.mark.parametrize(("policy", "completions", "completed", "expected"), CASES)
def test_match_success_policy(policy, completions, completed, expected):
    succeeded = parse_indexes_from_string(completed, completions)
    assert match_success_policy(policy, completions, succeeded) == expected


def test_success_criteria_met_condition():
    met = JobCondition(type="SuccessCriteriaMet", status="True")
    not_met = JobCondition(type="SuccessCriteriaMet", status="False")
    assert is_success_criteria_met_condition(met) and not is_success_criteria_met_condition(not_met)
    assert not is_success_criteria_met_condition(None)
    assert has_success_criteria_met_condition(with_status(job(), conditions=(met,))) == met
    assert has_success_criteria_met_condition(with_status(job(), conditions=(not_met, met))) is None


@given(st.sets(st.integers(0, 30), min_size=1), st.sets(st.integers(0, 30)), st.none() | st.integers(0, 10))
def test_the_overlap_walk_counts_listed_indexes_that_succeeded(listed, succeeded, count):
    contained = len(listed & succeeded)
    expected = contained == len(listed) or (count is not None and contained >= count)
    got = match_succeeded_indexes_rule(
        OrderedIntervals.from_indexes(listed), OrderedIntervals.from_indexes(succeeded), count
    )
    assert got is expected
