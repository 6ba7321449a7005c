"""Compare a conformance ``actual`` with its ``expect`` by the rules of the contract.

Only keys present in ``expect`` are checked, recursively; numbers exactly; lists in
order and of equal length; except ``after`` (matched by ``stepIndex``), ``events`` (an
exact multiset), ``deleted`` and ``fields`` (sets), ``conditionCount``,
``conditionTypeCounts`` and ``conditionsContain`` (derived from ``conditions``), and, for
the cron and CronJob families, ``errorContains``/``contains`` (a substring of the actual
text), ``next`` (RFC 3339 times compared as instants) and ``nextNot`` (the actual ``next``
is a different instant).
"""

from __future__ import annotations

import datetime as _dt
from collections import Counter
from typing import Any

_DERIVED = ("conditionCount", "conditionTypeCounts", "conditionsContain")


def mismatches(expect: Any, actual: Any, path: str = "") -> list[str]:
    """Every difference between ``expect`` and ``actual``, as ``path: expected X, got Y`` lines."""
    out: list[str] = []
    _cmp(expect, actual, path or "$", out)
    return out


def _cmp(exp: Any, act: Any, path: str, out: list[str]) -> None:
    if isinstance(exp, dict):
        if not isinstance(act, dict):
            out.append(f"{path}: expected an object, got {act!r}")
            return
        for key, ev in exp.items():
            sub = f"{path}.{key}"
            if key in _DERIVED:
                _cmp_derived(key, ev, act.get("conditions"), sub, out)
            elif key == "after":
                _cmp_after(ev, act.get("after"), sub, out)
            elif key == "nextNot":
                if _instant(act.get("next")) == _instant(ev):
                    out.append(f"{sub}: expected next to differ from {ev!r}, got {act.get('next')!r}")
            elif key not in act:
                out.append(f"{sub}: missing (expected {ev!r})")
            elif key == "events":
                _cmp_events(ev, act[key], sub, out)
            elif key in ("errorContains", "contains") and isinstance(ev, str):
                if not isinstance(act[key], str) or ev not in act[key]:
                    out.append(f"{sub}: expected a text containing {ev!r}, got {act[key]!r}")
            elif key == "next" and _instant(ev) is not None:
                if _instant(ev) != _instant(act[key]):
                    out.append(f"{sub}: expected the instant {ev!r}, got {act[key]!r}")
            elif key in ("deleted", "fields") and isinstance(ev, list):
                if not isinstance(act[key], list) or sorted(map(str, ev)) != sorted(map(str, act[key])):
                    out.append(f"{sub}: expected the set {sorted(ev)!r}, got {act[key]!r}")
            else:
                _cmp(ev, act[key], sub, out)
    elif isinstance(exp, list):
        if not isinstance(act, list) or len(act) != len(exp):
            out.append(f"{path}: expected {exp!r}, got {act!r}")
            return
        for i, (e, a) in enumerate(zip(exp, act)):
            _cmp(e, a, f"{path}[{i}]", out)
    else:
        if isinstance(exp, bool) or isinstance(act, bool):
            same = exp is act
        elif isinstance(exp, (int, float)) and isinstance(act, (int, float)):
            same = exp == act
        else:
            same = exp == act and type(exp) is type(act)
        if not same:
            out.append(f"{path}: expected {exp!r}, got {act!r}")


def _instant(value: Any) -> float | None:
    """An RFC 3339 time with offset as unix seconds; None for anything else ("zero", absent)."""
    if not isinstance(value, str):
        return None
    try:
        parsed = _dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed.timestamp() if parsed.tzinfo is not None else None


def _cmp_events(exp: Any, act: Any, path: str, out: list[str]) -> None:
    def as_counter(v: Any) -> Counter:
        if isinstance(v, dict):
            return Counter({k: n for k, n in v.items() if n})
        return Counter(v or [])

    if as_counter(exp) != as_counter(act):
        out.append(f"{path}: expected the multiset {dict(as_counter(exp))!r}, got {dict(as_counter(act))!r}")


def _cmp_after(exp: list[dict], act: Any, path: str, out: list[str]) -> None:
    by_step = {a.get("stepIndex"): a for a in (act or []) if isinstance(a, dict)}
    for e in exp:
        step = e.get("stepIndex")
        a = by_step.get(step)
        if a is None:
            out.append(f"{path}[stepIndex={step}]: no result for this step")
            continue
        _cmp(e, a, f"{path}[stepIndex={step}]", out)


def _cmp_derived(key: str, exp: Any, conditions: Any, path: str, out: list[str]) -> None:
    conds = conditions if isinstance(conditions, list) else []
    if key == "conditionCount":
        _cmp(exp, len(conds), path, out)
    elif key == "conditionTypeCounts":
        counts = Counter(c.get("type") for c in conds)
        for typ, n in exp.items():
            _cmp(n, counts.get(typ, 0), f"{path}.{typ}", out)
    else:  # conditionsContain: each expected condition matches some actual one
        for i, want in enumerate(exp):
            if not any(not mismatches(want, c) for c in conds):
                out.append(f"{path}[{i}]: no condition matches {want!r} in {conds!r}")
