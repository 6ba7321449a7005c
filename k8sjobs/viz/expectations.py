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

from k8sjobs.controller.controller_utils import EXPECTATIONS_TIMEOUT
from k8sjobs.i18n import _, join_clauses, join_sentences, ngettext, pgettext
from k8sjobs.trace.recorder import Trace
from k8sjobs.trace.records import Cycle

from ._common import (
    INK,
    LEGEND_BOTTOM,
    MUTED,
    OUTCOME_STYLE,
    cycle_word,
    job_ref,
    make_figure,
    now_line,
    plural,
    resolve,
    secs,
    table,
    title,
    x_end,
)

VIEW = "expectations"
FITS_WIDTH = False
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
    k, t, _c = resolve(trace, cycle)
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
    main = _("Expectations of {job} up to {when}: pods expected vs observed").format(job=job_ref(trace),
                                                                                   when=cycle_word(k, t, trace))
    unsat = [r for r in rows if not r.satisfied]
    sub = ngettext("{unmet} of {n} sync found its expectations unmet and did not create or delete pods",
                   "{unmet} of {n} syncs found their expectations unmet and did not create or delete pods",
                   len(rows)).format(unmet=len(unsat), n=len(rows))
    if rows:
        r = rows[-1]
        # TRANSLATORS: {creations} is "2 creations", {deletions} "1 deletion".
        after = _("After cycle {cycle}: {creations} and {deletions} still expected").format(
            cycle=r.cycle, creations=plural(r.add[1], "creation"), deletions=plural(r.dele[1], "deletion"))
        if r.expires_at is not None:
            after = join_clauses([after, _("the record expires at t={t} s ({minutes} min)").format(
                t=secs(r.expires_at), minutes=int(EXPECTATIONS_TIMEOUT // 60))])
        sub = join_sentences([sub, after])
    return main, sub


def _sync_hover(r: CycleRow, met: bool, creations: bool, counts: tuple[int, int]) -> str:
    values = {"cycle": r.cycle, "t": secs(r.t), "before": counts[0], "after": counts[1]}
    if creations:
        text = _("cycle {cycle} at {t} s: met; creations expected {before} → {after}") if met else \
            _("cycle {cycle} at {t} s: NOT met; creations expected {before} → {after}")
    else:
        text = _("cycle {cycle} at {t} s: met; deletions expected {before} → {after}") if met else \
            _("cycle {cycle} at {t} s: NOT met; deletions expected {before} → {after}")
    return text.format(**values)


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
                     "name": _("creations expected, not yet observed") if first else
                     _("deletions expected, not yet observed"), "hoverinfo": "x+y+name"})
        obs = counter.observed if len(counter.observed) <= MARKERS_UP_TO else ()
        data.append({"type": "scatter", "xaxis": xa, "yaxis": ya, "mode": "markers",
                     "x": [o[0] for o in obs], "y": [o[1] for o in obs],
                     "name": _("informer showed a creation") if first else _("informer showed a deletion"),
                     "marker": {"symbol": "triangle-down" if first else "triangle-up", "size": 8, "color": color},
                     "hovertext": [(_("{pod}: creation observed at {t} s, {n} still expected") if first else
                                    _("{pod}: deletion observed at {t} s, {n} still expected")).format(
                                       pod=o[2], t=secs(o[0]), n=o[1]) for o in obs],
                     "hoverinfo": "text", "legendgroup": counter.kind})
        key = "add" if first else "dele"
        for sat, name, sym, size in ((True, _("sync: expectations met"), "circle-open", 8),
                                     (False, _("sync: expectations NOT met (no creates/deletes)"), "x-thin-open", 14)):
            rs = [r for r in rows if r.satisfied is sat]
            data.append({"type": "scatter", "xaxis": xa, "yaxis": ya, "mode": "markers", "x": [r.t for r in rs],
                         "y": [getattr(r, key)[0] for r in rs], "name": name, "legendgroup": name,
                         "showlegend": first, "marker": {"symbol": sym, "size": size, "color": INK,
                                                         "line": {"width": 2.5 if not sat else 1.5, "color": INK}},
                         "hovertext": [_sync_hover(r, sat, first, getattr(r, key)) for r in rs],
                         "hoverinfo": "text"})
    shapes: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    right = x_end(t)
    if cur is not None:
        line, note = now_line(t, _("cycle {cycle}").format(cycle=k), right=right * 1.05)
        # inside the upper plot, under its top edge: above it stands "creations expected", which a
        # label at cycle 1 (t=0) covered; now_line turns the label left of the line in the right part
        # of the axis, where it was cut at the figure's edge (a half-width figure in Chinese: 19 px)
        note.update(y=0.97, yanchor="top")
        shapes.append(line)
        notes.append(note)
        r = rows[-1]
        if r.expires_at is not None:
            if r.expires_at <= right * 1.05:
                shapes.append({"type": "line", "xref": "x", "yref": "paper", "x0": r.expires_at,
                               "x1": r.expires_at, "y0": 0, "y1": 1,
                               "line": {"color": MUTED, "width": 2, "dash": "dot"}})
                notes.append({"x": r.expires_at, "y": 0.5, "xref": "x", "yref": "paper", "showarrow": False,
                              "text": _("expiry of the open record ({t} s)").format(t=secs(r.expires_at)),
                              "textangle": -90,
                              "xanchor": "right", "font": {"size": 11, "color": MUTED}})
            else:
                notes.append({"x": 1, "y": 0.5, "xref": "paper", "yref": "paper", "showarrow": False,
                              "xanchor": "right",
                              "text": _("open record expires at {t} s →").format(t=secs(r.expires_at)),
                              "font": {"size": 11, "color": MUTED}, "bgcolor": "rgba(255,255,255,0.8)"})
    for label, y in ((_("creations expected"), 1.0), (_("deletions expected"), 0.44)):
        notes.append({"x": 0, "y": y, "xref": "paper", "yref": "paper", "text": f"<b>{label}</b>",
                      "showarrow": False, "xanchor": "left", "yanchor": "bottom", "font": {"size": 12}})
    ymax_c = max([1] + [v for _, v in cre.points])
    ymax_d = max([1] + [v for _, v in dele.points])
    ymin_c = min([0] + [v for _, v in cre.points])
    ymin_d = min([0] + [v for _, v in dele.points])
    layout = {
        "title": title(main, sub), "height": 560, "margin": {"t": 105, "l": 60, "r": 30, "b": 95},
        "xaxis": {"anchor": "y", "range": [0, right * 1.05], "showticklabels": True},
        "xaxis2": {"anchor": "y2", "matches": "x", "title": {"text": _("time since the Job was created (s)")}},
        "yaxis": {"domain": [0.56, 0.97], "range": [ymin_c - 0.5, ymax_c * 1.15 + 0.5],
                  "title": {"text": pgettext("axis title", "pods")}, **pod_ticks(ymin_c, ymax_c)},
        "yaxis2": {"domain": [0.0, 0.41], "range": [ymin_d - 0.5, ymax_d * 1.15 + 0.5],
                   "title": {"text": pgettext("axis title", "pods")}, **pod_ticks(ymin_d, ymax_d)},
        "shapes": shapes, "annotations": notes,
        "legend": LEGEND_BOTTOM,
    }
    return make_figure(data, layout, view=VIEW)


def pod_ticks(low: int, high: int, most: int = 4) -> dict[str, Any]:
    """Whole-pod ticks from ``low`` to ``high``, at most about ``most`` + 1 of them: an expectation
    counts pods, so no ``0.5``, and no ``−0.5`` in the corner where the x axis writes its own 0."""
    step = next((s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000) if (high - low) / s <= most),
                10_000)
    first = -(-low // step) * step if low >= 0 else (low // step) * step
    return {"tickmode": "array", "tickvals": list(range(first, high + 1, step))}


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`: one row per cycle."""
    k, t, _c = resolve(trace, cycle)
    cre, dele, rows = model(trace, k)
    main, sub = _titles(trace, k, t, rows)
    heads = [pgettext("table column", "CYCLE"), pgettext("table column", "T(s)"), pgettext("table column", "MET"),
             pgettext("table column", "CREATIONS EXPECTED"), pgettext("table column", "DELETIONS EXPECTED"),
             pgettext("table column", "SEEN +"), pgettext("table column", "SEEN -"),
             pgettext("table column", "RECORD SET"), pgettext("table column", "EXPIRES")]
    body = table(
        heads,
        [(r.cycle, secs(r.t), _("yes") if r.satisfied else _("NO"), f"{r.add[0]} -> {r.add[1]}",
          f"{r.dele[0]} -> {r.dele[1]}", r.seen_add, r.seen_del, secs(r.record_since),
          secs(r.expires_at)) for r in rows], right=(0, 1, 5, 6, 7, 8)) if rows else _("(no cycles yet)")
    lines = [main, sub, _("SEEN +/-: creations/deletions the informer showed since the previous cycle."), body]
    if cre.observed or dele.observed:
        lines.append(_("Observations so far: {creations}, {deletions}.").format(
            creations=plural(len(cre.observed), "creation"), deletions=plural(len(dele.observed), "deletion")))
    return "\n".join(lines) + "\n"


__all__ = ["Counter", "CycleRow", "figure", "model", "text"]
