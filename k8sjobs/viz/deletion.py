"""View 5, the deletion ranking: which active pods a scale-down deletes, and which rule decided.

When a Job has more active pods than it wants, ``manageJob`` sorts them with
``ActivePods.Less`` and deletes from the front. The table lists the candidates in that
order, one column per rule in the order the rules are tried (assigned to a node, phase,
ready, ready since, restarts, created, and our name tie-breaker). For each pod the cell of
the rule that put it before the next pod is highlighted (filled, bold and marked ``◆``), so
the learner can read the ranking pair by pair. Indexed Jobs first remove, whatever the
count, pods without a valid index, pods whose index is out of range and all but one pod
of a duplicated index: that pre-step comes first in the table.

The view shows the chosen cycle if it scaled down, else the latest one before it that did.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from k8sjobs.controller.controller_utils import ORDER_RULES
from k8sjobs.i18n import Np_, _, join_clauses, join_sentences, pgettext
from k8sjobs.trace.reasons import PRESTEP_RULES, why_sentence
from k8sjobs.trace.recorder import Trace
from k8sjobs.trace.records import Cycle, Decision

from ._common import (
    FIGURE_PX,
    HIGHLIGHT,
    INK,
    cycle_word,
    empty_figure,
    job_ref,
    latest_cycle_with,
    make_figure,
    plural,
    resolve,
    secs,
    table,
    text_px,
    title,
    wrap_px,
)

VIEW = "deletion"
FITS_WIDTH = True

COLUMN_CONTEXT = "deletion-order column"
"""The gettext context of the column titles: "ready" is a yes/no column here (a legend elsewhere),
"created" a pod's creation time (a count of created pods in the slow-start view)."""

RULE_COLUMNS: tuple[tuple[str, str], ...] = (
    # TRANSLATORS: column titles of the deletion-order table: the pod fact each rule compares (assigned:
    # the pod's node or "-"; ready: yes/no; ready since, created: a time in seconds; restarts: a number).
    ("unassigned-first", Np_("deletion-order column", "assigned")),
    ("earlier-phase-first", Np_("deletion-order column", "phase")),
    ("not-ready-first", Np_("deletion-order column", "ready")),
    ("recently-ready-first", Np_("deletion-order column", "ready since")),
    ("more-restarts-first", Np_("deletion-order column", "restarts")),
    ("newer-first", Np_("deletion-order column", "created")),
)
"""(rule id, column title (marked; shown with ``column_title()``)), in the order ``ActivePods.Less``
tries the rules.

Our tie-breaker, ``name``, is the pod column itself. ``more-sidecar-restarts-first`` has no
column: the trace's pod facts carry no sidecar restart counts; a pair it decides is named in
the "decided by" column all the same."""


def column_title(column: str) -> str:
    """A column title of :data:`RULE_COLUMNS` in the current language."""
    return pgettext(COLUMN_CONTEXT, column)


MARK = "◆"
FULL_ROWS = 60
"""Show every candidate up to this many; beyond, the head of the ranking and the rows around the cut."""


@dataclass(frozen=True, slots=True)
class Row:
    """One candidate in deletion order."""

    position: int
    name: str
    facts: dict[str, Any]
    deleted: bool
    rule: str | None
    """The rule that puts this pod before the next one (prestep rows: the pre-step rule id)."""
    sentence: str
    prestep: bool


@dataclass(frozen=True, slots=True)
class Ranking:
    """A scale-down decision as rows."""

    cycle: Cycle
    active: int
    want: int
    rows: tuple[Row, ...]
    indexed: bool

    @property
    def deleted(self) -> int:
        """How many pods were deleted."""
        return sum(r.deleted for r in self.rows)

    @property
    def cut(self) -> Row | None:
        """The last deleted ranked pod when the next one was kept: its rule decided the cut."""
        ranked = [r for r in self.rows if not r.prestep]
        for a, b in zip(ranked, ranked[1:]):
            if a.deleted and not b.deleted:
                return a
        return None


def scales_down(c: Cycle) -> bool:
    """Whether the cycle made a scale-down decision (with a ranking)."""
    return any(d.rule == "scale_down" for d in c.decisions)


def ranking(trace: Trace, c: Cycle) -> Ranking:
    """The ranking of cycle ``c``'s ``scale_down`` decision."""
    d: Decision = c.find("scale_down")[0]
    f = d.fields
    facts = {x["name"]: x for x in f.get("candidates", ())}
    to_delete = set(f.get("to_delete", ()))
    rows: list[Row] = []
    pos = 0
    for name, rule, numbers in f.get("prestep", ()):
        pos += 1
        sentence = why_sentence(rule, numbers if isinstance(numbers, dict) else {})
        rows.append(Row(pos, name, facts.get(name, {"name": name}), name in to_delete, rule, sentence, True))
    order = list(f.get("ranking", ()))
    pair = list(f.get("pair_rules", ()))
    for i, name in enumerate(order):
        pos += 1
        rule = pair[i] if i < len(pair) else None
        sentence = why_sentence(rule) if rule else (_("last in the order") if i == len(order) - 1 else "")
        rows.append(Row(pos, name, facts.get(name, {"name": name}), name in to_delete, rule, sentence, False))
    indexed = trace.manifest.spec.completion_mode == "Indexed"
    return Ranking(c, int(f.get("active", 0)), int(f.get("want", 0)), tuple(rows), indexed)


def _cell(rule: str, facts: dict[str, Any]) -> str:
    if rule == "unassigned-first":
        return facts.get("node") or _("unassigned")
    if rule == "earlier-phase-first":
        return str(facts.get("phase", "-"))
    if rule == "not-ready-first":
        return _("yes") if facts.get("ready") else _("no")
    if rule == "recently-ready-first":
        return _("{seconds} s").format(seconds=secs(facts["readySince"])) if facts.get("readySince") is not None else "-"
    if rule == "more-restarts-first":
        return str(facts.get("restarts", 0))
    if rule == "newer-first":
        return _("{seconds} s").format(seconds=secs(facts["created"])) if facts.get("created") is not None else "-"
    return ""


def _visible(rows: tuple[Row, ...]) -> list[Row | int]:
    """Rows to draw; an int stands for a gap of that many rows left out."""
    if len(rows) <= FULL_ROWS:
        return list(rows)
    head = [r for r in rows if r.prestep][:20]
    ranked = [r for r in rows if not r.prestep]
    cut = next((i for i, r in enumerate(ranked) if not r.deleted), len(ranked))
    keep = set(range(min(20, len(ranked)))) | set(range(max(0, cut - 8), min(len(ranked), cut + 8)))
    out: list[Row | int] = list(head)
    npre = len([r for r in rows if r.prestep])
    if npre > len(head):
        out.append(npre - len(head))
    gap = 0
    for i, r in enumerate(ranked):
        if i in keep:
            if gap:
                out.append(gap)
                gap = 0
            out.append(r)
        else:
            gap += 1
    if gap:
        out.append(gap)
    return out


def _pick(trace: Trace, k: int) -> Cycle | None:
    return latest_cycle_with(trace, k, scales_down)


def _titles(trace: Trace, k: int, t: float, r: Ranking) -> tuple[str, str]:
    c = r.cycle
    if c.index != k:
        main = _("Deletion order of {job} in cycle {cycle} (t={t} s), the latest scale-down up to {when}")
    else:
        main = _("Deletion order of {job} in cycle {cycle} (t={t} s)")
    main = main.format(job=job_ref(trace), cycle=c.index, t=secs(c.t), when=cycle_word(k, t, trace))
    # TRANSLATORS: {pods} is "2 pods"; {mark} is the symbol that marks the deciding cell.
    sub = _("{active} active, want {want}: {pods} deleted from the top. Rules left to right in the order they are "
            "tried; {mark} marks the rule that puts a pod before the next").format(
        active=r.active, want=r.want, pods=plural(r.deleted, "pod"), mark=MARK)
    pre = [x for x in r.rows if x.prestep]
    if pre:
        sub = join_clauses([sub, _("{pods} removed first by the Indexed pre-step").format(pods=plural(len(pre), "pod"))])
    cut = r.cut
    if cut is not None:
        # TRANSLATORS: {rule} is a deletion-order rule id such as not-ready-first (stays English).
        sub = join_sentences([sub, _("The cut: {pod} goes before the first kept pod by rule {rule}").format(
            pod=cut.name, rule=cut.rule)])
    return main, sub


def _nothing() -> str:
    return _("no scale-down yet: the controller has not had more active pods than it wanted")


TABLE_PX = FIGURE_PX - 20
"""How wide the table is drawn at the narrowest (the figure less its margins); its columns share it by weight."""
CELL_PAD_PX = 12
"""Room plotly keeps around a cell's text (8 px before it, a few after)."""
WHY_MIN_PX = 140
"""The narrowest the last column (sentences, which wrap) gets."""
NBSP = "\u00a0"
_UNIT = re.compile(r"(?<=\d) (?=\S+$)")


def _glue(text: str) -> str:
    """``text`` with the spaces plotly must not wrap at made non-breaking: it breaks table cells
    only at ASCII spaces, so "3.512 с" broke between the number and its unit (ru), and "◆ Pending"
    after the mark. (Column titles such as "готов с" are made whole where the table is built.)"""
    text = _UNIT.sub(NBSP, text)
    for mark in (f"{MARK} ", f"<b>{MARK} "):
        text = text.replace(mark, mark[:-1] + NBSP)
    return text


def column_px(texts: list[str], size: float) -> float:
    """Pixels a column needs so that no piece of ``texts`` between two ASCII spaces (where plotly
    may wrap) is wider than it, at font ``size`` (bold where tagged)."""
    widest = 0.0
    for t in texts:
        bold = "<b>" in t
        for piece in t.split(" "):
            widest = max(widest, text_px(piece.replace(NBSP, " "), size, bold=bold))
    return widest + CELL_PAD_PX


def column_widths(heads: list[str], cols: list[list[str]]) -> list[float]:
    """Column widths in pixels of a table :data:`TABLE_PX` wide: every column but the last as wide
    as its widest unbreakable piece of text (a title, a value with its unit), the last (sentences)
    the rest, and at least :data:`WHY_MIN_PX`."""
    widths = [max(column_px([h], 12), column_px(col, 11)) for h, col in zip(heads[:-1], cols[:-1])]
    return widths + [max(TABLE_PX - sum(widths), WHY_MIN_PX)]


def _row_height(cells: list[str]) -> int:
    """Pixels for one row of already wrapped cells (11 px text): the cell of the most lines decides,
    so no row is cut off at the bottom of the figure."""
    return 12 + 16 * max(v.count("<br>") + 1 for v in cells)


def figure(trace: Trace, cycle: int, *, width_px: float = FIGURE_PX):
    """The deletion ranking of the latest scale-down at or before ``cycle``, as a table laid out for a
    figure ``width_px`` wide (below :data:`STACK_BELOW_PX`, :func:`narrow_table`'s four columns)."""
    k, t, _c = resolve(trace, cycle)
    c = _pick(trace, k)
    if c is None:
        return empty_figure(VIEW, _("Deletion order of {job} up to {when}").format(job=job_ref(trace),
                                                                                    when=cycle_word(k, t, trace)),
                            _nothing())
    r = ranking(trace, c)
    main, sub = _titles(trace, k, t, r)
    vis = _visible(r.rows)
    heads = ["#", pgettext("table column", "pod")] + ([pgettext("table column", "index")] if r.indexed else []) + \
        [column_title(col) for _rule, col in RULE_COLUMNS] + \
        [pgettext("table column", "verdict"), pgettext("table column", "decided by (before the next pod)")]
    ncols = len(heads)
    cols: list[list[str]] = [[] for _h in heads]
    fills: list[list[str]] = [[] for _h in heads]
    deciding: list[int | None] = []  # per row, the column of the rule that decided (None: none or "not shown")
    for item in vis:
        if isinstance(item, int):
            deciding.append(None)
            cells = ["…", _("… {pods} not shown …").format(pods=plural(item, "pod"))] + [""] * (ncols - 2)
            for i, v in enumerate(cells):
                cols[i].append(v)
                fills[i].append("#F2F2F2")
            continue
        row_fill = "#FFFFFF" if item.deleted else "#F7F7F7"
        by_name = not item.prestep and item.rule == "name"
        cells: list[str] = [str(item.position), f"<b>{MARK} {item.name}</b>" if by_name else item.name]
        if r.indexed:
            ix = item.facts.get("index")
            cells.append(str(ix) if ix is not None else _("none"))
        for rule, _col in RULE_COLUMNS:
            v = _cell(rule, item.facts)
            if not item.prestep and item.rule == rule:
                v = f"<b>{MARK} {v}</b>"
            cells.append(v)
        cells.append("<b>" + pgettext("verdict", "DELETE") + "</b>" if item.deleted else pgettext("verdict", "keep"))
        if item.prestep:
            cells.append(_("<b>pre-step</b>: {why}").format(why=item.sentence))
        elif item.rule:
            cells.append(rule_and_why(item.rule, item.sentence))
        else:
            cells.append(item.sentence or "-")
        rule_col = {rule: 2 + int(r.indexed) + j for j, (rule, _col) in enumerate(RULE_COLUMNS)} | {"name": 1}
        lit = {rule_col[item.rule]} if (not item.prestep and item.rule in rule_col) else set()
        if item.prestep and r.indexed:
            lit = {2}
        for i, v in enumerate(cells):
            cols[i].append(v)
            fills[i].append(HIGHLIGHT if i in lit else row_fill)
        deciding.append(next(iter(lit), None))
    if width_px < STACK_BELOW_PX:
        heads, cols, fills, widths = narrow_table(heads, cols, fills, deciding, r.indexed, width_px)
        return _table_figure(main, sub, heads, cols, fills, widths, width_px)
    # Every column but the last (why: sentences) holds short values that must not wrap.
    heads = [f"<b>{h.replace(' ', NBSP)}</b>" for h in heads[:-1]] + [f"<b>{heads[-1]}</b>"]
    cols = [[_glue(v) for v in col] for col in cols[:-1]] + cols[-1:]
    widths = column_widths(heads, cols)
    # Plotly wraps a cell only at ASCII spaces, so Chinese sentences ran out of the last column:
    # its cells, and the "not shown" row, are wrapped here to the width they are drawn at.
    scale = min(1.0, TABLE_PX / sum(widths))
    for i, col in enumerate(cols):
        room = widths[i] * scale - CELL_PAD_PX
        if i == len(cols) - 1:
            cols[i] = ["<br>".join(wrap_px(v, room, 11)) or v for v in col]
        elif i == 1:
            cols[i] = ["<br>".join(wrap_px(v, room, 11)) if v.startswith("…") else v for v in col]
    return _table_figure(main, sub, heads, cols, fills, widths, width_px)


def _table_figure(main: str, sub: str, heads: list[str], cols: list[list[str]], fills: list[list[str]],
                  widths: list[float], width_px: float) -> Any:
    data: list[dict[str, Any]] = [{
        "type": "table", "columnwidth": widths,
        "header": {"values": heads, "fill": {"color": "#DDDDDD"},
                   "line": {"color": INK, "width": 1}, "align": "left", "font": {"size": 12}},
        "cells": {"values": cols, "fill": {"color": fills}, "line": {"color": "#999999", "width": 1},
                  "align": "left", "font": {"size": 11}, "height": 24},
    }]
    rows_px = sum(_row_height([col[i] for col in cols]) for i in range(len(cols[0])))
    head_px = 16 * max(h.count("<br>") for h in heads)
    layout = {"title": title(main, sub, width_px=width_px), "height": min(1400, rows_px + head_px + 60 + 140),
              "margin": {"t": 105, "l": 10, "r": 10, "b": 10}}
    return make_figure(data, layout, view=VIEW)


STACK_BELOW_PX = 600
"""Figures narrower than this (a half-width pane) show :func:`narrow_table`'s four columns."""


def _bare(text: str) -> str:
    return text.replace("<b>", "").replace("</b>", "").replace(f"{MARK} ", "").strip()


def narrow_table(heads: list[str], cols: list[list[str]], fills: list[list[str]], deciding: list[int | None],
                 indexed: bool, width_px: float) -> tuple[list[str], list[list[str]], list[list[str]], list[float]]:
    """The ranking in four columns for a half-width pane: #, pod (and its index), verdict, and what
    decided (the deciding pod fact, marked, over the rule's sentence). The six facts of the wide table
    do not fit there; the text twin and the full-width figure keep them all."""
    n = len(cols[0])
    pos, pods, verdicts, decided, lit = [], [], [], [], []
    for i in range(n):
        j = deciding[i]
        pod = cols[1][i]
        if indexed and cols[2][i]:
            pod += f"<br>{heads[2]} {_bare(cols[2][i])}"
        pos.append(cols[0][i])
        pods.append(pod)
        verdicts.append(cols[-2][i])
        why = cols[-1][i]
        if j is not None and j >= 2 + int(indexed):
            fact = f"<b>{MARK}{NBSP}{heads[j]}: {_bare(cols[j][i])}</b>"
            decided.append(f"{fact}<br>{why}" if why else fact)
        else:
            decided.append(why)
        lit.append(j)
    room = width_px - 20  # the figure's margins
    new_heads = [f"<b>{h.replace(' ', NBSP)}</b>" for h in (heads[0], heads[1], heads[-2])] + [f"<b>{heads[-1]}</b>"]
    short = [[_glue(v) for v in col] for col in (pos, pods, verdicts)]
    widths = [max(column_px([h], 12), column_px([line for v in col for line in v.split("<br>")], 11))
              for h, col in zip(new_heads[:3], short)]
    last = max(room - sum(widths), WHY_MIN_PX / 2)
    widths.append(last)
    text_room = last - CELL_PAD_PX
    new_heads[-1] = "<br>".join(wrap_px(new_heads[-1], text_room, 12 * 1.1)) or new_heads[-1]
    wrapped = ["<br>".join("<br>".join(wrap_px(part, text_room, 11)) or part for part in v.split("<br>"))
               for v in decided]
    row_fills = fills[-1]
    new_fills = [row_fills[:], [HIGHLIGHT if lit[i] == 1 else row_fills[i] for i in range(n)], row_fills[:],
                 [HIGHLIGHT if lit[i] is not None and lit[i] != 1 else row_fills[i] for i in range(n)]]
    return new_heads, short + [wrapped], new_fills, widths


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`; the deciding cell is marked with ``*``."""
    k, t, _c = resolve(trace, cycle)
    c = _pick(trace, k)
    if c is None:
        return (_("Deletion order of {job} up to {when}").format(job=job_ref(trace), when=cycle_word(k, t, trace)) + "\n"
                + _nothing() + "\n")
    r = ranking(trace, c)
    main, sub = _titles(trace, k, t, r)
    heads = ["#", pgettext("table column", "POD")] + ([pgettext("table column", "INDEX")] if r.indexed else []) + \
        [column_title(col).upper() for _rule, col in RULE_COLUMNS] + \
        [pgettext("table column", "VERDICT"), pgettext("table column", "DECIDED BY")]
    rows = []
    for item in _visible(r.rows):
        if isinstance(item, int):
            rows.append(["...", _("({pods} not shown)").format(pods=plural(item, "pod"))] + [""] * (len(heads) - 2))
            continue
        by_name = not item.prestep and item.rule == "name"
        cells = [str(item.position), f"*{item.name}" if by_name else item.name]
        if r.indexed:
            ix = item.facts.get("index")
            cells.append(str(ix) if ix is not None else _("none"))
        for rule, _col in RULE_COLUMNS:
            v = _cell(rule, item.facts)
            cells.append(f"*{v}" if not item.prestep and item.rule == rule else v)
        cells.append(pgettext("verdict", "DELETE") if item.deleted else pgettext("verdict", "keep"))
        cells.append(_("pre-step {rule}: {why}").format(rule=item.rule, why=item.sentence) if item.prestep else
                     (item.rule or "-"))
        rows.append(cells)
    lines = [main, sub.replace(MARK, "*"), table(heads, rows)]
    used = sorted({x.rule for x in r.rows if x.rule and not x.prestep}, key=_rule_order)
    if used:
        lines.append(_("Rules: {rules}").format(rules=join_clauses(rule_and_why(u, why_sentence(u)) for u in used)))
    return "\n".join(lines) + "\n"


def rule_and_why(rule: str, why: str) -> str:
    """A deletion-order rule id and its sentence: ``not-ready-first: ...`` (``：`` in Chinese)."""
    # TRANSLATORS: a deletion-order rule id (stays English, e.g. not-ready-first) and the sentence saying
    # why it put one pod before the next.
    return _("{rule}: {why}").format(rule=rule, why=why)


def _rule_order(rule: str) -> int:
    ids = [r.id for r in ORDER_RULES] + ["name"]
    return ids.index(rule) if rule in ids else len(ids)


__all__ = ["COLUMN_CONTEXT", "PRESTEP_RULES", "RULE_COLUMNS", "Ranking", "Row", "column_title", "figure", "ranking",
           "scales_down", "text"]
