"""View 3, the slow-start ladder: how one sync created its pods in batches 1, 2, 4, 8, ...

``manageJob`` does not create all missing pods at once: it sends a batch of 1, then 2, 4,
8, ... (each capped by what is left), and stops at the first batch with a failed create.
The pods of the batches it never sent are *skipped*: the sync lowers its creation
expectations for them and a later sync tries again. The ladder has one row per batch of
the plan: created pods, failed creates (the failed batch is marked) and skipped pods, with
the creation expectations before and after the sync.

The view shows the chosen cycle if it created pods, else the latest one before it that did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from k8sjobs.trace.recorder import Trace
from k8sjobs.trace.records import Cycle

from ._common import (
    HIGHLIGHT,
    INK,
    LEGEND_BOTTOM,
    bar_marker,
    cycle_word,
    empty_figure,
    job_ref,
    latest_cycle_with,
    make_figure,
    plural,
    resolve,
    secs,
    table,
    title,
)

VIEW = "slow_start"
SLOW_START_INITIAL_BATCH_SIZE = 1
MAX_ROWS = 14
"""Batches 1, 2, 4 ... 8192 cover the 10,000 creates a sync may send at most."""


def plan_batches(diff: int, initial: int = SLOW_START_INITIAL_BATCH_SIZE) -> list[int]:
    """Batch sizes of a slow start creating ``diff`` pods: 1, 2, 4, ... capped by what remains."""
    sizes, batch = [], min(diff, initial)
    while diff > 0:
        sizes.append(batch)
        diff -= batch
        batch = min(2 * batch, diff)
    return sizes


@dataclass(frozen=True, slots=True)
class Batch:
    """One row of the ladder."""

    number: int
    size: int
    created: tuple[str, ...]
    failed: int
    skipped: int
    expect_add_after: int
    """The creation expectation once this batch was sent (failed and skipped creates lowered it)."""

    @property
    def status(self) -> str:
        """``sent``, ``failed`` (had a failed create) or ``skipped`` (never sent)."""
        if self.skipped:
            return "skipped"
        return "failed" if self.failed else "sent"


@dataclass(frozen=True, slots=True)
class Ladder:
    """A cycle's slow start, read from its ``create.*`` decisions."""

    cycle: Cycle
    planned: int
    indexes: tuple[int, ...]
    batches: tuple[Batch, ...]
    stopped_at: int | None
    skipped: int
    expect_before: int
    expect_set: int
    expect_after: int

    @property
    def created(self) -> int:
        """Pods actually created."""
        return sum(len(b.created) for b in self.batches)

    @property
    def failed(self) -> int:
        """Creates the API server rejected."""
        return sum(b.failed for b in self.batches)


def creates_pods(c: Cycle) -> bool:
    """Whether the cycle planned pod creations."""
    return any(d.rule == "create.plan" for d in c.decisions)


def ladder(c: Cycle) -> Ladder:
    """The slow start of cycle ``c`` (which must have a ``create.plan`` decision)."""
    plan = c.find("create.plan")[0]
    planned = int(plan.fields.get("count", 0))
    sent = {int(d.fields["batch"]): d for d in c.find("create.slow_start_batch")}
    stop = c.find("create.slow_start_stop")
    stopped_at = int(stop[0].fields["batch"]) if stop else None
    skipped = int(stop[0].fields["skipped"]) if stop else 0
    expect = planned
    rows = []
    for number, size in enumerate(plan_batches(planned), start=1):
        d = sent.get(number)
        if d is not None:
            failed = int(d.fields.get("failed", 0))
            expect -= failed
            rows.append(Batch(number, size, tuple(d.fields.get("created", ())), failed, 0, expect))
        else:
            expect -= size
            rows.append(Batch(number, size, (), 0, size, expect))
    return Ladder(c, planned, tuple(int(i) for i in plan.fields.get("indexes", ()) or ()), tuple(rows), stopped_at,
                  skipped, c.expectations[0], planned, c.expectations[2])


def _pick(trace: Trace, cycle: int) -> Cycle | None:
    return latest_cycle_with(trace, cycle, creates_pods)


def _titles(trace: Trace, k: int, t: float, lad: Ladder) -> tuple[str, str]:
    c = lad.cycle
    where = f"cycle {c.index} (t={secs(c.t)} s)"
    if c.index != k:
        where += f", the latest cycle that created pods up to {cycle_word(k, t)}"
    main = f"Slow start of {job_ref(trace)} in {where}"
    sizes = ", ".join(str(b.size) for b in lad.batches)
    sub = f"{plural(lad.planned, 'pod')} planned in batches {sizes}: {lad.created} created"
    if lad.failed:
        sub += f", {lad.failed} failed"
    if lad.stopped_at is not None:
        sub += f"; batch {lad.stopped_at} had a failed create, so {plural(lad.skipped, 'pod')} were skipped"
    sub += (f". Creations expected: {lad.expect_before} before the sync, {lad.expect_set} set by it, "
            f"{lad.expect_after} after it")
    return main, sub


def figure(trace: Trace, cycle: int):
    """The batches of the latest pod-creating cycle at or before ``cycle``."""
    k, t, _ = resolve(trace, cycle)
    c = _pick(trace, k)
    if c is None:
        return empty_figure(VIEW, f"Slow start of {job_ref(trace)} up to {cycle_word(k, t)}",
                            "no cycle has created pods yet")
    lad = ladder(c)
    main, sub = _titles(trace, k, t, lad)
    shown = list(lad.batches[:MAX_ROWS])
    ys = [f"batch {b.number} (size {b.size})" for b in shown]
    parts = {
        "created": ("succeeded", [len(b.created) for b in shown],
                    ["<br>".join(b.created) if len(b.created) <= 4 else f"{len(b.created)} pods" for b in shown]),
        "failed create": ("failed", [b.failed for b in shown], [""] * len(shown)),
        "skipped (not sent)": ("pending", [b.skipped for b in shown], [""] * len(shown)),
    }
    data: list[dict[str, Any]] = []
    for name, (style, xs, hov) in parts.items():
        text_ = [f"{x} {name.split(' ')[0]}" if x else "" for x in xs]
        data.append({"type": "bar", "orientation": "h", "name": name, "y": ys, "x": xs, "text": text_,
                     "textposition": "inside", "insidetextanchor": "middle", "marker": bar_marker(style),
                     "textfont": {"color": "#000000" if style == "pending" else "#ffffff"},
                     "customdata": hov, "hovertemplate": "%{y}: %{x} " + name + "<br>%{customdata}<extra></extra>"})
    notes: list[dict[str, Any]] = []
    for b, y in zip(shown, ys):
        mark = {"failed": "  ◀ failed batch: slow start stops here", "skipped": "  (never sent)"}.get(b.status, "")
        notes.append({"x": b.size, "y": y, "xref": "x", "yref": "y", "showarrow": False, "xanchor": "left",
                      "text": f"creations expected: {b.expect_add_after}{mark}", "font": {"size": 11},
                      "bgcolor": HIGHLIGHT if b.status == "failed" else "rgba(0,0,0,0)"})
    shapes = [{"type": "rect", "xref": "paper", "yref": "y", "x0": 0, "x1": 1, "y0": i - 0.5, "y1": i + 0.5,
               "line": {"color": INK, "width": 2, "dash": "dot"}, "fillcolor": "rgba(0,0,0,0)", "layer": "above"}
              for i, b in enumerate(shown) if b.status == "failed"]
    xmax = max([b.size for b in shown] + [1])
    layout = {
        "title": title(main, sub), "barmode": "stack", "height": max(300, 46 * len(shown) + 200),
        "margin": {"t": 105, "l": 10, "r": 30, "b": 95},
        "xaxis": {"title": {"text": "pods in the batch"}, "range": [0, xmax * 1.9 + 1], "dtick": _dtick(xmax)},
        "yaxis": {"type": "category", "categoryorder": "array", "categoryarray": ys, "autorange": "reversed",
                  "automargin": True},
        "annotations": notes, "shapes": shapes,
        "legend": LEGEND_BOTTOM,
    }
    return make_figure(data, layout, view=VIEW)


def _dtick(xmax: int) -> int:
    for step in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000):
        if xmax / step <= 10:
            return step
    return 10000


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`: one row per batch."""
    k, t, _ = resolve(trace, cycle)
    c = _pick(trace, k)
    if c is None:
        return f"Slow start of {job_ref(trace)} up to {cycle_word(k, t)}\nno cycle has created pods yet\n"
    lad = ladder(c)
    main, sub = _titles(trace, k, t, lad)
    rows = []
    for b in lad.batches:
        names = ", ".join(b.created) if len(b.created) <= 4 else f"{len(b.created)} pods"
        rows.append((b.number, b.size, len(b.created), b.failed, b.skipped, b.expect_add_after,
                     b.status + (" <- slow start stops" if b.status == "failed" else ""), names or "-"))
    body = table(["BATCH", "SIZE", "CREATED", "FAILED", "SKIPPED", "EXPECT", "STATUS", "PODS"], rows,
                 right=range(6))
    lines = [main, sub]
    if lad.indexes:
        shown = ", ".join(str(i) for i in lad.indexes[:20]) + (" ..." if len(lad.indexes) > 20 else "")
        lines.append(f"Completion indexes planned: {shown}")
    lines.append(body)
    return "\n".join(lines) + "\n"


__all__ = ["Batch", "Ladder", "creates_pods", "figure", "ladder", "plan_batches", "text"]
