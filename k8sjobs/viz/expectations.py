"""View 6, expectations: creations and deletions the controller is still waiting to see.

A sync that creates ``n`` pods records "expect ``n`` creations" (deleting sets "expect ``n``
deletions"); each pod the informer later shows lowers the count by one. Until the counts are
back to zero the next syncs do not create or delete anything (the expectations are not
*satisfied*): they only recompute the status. A record older than 5 minutes expires and is
treated as satisfied, so a lost watch event cannot block a Job for ever.

Two panels (creations above, deletions below): the count still expected over time (a step
line that jumps up at a sync and down at each observation), each observation, and every
sync marked satisfied (open circle) or unsatisfied (a cross) — plus the 5-minute expiry of
the record that is open at the chosen cycle.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from k8sjobs.controller.expectations import EXPECTATIONS_TIMEOUT
from k8sjobs.trace.recorder import Trace
from k8sjobs.trace.records import Cycle

from ._common import (
    HIGHLIGHT,
    INK,
    LEGEND_BOTTOM,
    MUTED,
    OUTCOME_STYLE,
    cycle_word,
    job_ref,
    make_figure,
    resolve,
    secs,
    table,
    title,
    x_end,
)

VIEW = "expectations"
MARKERS_UP_TO = 400
"""Draw a marker per observation only up to this many (the step line shows them all)."""
_SETS = ("create.plan", "scale_down", "suspend.delete")


@dataclass(frozen=True, slots=True)
class Counter:
    """One counter (creations or deletions) over time."""

    kind: str
    points: tuple[tuple[float, int], ...]
    """(t, value) corners of the step line."""
    observed: tuple[tuple[float, int, str], ...]
    """(t, value after, pod) for each observation between syncs."""


@dataclass(frozen=True, slots=True)
class CycleRow:
    """A cycle's view of its expectations."""

    cycle: int
    t: float
    satisfied: bool
    add: tuple[int, int]
    dele: tuple[int, int]
    seen_add: int
    seen_del: int
    record_since: float | None
    expires_at: float | None


def _observations(trace: Trace, k: int, t: float) -> dict[str, list[tuple[float, int, str]]]:
    """(t, cycles ended before it, pod) of each observation up to cycle ``k`` (before the next cycle)."""
    out: dict[str, list[tuple[float, int, str]]] = {"creation": [], "deletion": []}
    for n in trace.notes:
        if n.after_cycle >= k and n.t > t or n.after_cycle > k:
            break
        if n.rule == "expectations.creation_observed":
            out["creation"].append((n.t, n.after_cycle, str(n.fields.get("pod", ""))))
        elif n.rule == "expectations.deletion_observed":
            out["deletion"].append((n.t, n.after_cycle, str(n.fields.get("pod", ""))))
    return out


def _record_since(c: Cycle) -> float | None:
    if any(d.rule in _SETS for d in c.decisions):
        return c.t
    since = c.observed.get("expect_since")
    return float(since) if since is not None else None


def model(trace: Trace, cycle: int) -> tuple[Counter, Counter, list[CycleRow]]:
    """The two counters up to ``cycle`` and one row per cycle."""
    k, t, _ = resolve(trace, cycle)
    obs = _observations(trace, k, t)
    cycles = trace.cycles[:k]
    counters = []
    for kind, before_i, after_i in (("creation", 0, 2), ("deletion", 1, 3)):
        points: list[tuple[float, int]] = [(0.0, 0)]
        observed: list[tuple[float, int, str]] = []
        value = 0
        seen = obs[kind]
        j = 0
        for c in cycles:
            # Observations made before this cycle (after_cycle counts the cycles already ended).
            while j < len(seen) and seen[j][1] < c.index:
                value -= 1
                points.append((seen[j][0], value))
                observed.append((seen[j][0], value, seen[j][2]))
                j += 1
            # The sync's own numbers are the truth at its time (expect_*, set, lowered on failures).
            value = c.expectations[before_i]
            points.append((c.t, value))
            value = c.expectations[after_i]
            points.append((c.t, value))
        while j < len(seen):
            value -= 1
            points.append((seen[j][0], value))
            observed.append((seen[j][0], value, seen[j][2]))
            j += 1
        points.append((t, value))
        counters.append(Counter(kind, tuple(points), tuple(observed)))
    rows = []
    ca = [x[1] for x in obs["creation"]]
    cd = [x[1] for x in obs["deletion"]]
    for c in cycles:
        # Seen between the previous cycle and this one: after_cycle == c.index - 1.
        seen_add = bisect_right(ca, c.index - 1) - bisect_right(ca, c.index - 2)
        seen_del = bisect_right(cd, c.index - 1) - bisect_right(cd, c.index - 2)
        since = _record_since(c)
        open_after = c.expectations[2] > 0 or c.expectations[3] > 0
        rows.append(CycleRow(c.index, c.t, c.satisfied, (c.expectations[0], c.expectations[2]),
                             (c.expectations[1], c.expectations[3]), seen_add, seen_del, since,
                             since + EXPECTATIONS_TIMEOUT if since is not None and open_after else None))
    return counters[0], counters[1], rows


def _titles(trace: Trace, k: int, t: float, rows: list[CycleRow]) -> tuple[str, str]:
    main = f"Expectations of {job_ref(trace)} up to {cycle_word(k, t)}: pods expected vs observed"
    unsat = [r for r in rows if not r.satisfied]
    sub = f"{len(unsat)} of {len(rows)} syncs found their expectations unmet and did not create or delete pods"
    if rows:
        r = rows[-1]
        sub += (f". After cycle {r.cycle}: {r.add[1]} creations and {r.dele[1]} deletions still expected")
        if r.expires_at is not None:
            sub += f"; the record expires at t={secs(r.expires_at)} s ({int(EXPECTATIONS_TIMEOUT // 60)} min)"
    return main, sub


def figure(trace: Trace, cycle: int):
    """Expected vs observed creations (top) and deletions (bottom) up to ``cycle``."""
    k, t, cur = resolve(trace, cycle)
    cre, dele, rows = model(trace, k)
    main, sub = _titles(trace, k, t, rows)
    data: list[dict[str, Any]] = []
    for counter, xa, ya, color in ((cre, "x", "y", OUTCOME_STYLE["running"].color),
                                   (dele, "x2", "y2", OUTCOME_STYLE["deleted"].color)):
        first = counter.kind == "creation"
        data.append({"type": "scatter", "xaxis": xa, "yaxis": ya, "mode": "lines", "line": {"shape": "hv",
                     "color": color, "width": 2.5, "dash": "solid" if first else "dash"},
                     "x": [p[0] for p in counter.points], "y": [p[1] for p in counter.points],
                     "name": f"{counter.kind}s expected, not yet observed", "hoverinfo": "x+y+name"})
        obs = counter.observed if len(counter.observed) <= MARKERS_UP_TO else ()
        data.append({"type": "scatter", "xaxis": xa, "yaxis": ya, "mode": "markers",
                     "x": [o[0] for o in obs], "y": [o[1] for o in obs], "name": f"informer showed a {counter.kind}",
                     "marker": {"symbol": "triangle-down" if first else "triangle-up", "size": 8, "color": color},
                     "hovertext": [f"{o[2]}: {counter.kind} observed at {secs(o[0])} s, {o[1]} still expected"
                                   for o in obs], "hoverinfo": "text", "legendgroup": counter.kind})
        key = "add" if first else "dele"
        for sat, name, sym, size in ((True, "sync: expectations met", "circle-open", 8),
                                     (False, "sync: expectations NOT met (no creates/deletes)", "x-thin-open", 14)):
            rs = [r for r in rows if r.satisfied is sat]
            data.append({"type": "scatter", "xaxis": xa, "yaxis": ya, "mode": "markers", "x": [r.t for r in rs],
                         "y": [getattr(r, key)[0] for r in rs], "name": name, "legendgroup": name,
                         "showlegend": first, "marker": {"symbol": sym, "size": size, "color": INK,
                                                         "line": {"width": 2.5 if not sat else 1.5, "color": INK}},
                         "hovertext": [f"cycle {r.cycle} at {secs(r.t)} s: {'met' if sat else 'NOT met'}; "
                                       f"{counter.kind}s expected {getattr(r, key)[0]} → {getattr(r, key)[1]}"
                                       for r in rs], "hoverinfo": "text"})
    shapes: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    right = x_end(t)
    if cur is not None:
        shapes.append({"type": "line", "xref": "x", "yref": "paper", "x0": t, "x1": t, "y0": 0, "y1": 1,
                       "line": {"color": INK, "width": 2.5, "dash": "dash"}, "layer": "above"})
        notes.append({"x": t, "y": 1.0, "xref": "x", "yref": "paper", "text": f"<b>cycle {k}</b>",
                      "showarrow": False, "yanchor": "bottom", "xanchor": "left", "bgcolor": HIGHLIGHT})
        r = rows[-1]
        if r.expires_at is not None:
            if r.expires_at <= right * 1.05:
                shapes.append({"type": "line", "xref": "x", "yref": "paper", "x0": r.expires_at,
                               "x1": r.expires_at, "y0": 0, "y1": 1,
                               "line": {"color": MUTED, "width": 2, "dash": "dot"}})
                notes.append({"x": r.expires_at, "y": 0.5, "xref": "x", "yref": "paper", "showarrow": False,
                              "text": f"expiry of the open record ({secs(r.expires_at)} s)", "textangle": -90,
                              "xanchor": "right", "font": {"size": 11, "color": MUTED}})
            else:
                notes.append({"x": 1, "y": 0.5, "xref": "paper", "yref": "paper", "showarrow": False,
                              "xanchor": "right", "text": f"open record expires at {secs(r.expires_at)} s →",
                              "font": {"size": 11, "color": MUTED}, "bgcolor": "rgba(255,255,255,0.8)"})
    for label, y in (("creations expected", 1.0), ("deletions expected", 0.44)):
        notes.append({"x": 0, "y": y, "xref": "paper", "yref": "paper", "text": f"<b>{label}</b>",
                      "showarrow": False, "xanchor": "left", "yanchor": "bottom", "font": {"size": 12}})
    ymax_c = max([1] + [v for _, v in cre.points])
    ymax_d = max([1] + [v for _, v in dele.points])
    ymin_c = min([0] + [v for _, v in cre.points])
    ymin_d = min([0] + [v for _, v in dele.points])
    layout = {
        "title": title(main, sub), "height": 560, "margin": {"t": 105, "l": 60, "r": 30, "b": 95},
        "xaxis": {"anchor": "y", "range": [0, right * 1.05], "showticklabels": True},
        "xaxis2": {"anchor": "y2", "matches": "x", "title": {"text": "time since the Job was created (s)"}},
        "yaxis": {"domain": [0.56, 0.97], "range": [ymin_c - 0.5, ymax_c * 1.15 + 0.5], "title": {"text": "pods"}},
        "yaxis2": {"domain": [0.0, 0.41], "range": [ymin_d - 0.5, ymax_d * 1.15 + 0.5], "title": {"text": "pods"}},
        "shapes": shapes, "annotations": notes,
        "legend": LEGEND_BOTTOM,
    }
    return make_figure(data, layout, view=VIEW)


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`: one row per cycle."""
    k, t, _ = resolve(trace, cycle)
    cre, dele, rows = model(trace, k)
    main, sub = _titles(trace, k, t, rows)
    body = table(
        ["CYCLE", "T(s)", "MET", "CREATIONS EXPECTED", "DELETIONS EXPECTED", "SEEN +", "SEEN -", "RECORD SET",
         "EXPIRES"],
        [(r.cycle, secs(r.t), "yes" if r.satisfied else "NO", f"{r.add[0]} -> {r.add[1]}",
          f"{r.dele[0]} -> {r.dele[1]}", r.seen_add, r.seen_del, secs(r.record_since),
          secs(r.expires_at)) for r in rows], right=(0, 1, 5, 6, 7, 8)) if rows else "(no cycles yet)"
    lines = [main, sub, "SEEN +/-: creations/deletions the informer showed since the previous cycle.", body]
    if cre.observed or dele.observed:
        lines.append(f"Observations so far: {len(cre.observed)} creations, {len(dele.observed)} deletions.")
    return "\n".join(lines) + "\n"


__all__ = ["Counter", "CycleRow", "figure", "model", "text"]
