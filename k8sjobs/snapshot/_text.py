"""Small pieces of wording shared by explain's answers about a Job (explain.py) and a CronJob (cronexplain.py)."""

from __future__ import annotations

from typing import Any

from ..i18n import _, join_list


def plain(fields: dict[str, Any]) -> dict[str, Any]:
    """A decision's fields for JSON: without the rule id and the rendered reason, which stand beside them."""
    return {k: v for k, v in fields.items() if k not in ("rule", "reason")}


def seconds(t: float) -> str:
    """Seconds with at most three decimals and no trailing zeros (``2.5``, ``0``)."""
    text = f"{t:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def names(items: list[str], limit: int = 10) -> str:
    """The first ``limit`` names joined as a list in the current language, then "and N more"."""
    shown = join_list(items[:limit])
    if len(items) > limit:
        shown += " " + _("and {n} more").format(n=len(items) - limit)
    return shown
