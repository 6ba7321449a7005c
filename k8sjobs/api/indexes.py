"""Strict checking of completed/failed/succeeded index strings, as API validation does it.

Mirrors ``validateIndexesFormat`` in pkg/apis/batch/validation/validation.go: a
comma-separated list of indexes and ``a-b`` intervals, strictly increasing, each below
``completions``. (The controller's own parser is lenient instead; see
:mod:`k8sjobs.controller.job.indexed_job_utils`.)
"""

from __future__ import annotations

import re

_GO_INT = re.compile(r"^[+-]?[0-9]+$")
_INT64 = 2**63


def _atoi(text: str) -> int:
    # strconv.Atoi: an optional sign and decimal digits, within Go's int (64 bits here).
    if not _GO_INT.match(text) or not -_INT64 <= int(text) < _INT64:
        raise ValueError(f'cannot convert string to integer for index: "{text}"')
    return int(text)


def parse_index_interval(fragment: str, completions: int) -> tuple[int, int]:
    """``(first, last)`` of one fragment (``"3"`` or ``"3-5"``); raises ValueError with the rule it breaks.

    Mirrors parseIndexInterval in validation.go: the whole fragment is read and checked (each
    end below ``completions``, the start before the end) before its place in the list is."""
    limits = fragment.split("-")
    if len(limits) > 2:
        raise ValueError(f'the fragment "{fragment}" violates the requirement that an index interval '
                         "can have at most two parts separated by '-'")
    first = _atoi(limits[0])
    if first >= completions:
        raise ValueError(f'too large index: "{limits[0]}"')
    if len(limits) == 1:
        return first, first
    last = _atoi(limits[1])
    if last >= completions:
        raise ValueError(f'too large index: "{limits[1]}"')
    if first >= last:
        raise ValueError(f"non-increasing order, previous: {first}, current: {last}")
    return first, last


def validate_indexes_format(text: str, completions: int) -> int:
    """Return how many indexes ``text`` names; raise ValueError with the rule it breaks.

    Mirrors validateIndexesFormat: each fragment is parsed whole, then must start after the
    previous one ended."""
    if text == "":
        return 0
    total = 0
    last: int | None = None
    for fragment in text.split(","):
        first, end = parse_index_interval(fragment, completions)
        if last is not None and last >= first:
            raise ValueError(f"non-increasing order, previous: {last}, current: {first}")
        total += end - first + 1
        last = end
    return total
