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

from dataclasses import dataclass
from typing import Any

from k8sjobs.controller.active_pods import ORDER_RULES, PRESTEP_RULES, RULE_SENTENCES
from k8sjobs.trace.recorder import Trace
from k8sjobs.trace.records import Cycle, Decision

from ._common import (
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
    strip_html,
    table,
    title,
)

VIEW = "deletion"

RULE_COLUMNS: tuple[tuple[str, str], ...] = (
    ("unassigned-first", "assigned"),
    ("earlier-phase-first", "phase"),
    ("not-ready-first", "ready"),
    ("recently-ready-first", "ready since"),
    ("more-restarts-first", "restarts"),
    ("newer-first", "created"),
)
"""(rule id, column title), in the order ``ActivePods.Less`` tries the rules.

Our tie-breaker, ``name``, is the pod column itself. ``more-sidecar-restarts-first`` has no
column: the trace's pod facts carry no sidecar restart counts; a pair it decides is named in
the "decided by" column all the same."""

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
    for name, rule, sentence in f.get("prestep", ()):
        pos += 1
        rows.append(Row(pos, name, facts.get(name, {"name": name}), name in to_delete, rule, sentence, True))
    order = list(f.get("ranking", ()))
    pair = list(f.get("pair_rules", ()))
    for i, name in enumerate(order):
        pos += 1
        rule = pair[i] if i < len(pair) else None
        sentence = RULE_SENTENCES.get(rule or "", "") if rule else ("last in the order" if i == len(order) - 1 else "")
        rows.append(Row(pos, name, facts.get(name, {"name": name}), name in to_delete, rule, sentence, False))
    indexed = trace.manifest.spec.completion_mode == "Indexed"
    return Ranking(c, int(f.get("active", 0)), int(f.get("want", 0)), tuple(rows), indexed)


def _cell(rule: str, facts: dict[str, Any]) -> str:
    if rule == "unassigned-first":
        return facts.get("node") or "unassigned"
    if rule == "earlier-phase-first":
        return str(facts.get("phase", "-"))
    if rule == "not-ready-first":
        return "yes" if facts.get("ready") else "no"
    if rule == "recently-ready-first":
        return f"{secs(facts['readySince'])} s" if facts.get("readySince") is not None else "-"
    if rule == "more-restarts-first":
        return str(facts.get("restarts", 0))
    if rule == "newer-first":
        return f"{secs(facts['created'])} s" if facts.get("created") is not None else "-"
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
    where = f"cycle {c.index} (t={secs(c.t)} s)"
    if c.index != k:
        where += f", the latest scale-down up to {cycle_word(k, t)}"
    main = f"Deletion order of {job_ref(trace)} in {where}"
    sub = (f"{r.active} active, want {r.want}: {plural(r.deleted, 'pod')} deleted from the top. "
           f"Rules left to right in the order they are tried; {MARK} marks the rule that puts a pod before the next")
    pre = [x for x in r.rows if x.prestep]
    if pre:
        sub += f"; {plural(len(pre), 'pod')} removed first by the Indexed pre-step"
    cut = r.cut
    if cut is not None:
        sub += f". The cut: {cut.name} goes before the first kept pod by rule {cut.rule}"
    return main, sub


def figure(trace: Trace, cycle: int):
    """The deletion ranking of the latest scale-down at or before ``cycle``, as a table."""
    k, t, _ = resolve(trace, cycle)
    c = _pick(trace, k)
    if c is None:
        return empty_figure(VIEW, f"Deletion order of {job_ref(trace)} up to {cycle_word(k, t)}",
                            "no scale-down yet: the controller has not had more active pods than it wanted")
    r = ranking(trace, c)
    main, sub = _titles(trace, k, t, r)
    vis = _visible(r.rows)
    heads = ["#", "pod"] + (["index"] if r.indexed else []) + [col for _, col in RULE_COLUMNS] + \
        ["verdict", "decided by (before the next pod)"]
    ncols = len(heads)
    cols: list[list[str]] = [[] for _ in heads]
    fills: list[list[str]] = [[] for _ in heads]
    for item in vis:
        if isinstance(item, int):
            cells = ["…", f"… {plural(item, 'pod')} not shown …"] + [""] * (ncols - 2)
            for i, v in enumerate(cells):
                cols[i].append(v)
                fills[i].append("#F2F2F2")
            continue
        row_fill = "#FFFFFF" if item.deleted else "#F7F7F7"
        by_name = not item.prestep and item.rule == "name"
        cells: list[str] = [str(item.position), f"<b>{MARK} {item.name}</b>" if by_name else item.name]
        if r.indexed:
            ix = item.facts.get("index")
            cells.append(str(ix) if ix is not None else "none")
        for rule, _ in RULE_COLUMNS:
            v = _cell(rule, item.facts)
            if not item.prestep and item.rule == rule:
                v = f"<b>{MARK} {v}</b>"
            cells.append(v)
        cells.append("<b>DELETE</b>" if item.deleted else "keep")
        if item.prestep:
            cells.append(f"<b>pre-step</b>: {item.sentence}")
        elif item.rule:
            cells.append(f"{item.rule}: {item.sentence}")
        else:
            cells.append(item.sentence or "-")
        rule_col = {rule: 2 + int(r.indexed) + j for j, (rule, _) in enumerate(RULE_COLUMNS)} | {"name": 1}
        lit = {rule_col[item.rule]} if (not item.prestep and item.rule in rule_col) else set()
        if item.prestep and r.indexed:
            lit = {2}
        for i, v in enumerate(cells):
            cols[i].append(v)
            fills[i].append(HIGHLIGHT if i in lit else row_fill)
    widths = [28, 170] + ([46] if r.indexed else []) + [96, 72, 50, 74, 60, 62] + [62, 300]
    data: list[dict[str, Any]] = [{
        "type": "table", "columnwidth": widths,
        "header": {"values": [f"<b>{h}</b>" for h in heads], "fill": {"color": "#DDDDDD"},
                   "line": {"color": INK, "width": 1}, "align": "left", "font": {"size": 12}},
        "cells": {"values": cols, "fill": {"color": fills}, "line": {"color": "#999999", "width": 1},
                  "align": "left", "font": {"size": 11}, "height": 24},
    }]
    # Rows grow when the last column wraps (about 50 characters a line at this width).
    rows_px = sum(26 + 18 * ((len(strip_html(v)) - 1) // 50) for v in cols[-1])
    layout = {"title": title(main, sub), "height": min(1400, rows_px + 60 + 140),
              "margin": {"t": 105, "l": 10, "r": 10, "b": 10}}
    return make_figure(data, layout, view=VIEW)


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`; the deciding cell is marked with ``*``."""
    k, t, _ = resolve(trace, cycle)
    c = _pick(trace, k)
    if c is None:
        return (f"Deletion order of {job_ref(trace)} up to {cycle_word(k, t)}\n"
                "no scale-down yet: the controller has not had more active pods than it wanted\n")
    r = ranking(trace, c)
    main, sub = _titles(trace, k, t, r)
    heads = ["#", "POD"] + (["INDEX"] if r.indexed else []) + [col.upper() for _, col in RULE_COLUMNS] + \
        ["VERDICT", "DECIDED BY"]
    rows = []
    for item in _visible(r.rows):
        if isinstance(item, int):
            rows.append(["...", f"({plural(item, 'pod')} not shown)"] + [""] * (len(heads) - 2))
            continue
        by_name = not item.prestep and item.rule == "name"
        cells = [str(item.position), f"*{item.name}" if by_name else item.name]
        if r.indexed:
            ix = item.facts.get("index")
            cells.append(str(ix) if ix is not None else "none")
        for rule, _ in RULE_COLUMNS:
            v = _cell(rule, item.facts)
            cells.append(f"*{v}" if not item.prestep and item.rule == rule else v)
        cells.append("DELETE" if item.deleted else "keep")
        cells.append(f"pre-step {item.rule}: {item.sentence}" if item.prestep else
                     (item.rule or "-"))
        rows.append(cells)
    lines = [main, sub.replace(MARK, "*"), table(heads, rows)]
    used = sorted({x.rule for x in r.rows if x.rule and not x.prestep}, key=_rule_order)
    if used:
        lines.append("Rules: " + "; ".join(f"{u}: {RULE_SENTENCES.get(u, u)}" for u in used))
    return "\n".join(lines) + "\n"


def _rule_order(rule: str) -> int:
    ids = [r.id for r in ORDER_RULES] + ["name"]
    return ids.index(rule) if rule in ids else len(ids)


__all__ = ["PRESTEP_RULES", "RULE_COLUMNS", "Ranking", "Row", "figure", "ranking", "scales_down", "text"]
