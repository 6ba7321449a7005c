"""Label selectors (mirrors metav1.LabelSelectorAsSelector and labels.Selector.Matches)."""

from __future__ import annotations

from collections.abc import Mapping

from .types import LabelSelector


def selector_matches(selector: LabelSelector | None, labels: Mapping[str, str]) -> bool:
    """Whether ``labels`` satisfy ``selector``; a nil selector matches nothing, an empty one everything."""
    if selector is None:
        return False
    for key, value in selector.match_labels.items():
        if labels.get(key) != value:
            return False
    for req in selector.match_expressions:
        present = req.key in labels
        if req.operator == "In":
            if not present or labels[req.key] not in req.values:
                return False
        elif req.operator == "NotIn":
            if present and labels[req.key] in req.values:
                return False
        elif req.operator == "Exists":
            if not present:
                return False
        elif req.operator == "DoesNotExist":
            if present:
                return False
        else:  # validation rejects other operators; an unknown one matches nothing
            return False
    return True


def format_selector(selector: LabelSelector | None) -> str:
    """``a=b,c in (d,e)`` as kubectl describe prints a selector."""
    if selector is None:
        return "<none>"
    parts = [f"{k}={v}" for k, v in sorted(selector.match_labels.items())]
    for req in selector.match_expressions:
        if req.operator in ("In", "NotIn"):
            parts.append(f"{req.key} {req.operator.lower()} ({','.join(req.values)})")
        elif req.operator == "Exists":
            parts.append(req.key)
        else:
            parts.append(f"!{req.key}")
    return ",".join(parts) or "<none>"
