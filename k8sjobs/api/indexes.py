"""Strict checking of completed/failed/succeeded index strings, as API validation does it.

Mirrors ``validateIndexesFormat`` in pkg/apis/batch/validation/validation.go: a
comma-separated list of indexes and ``a-b`` intervals, strictly increasing, each below
``completions``. (The controller's own parser is lenient instead; see
:mod:`k8sjobs.controller.job.indexed_job_utils`.)
"""

from __future__ import annotations

import re

_GO_INT = re.compile(r"^[+-]?[0-9]+$")
_INT32_MAX = 2**31 - 1


def _parse_int32(text: str) -> int:
    # strconv.ParseInt(s, 10, 32): optional sign, decimal digits, within int32.
    if not _GO_INT.match(text):
        raise ValueError(f"cannot convert string to integer for index: {text!r}".replace("'", '"'))
    value = int(text)
    if not -(2**31) <= value <= _INT32_MAX:
        raise ValueError(f"cannot convert string to integer for index: {text!r}".replace("'", '"'))
    return value


def validate_indexes_format(text: str, completions: int) -> int:
    """Return how many indexes ``text`` names; raise ValueError with the rule it breaks."""
    if text == "":
        return 0
    total = 0
    last: int | None = None
    for fragment in text.split(","):
        limits = fragment.split("-")
        if len(limits) > 2:
            raise ValueError(
                f'the fragment "{fragment}" violates the requirement that an index interval '
                "can have at most two parts separated by '-'"
            )
        first = _parse_int32(limits[0])
        if first >= completions:
            raise ValueError(f'too large index: "{limits[0]}"')
        if last is not None and last >= first:
            raise ValueError(f"non-increasing order, previous: {last}, current: {first}")
        total += 1
        last = first
        if len(limits) == 2:
            end = _parse_int32(limits[1])
            if end >= completions:
                raise ValueError(f'too large index: "{limits[1]}"')
            if first >= end:
                raise ValueError(f"non-increasing order, previous: {first}, current: {end}")
            total += end - first
            last = end
    return total
