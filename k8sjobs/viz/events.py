"""View 8, the event log: the Job's Events as ``kubectl describe job`` prints them.

Events up to the chosen cycle, with their ages as if ``kubectl describe`` ran right after
it. Repeats of the same event (same type, reason and message) fold into one row with
``(xN over ...)``, as kubectl shows the Event's count. Warnings are highlighted (and say
"Warning" in words, so they stand out in black and white too).

Above :data:`MAX_ROWS` rows the log keeps the most recent ones and says how many it left out.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any

from k8sjobs.api.events import event_expired
from k8sjobs.i18n import _, join_clauses
from k8sjobs.trace.recorder import Trace
from k8sjobs.trace.records import EventRecord
from k8sjobs.trace.text import human_duration

from ._common import (
    FIGURE_PX,
    HIGHLIGHT,
    INK,
    cycle_word,
    job_ref,
    make_figure,
    plural,
    resolve,
    table,
    title,
)

VIEW = "events"
FITS_WIDTH = True
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
    rs, total, dropped, _expired = _rows(trace, cycle)
    return rs, total, dropped


def _rows(trace: Trace, cycle: int) -> tuple[list[Row], int, int, int]:
    """:func:`rows` and the rows of Events a cluster has dropped by then (last written more than
    ``EVENT_TTL``, an hour, before the cycle: kube-apiserver's event TTL), which are not rows."""
    k, t, _c = resolve(trace, cycle)
    evs: list[EventRecord] = trace.events_until(k)
    groups: dict[tuple[str, str, str], list[float]] = {}
    for e in evs:
        groups.setdefault((e.type, e.reason, e.message), []).append(e.t)
    live = {key: times for key, times in groups.items() if not event_expired(times[-1], t)}
    # In time order of their first occurrence; only the newest MAX_ROWS become rows.
    ordered = sorted(live.items(), key=lambda kv: kv[1][0])
    dropped = max(0, len(ordered) - MAX_ROWS)
    out = []
    for (typ, reason, message), times in ordered[dropped:]:
        age = human_duration(t - times[-1])
        if len(times) > 1:
            age = f"{age} (x{len(times)} over {human_duration(t - times[0])})"
        out.append(Row(typ, reason, age, SOURCES.get(trace.kind, SOURCE), message, times[0], times[-1], len(times)))
    return out, len(evs), dropped, len(groups) - len(live)


def _titles(trace: Trace, k: int, t: float, rs: list[Row], total: int, dropped: int,
            expired: int) -> tuple[str, str]:
    main = _("Events of {job} as kubectl describe shows them after {when}").format(job=_ref(trace),
                                                                                  when=cycle_word(k, t, trace))
    warnings = sum(r.count for r in rs if r.type == "Warning")
    # TRANSLATORS: {events} is "5 events", {rows} "3 rows", {warnings} "1 warning".
    sub = _("{events} in {rows}, {warnings} shown; ages are relative to that cycle").format(
        events=plural(total, "event"), rows=plural(len(rs) + dropped, "row"), warnings=plural(warnings, "warning"))
    if dropped:
        sub = join_clauses([sub, _("the {rows} not shown").format(rows=plural(dropped, "oldest row"))])
    if expired:
        # TRANSLATORS: {rows} is "3 rows"; the API server deletes an Event an hour after its last write.
        sub = join_clauses([sub, _("{rows} gone: last written over an hour earlier (the API server's event TTL)").format(
            rows=plural(expired, "row"))])
    return main, sub


MONO_EM = 0.602
"""The advance of DejaVu Sans Mono, the cells' font, in em: every character takes the same width."""
CELL_FONT = 11
CELL_PAD_PX = 16
"""Room plotly keeps around a cell's text (8 px before it, a few after), with a little to spare."""
MESSAGE_MIN_PX = 200
"""The narrowest the Message column gets in the wide layout; below that the figure stacks columns."""
STACK_BELOW_PX = 600
"""Figures narrower than this (a half-width pane) stack Type over Reason and From over Message."""


def _bare(text: str) -> str:
    return text.replace("<b>", "").replace("</b>", "")


def _mono_px(text: str) -> float:
    """Pixels of the widest line of a cell's ``text`` in the cells' monospaced font."""
    return max(len(_bare(line)) for line in text.split("<br>")) * MONO_EM * CELL_FONT


def _wrap(text: str, px: float) -> str:
    """``text`` wrapped to ``px`` pixels of monospaced cells (plotly breaks a cell only at a space, so a
    pod's long name ran out of its column): at spaces, and inside a word longer than the line."""
    chars = max(6, int((px - CELL_PAD_PX) // (MONO_EM * CELL_FONT)))
    return "<br>".join(textwrap.wrap(text, chars, break_long_words=True, break_on_hyphens=False)) or text


def _row_px(cells: list[str], first_line: int = 23) -> int:
    """Pixels of one row as plotly draws it (``first_line`` for one line, 19 more for each further
    line; measured in Chromium): the cell of the most lines decides, so no row is cut off."""
    return first_line + 19 * max(v.count("<br>") for v in cells)


def layout_columns(heads: list[str], cols: list[list[str]], width_px: float) -> tuple[list[str], list[list[str]],
                                                                                        list[float]]:
    """(heads, columns, widths in px) of the table in a figure ``width_px`` wide.

    Wide: kubectl's five columns, the first four as wide as their widest cell, Message the rest (its
    cells wrapped to it). Narrow (below :data:`STACK_BELOW_PX`): three columns, Type over Reason,
    Age, and From over Message, so every word shows in a half-width pane.
    """
    room = width_px - 20  # the figure's margins

    def fit(col: list[str], head: str) -> float:
        return max([_mono_px(v) for v in col] + [_mono_px(head)]) + CELL_PAD_PX

    if width_px >= STACK_BELOW_PX:
        widths = [fit(col, h) for h, col in zip(heads[:-1], cols[:-1])]
        rest = room - sum(widths)
        if rest >= MESSAGE_MIN_PX:
            return ([f"<b>{h}</b>" for h in heads], cols[:-1] + [[_wrap(v, rest) for v in cols[-1]]],
                    widths + [rest])
    typ, reason, age, source, message = cols
    first = [f"{a}<br>{b}" for a, b in zip(typ, reason)]
    w_first = fit(first, "Type")
    w_age = min(fit(age, "Age"), 0.22 * room)
    w_last = room - w_first - w_age
    last = [f"{a}<br>{_wrap(b, w_last)}" if a else _wrap(b, w_last) for a, b in zip(source, message)]
    ages = [_wrap(v, w_age) for v in age]
    return (["<b>Type</b><br><b>Reason</b>", "<b>Age</b>", "<b>From</b><br><b>Message</b>"],
            [first, ages, last], [w_first, w_age, w_last])


def figure(trace: Trace, cycle: int, *, width_px: float = FIGURE_PX):
    """The Events block after ``cycle`` as a table, laid out for a figure ``width_px`` wide."""
    k, t, _c = resolve(trace, cycle)
    rs, total, dropped, expired = _rows(trace, k)
    main, sub = _titles(trace, k, t, rs, total, dropped, expired)
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
    shown_heads, shown, widths = layout_columns(heads, cols, width_px)
    data: list[dict[str, Any]] = [{
        "type": "table", "columnwidth": widths,
        "header": {"values": shown_heads, "align": "left", "fill": {"color": "#DDDDDD"},
                   "line": {"color": INK, "width": 1}},
        "cells": {"values": shown, "align": "left", "fill": {"color": [fills] * len(shown)},
                  "line": {"color": "#999999", "width": 1}, "font": {"family": "DejaVu Sans Mono, monospace",
                                                                    "size": CELL_FONT}, "height": 22},
    }]
    rows_px = sum(_row_px([col[i] for col in shown]) for i in range(len(shown[0])))
    header_px = _row_px(shown_heads, first_line=28)
    layout = {"title": title(main, sub, width_px=width_px), "height": min(1400, rows_px + header_px + 130),
              "margin": {"t": 105, "l": 10, "r": 10, "b": 10}}
    return make_figure(data, layout, view=VIEW)


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`, in kubectl's Events layout."""
    k, t, _c = resolve(trace, cycle)
    rs, total, dropped, expired = _rows(trace, k)
    main, sub = _titles(trace, k, t, rs, total, dropped, expired)
    lines = [main, sub, "Events:"]
    if not rs:
        lines.append("  <none>")
        return "\n".join(lines) + "\n"
    body = table(["Type", "Reason", "Age", "From", "Message"],
                 [(r.type, r.reason, r.age, r.source, r.message) for r in rs])
    lines.extend("  " + line for line in body.splitlines())
    return "\n".join(lines) + "\n"


__all__ = ["MAX_ROWS", "Row", "figure", "rows", "text"]
