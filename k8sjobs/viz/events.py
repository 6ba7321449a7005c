"""View 8, the event log: the Job's Events as ``kubectl describe job`` prints them.

Events up to the chosen cycle, with their ages as if ``kubectl describe`` ran right after
it. Repeats of the same event (same type, reason and message) fold into one row with
``(xN over ...)``, as kubectl shows the Event's count. Warnings are highlighted (and say
"Warning" in words, so they stand out in black and white too).

Above :data:`MAX_ROWS` rows the log keeps the most recent ones and says how many it left out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from k8sjobs.i18n import _, join_clauses
from k8sjobs.trace.recorder import Trace
from k8sjobs.trace.records import EventRecord
from k8sjobs.trace.text import human_duration

from ._common import HIGHLIGHT, INK, cycle_word, job_ref, make_figure, plural, resolve, table, title

VIEW = "events"
FITS_WIDTH = False
KINDS = ("Job", "CronJob")
"""A Job's events (``kubectl describe job``) or a CronJob's (``kubectl describe cronjob``)."""
MAX_ROWS = 100
"""At most this many rows (the most recent); kubectl would print them all."""
SOURCE = "job-controller"
SOURCES = {"Job": SOURCE, "CronJob": "cronjob-controller"}
"""The component that records a kind's events, as kubectl's From column shows it."""


def _ref(trace: Trace) -> str:
    return f"cronjob.batch/{trace.job_name}" if trace.kind == "CronJob" else job_ref(trace)


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the Events block."""

    type: str
    reason: str
    age: str
    source: str
    message: str
    first: float
    last: float
    count: int


def rows(trace: Trace, cycle: int) -> tuple[list[Row], int, int]:
    """(rows in time order, total events, rows left out) up to ``cycle``."""
    k, t, _c = resolve(trace, cycle)
    evs: list[EventRecord] = trace.events_until(k)
    groups: dict[tuple[str, str, str], list[float]] = {}
    for e in evs:
        groups.setdefault((e.type, e.reason, e.message), []).append(e.t)
    # In time order of their first occurrence; only the newest MAX_ROWS become rows.
    ordered = sorted(groups.items(), key=lambda kv: kv[1][0])
    dropped = max(0, len(ordered) - MAX_ROWS)
    out = []
    for (typ, reason, message), times in ordered[dropped:]:
        age = human_duration(t - times[-1])
        if len(times) > 1:
            age = f"{age} (x{len(times)} over {human_duration(t - times[0])})"
        out.append(Row(typ, reason, age, SOURCES.get(trace.kind, SOURCE), message, times[0], times[-1], len(times)))
    return out, len(evs), dropped


def _titles(trace: Trace, k: int, t: float, rs: list[Row], total: int, dropped: int) -> tuple[str, str]:
    main = _("Events of {job} as kubectl describe shows them after {when}").format(job=_ref(trace),
                                                                                  when=cycle_word(k, t, trace))
    warnings = sum(r.count for r in rs if r.type == "Warning")
    # TRANSLATORS: {events} is "5 events", {rows} "3 rows", {warnings} "1 warning".
    sub = _("{events} in {rows}, {warnings} shown; ages are relative to that cycle").format(
        events=plural(total, "event"), rows=plural(len(rs) + dropped, "row"), warnings=plural(warnings, "warning"))
    if dropped:
        sub = join_clauses([sub, _("the {rows} not shown").format(rows=plural(dropped, "oldest row"))])
    return main, sub


def figure(trace: Trace, cycle: int):
    """The Events block after ``cycle`` as a table."""
    k, t, _c = resolve(trace, cycle)
    rs, total, dropped = rows(trace, k)
    main, sub = _titles(trace, k, t, rs, total, dropped)
    heads = ["Type", "Reason", "Age", "From", "Message"]  # kubectl's own column titles (English)
    cols: list[list[str]] = [[], [], [], [], []]
    fills: list[str] = []
    if dropped:
        for i, v in enumerate(["…", f"{plural(dropped, 'older row')}", "", "", ""]):
            cols[i].append(v)
        fills.append("#F2F2F2")
    for r in rs:
        warn = r.type == "Warning"
        for i, v in enumerate([f"<b>{r.type}</b>" if warn else r.type, r.reason, r.age, r.source, r.message]):
            cols[i].append(v)
        fills.append(HIGHLIGHT if warn else "#FFFFFF")
    if not rs:
        for i, v in enumerate(["<none>", "", "", "", ""]):
            cols[i].append(v)
        fills.append("#FFFFFF")
    data: list[dict[str, Any]] = [{
        "type": "table", "columnwidth": [70, 170, 150, 110, 520],
        "header": {"values": [f"<b>{h}</b>" for h in heads], "align": "left", "fill": {"color": "#DDDDDD"},
                   "line": {"color": INK, "width": 1}},
        "cells": {"values": cols, "align": "left", "fill": {"color": [fills] * len(heads)},
                  "line": {"color": "#999999", "width": 1}, "font": {"family": "DejaVu Sans Mono, monospace",
                                                                    "size": 11}, "height": 22},
    }]
    layout = {"title": title(main, sub), "height": min(900, 24 * max(len(cols[0]), 1) + 190),
              "margin": {"t": 105, "l": 10, "r": 10, "b": 10}}
    return make_figure(data, layout, view=VIEW)


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`, in kubectl's Events layout."""
    k, t, _c = resolve(trace, cycle)
    rs, total, dropped = rows(trace, k)
    main, sub = _titles(trace, k, t, rs, total, dropped)
    lines = [main, sub, "Events:"]
    if not rs:
        lines.append("  <none>")
        return "\n".join(lines) + "\n"
    body = table(["Type", "Reason", "Age", "From", "Message"],
                 [(r.type, r.reason, r.age, r.source, r.message) for r in rs])
    lines.extend("  " + line for line in body.splitlines())
    return "\n".join(lines) + "\n"


__all__ = ["MAX_ROWS", "Row", "figure", "rows", "text"]
