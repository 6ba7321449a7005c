"""The cluster view: the pods of every Job on the nodes over time, coloured by Job: who took the slots.

One lane per pod slot of a node that was ever used (a pod holds its slot from being bound
until it finishes or is removed), and below them, per Job, the pods that waited for a free
slot (created, not yet bound). Each Job has its colour and its name inside its bars, so the
picture reads in black and white too; waiting bars are hatched. The picture is the run up to
the chosen cycle's time; the axis spans the time so far.

Above :data:`AGGREGATE_ABOVE` pods the view draws, per Job, how many of its pods held a slot
and how many waited, over time (step lines), and the text twin says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from k8sjobs.i18n import _, join_clauses, ngettext, pgettext
from k8sjobs.trace.recorder import Trace

from ._common import (
    CYCLE_STRIP,
    LEGEND_BOTTOM,
    MUTED,
    PLOT_DOMAIN,
    cycle_marker,
    cycle_ticks,
    cycle_word,
    make_figure,
    resolve,
    secs,
    table,
    title,
    x_end,
)

VIEW = "cluster"
FITS_WIDTH = False
KINDS = ("Job", "CronJob")
"""The cluster view shows every Job's pods whichever trace it is given: a CronJob's too."""
AGGREGATE_ABOVE = 300
"""More pods than this (as of the cycle) are drawn as counts per Job over time."""
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
           "#17becf")
"""One colour per Job (repeated after ten Jobs: the Job's name is in its bars and the legend)."""


@dataclass(frozen=True, slots=True)
class Stay:
    """One pod's time on a node slot, or waiting for one: ``start`` to ``end`` (None: still there)."""

    job: str
    pod: str
    node: str
    lane: int
    start: float
    end: float | None


def _jobs(trace: Trace) -> list[Trace]:
    return trace.cluster.jobs() if trace.cluster is not None else [trace]


def stays(trace: Trace, cycle: int) -> tuple[list[Stay], list[Stay], float]:
    """``(on nodes, waiting, t)`` up to ``cycle`` of ``trace``'s run, every Job of it.

    A pod holds a slot of its node from being bound until it finished or was removed; it
    waited from its creation until it was bound (or removed, or until ``t`` if it never was).
    Lanes: the slot of its node a pod used (the first free one), or its row among its Job's
    waiting pods.
    """
    k, t, _c = resolve(trace, cycle)
    bound: list[tuple[float, float | None, str, str, str]] = []
    waits: list[tuple[float, float | None, str, str]] = []
    for tr in _jobs(trace):
        for h in tr.pod_histories():
            if h.created > t:
                continue
            ends = [x for x in (h.finished, h.removed) if x is not None and x <= t]
            end = min(ends) if ends else None
            scheduled = h.scheduled if h.scheduled is not None and h.scheduled <= t else None
            if scheduled is not None:
                bound.append((scheduled, end, h.node, tr.job_name, h.name))
            wait_end = scheduled if scheduled is not None else end
            if wait_end is None or wait_end > h.created:
                waits.append((h.created, wait_end, tr.job_name, h.name))
    return _lanes_on_nodes(bound), _lanes_waiting(waits), t


def _first_free(lane_ends: list[float | None], start: float) -> int:
    for i, end in enumerate(lane_ends):
        if end is not None and end <= start:
            return i
    lane_ends.append(None)
    return len(lane_ends) - 1


def _lanes_on_nodes(bound: list[tuple[float, float | None, str, str, str]]) -> list[Stay]:
    out = []
    free: dict[str, list[float | None]] = {}
    for start, end, node, job, pod in sorted(bound, key=lambda b: (b[2], b[0], b[4])):
        ends = free.setdefault(node, [])
        lane = _first_free(ends, start)
        ends[lane] = end
        out.append(Stay(job, pod, node, lane, start, end))
    return out


def _lanes_waiting(waits: list[tuple[float, float | None, str, str]]) -> list[Stay]:
    out = []
    free: dict[str, list[float | None]] = {}
    for start, end, job, pod in sorted(waits, key=lambda w: (w[2], w[0], w[3])):
        ends = free.setdefault(job, [])
        lane = _first_free(ends, start)
        ends[lane] = end
        out.append(Stay(job, pod, "", lane, start, end))
    return out


def most_at_once(on_nodes: list[Stay], t: float) -> int:
    """The most pods bound to nodes at the same time."""
    points = sorted([(s.start, 1) for s in on_nodes] + [(s.end if s.end is not None else t + 1, -1)
                                                         for s in on_nodes], key=lambda p: (p[0], p[1]))
    now = best = 0
    for _x, d in points:
        now += d
        best = max(best, now)
    return best


def _titles(trace: Trace, k: int, t: float, on_nodes: list[Stay], waiting: list[Stay]) -> tuple[str, str]:
    # TRANSLATORS: {when} is "cycle 4 (t=32 s)" or "the start (t=0 s)".
    main = _("Pods of every Job on the nodes, up to {when}").format(when=cycle_word(k, t, trace))
    jobs = len(_jobs(trace))
    waited = len({s.pod for s in waiting})
    clauses = [ngettext("{n} Job", "{n} Jobs", jobs).format(n=jobs),
               ngettext("at most {n} pod held a node's pod slot at once",
                        "at most {n} pods held a node's pod slots at once", most_at_once(on_nodes, t)).format(
                   n=most_at_once(on_nodes, t)),
               ngettext("{n} pod waited for a free slot", "{n} pods waited for a free slot", waited).format(
                   n=waited)]
    return main, join_clauses(clauses)


def _colour(trace: Trace) -> dict[str, str]:
    return {tr.job_name: PALETTE[i % len(PALETTE)] for i, tr in enumerate(_jobs(trace))}


def figure(trace: Trace, cycle: int):
    """Every Job's pods on the node slots (and waiting for one) up to ``cycle``."""
    k, _t0, _c = resolve(trace, cycle)
    on_nodes, waiting, t = stays(trace, k)
    if len(on_nodes) + len(waiting) > AGGREGATE_ABOVE:
        return _aggregated_figure(trace, k, t, on_nodes, waiting)
    colours = _colour(trace)
    # TRANSLATORS: a lane of the cluster view: {node} a node's name, {slot} the number of one of its pod slots.
    slot_lane = _("{node} · slot {slot}")
    # TRANSLATORS: a lane of the cluster view: pods of Job {job} waiting for a free pod slot (row {row}).
    wait_lane = _("{job} waiting · {row}")
    node_lanes = sorted({(s.node, s.lane) for s in on_nodes})
    lanes = [slot_lane.format(node=n, slot=i + 1) for n, i in node_lanes]
    order = {name: i for i, name in enumerate(colours)}
    wait_rows = sorted({(s.job, s.lane) for s in waiting}, key=lambda w: (order.get(w[0], 0), w[1]))
    lanes += [wait_lane.format(job=j, row=i + 1) for j, i in wait_rows]
    span = x_end(t)
    data: list[dict[str, Any]] = []
    for tr in _jobs(trace):
        job = tr.job_name
        for kind, items in (("slot", [s for s in on_nodes if s.job == job]),
                            ("wait", [s for s in waiting if s.job == job])):
            xs, bases, ys, texts, hovers = [], [], [], [], []
            for s in items:
                end = s.end if s.end is not None else t
                xs.append(round(max(end - s.start, 0.0), 3))
                bases.append(round(s.start, 3))
                ys.append(slot_lane.format(node=s.node, slot=s.lane + 1) if kind == "slot"
                          else wait_lane.format(job=job, row=s.lane + 1))
                fits = (end - s.start) / span * 900 >= 6.5 * len(job) + 8
                texts.append(job if fits else "")
                if kind == "slot" and s.end is not None:
                    hover = _("{pod} (Job {job}) on {node} from {start} s to {end} s")
                elif kind == "slot":
                    hover = _("{pod} (Job {job}) on {node} since {start} s")
                elif s.end is not None:
                    hover = _("{pod} (Job {job}) waited for a free pod slot from {start} s to {end} s")
                else:
                    hover = _("{pod} (Job {job}) has been waiting for a free pod slot since {start} s")
                hover = hover.format(pod=s.pod, job=job, node=s.node, start=secs(s.start),
                                     end=secs(s.end) if s.end is not None else "")
                hovers.append(hover)
            if not items:
                continue
            marker: dict[str, Any] = {"color": colours[job], "line": {"color": "#000000", "width": 0.5}}
            if kind == "wait":
                marker = {"color": "#ffffff", "line": {"color": colours[job], "width": 1.5},
                          "pattern": {"shape": "/", "fgcolor": colours[job], "size": 6}}
            name = job if kind == "slot" else _("{job} (waiting)").format(job=job)
            data.append({"type": "bar", "orientation": "h", "name": name, "legendgroup": job, "x": xs, "base": bases,
                         "y": ys, "text": texts, "hovertext": hovers, "hoverinfo": "text", "marker": marker,
                         "textposition": "inside", "insidetextanchor": "start",
                         "textfont": {"size": 10, "color": "#ffffff" if kind == "slot" else "#000000"},
                         "cliponaxis": False})
    data.append(cycle_ticks(trace, k))
    main, sub = _titles(trace, k, t, on_nodes, waiting)
    shapes, notes = cycle_marker(k, t, span)
    if not lanes:
        notes.append({"text": _("no pods yet"), "showarrow": False, "xref": "paper", "yref": "paper",
                      "x": 0.5, "y": 0.5, "font": {"color": MUTED, "size": 13}})
    layout = {
        "title": title(main, sub), "barmode": "overlay", "bargap": 0.25,
        "height": min(1000, max(340, 24 * len(lanes) + 200)),
        "margin": {"t": 105, "l": 10, "r": 20, "b": 95},
        "xaxis": {"title": {"text": _("time since the run started (s)")}, "range": [trace.start_t, span],
                  "zeroline": False},
        "yaxis": {"domain": PLOT_DOMAIN, "type": "category", "categoryorder": "array", "categoryarray": lanes,
                  # No axis title: the lanes name themselves (a node's slot, a Job's waiting pods).
                  "autorange": "reversed", "automargin": True},
        "yaxis2": CYCLE_STRIP, "shapes": shapes, "annotations": notes, "legend": LEGEND_BOTTOM,
    }
    return make_figure(data, layout, view=VIEW)


def counts_over_time(trace: Trace, on_nodes: list[Stay], waiting: list[Stay], t: float) -> dict[str, dict[str, Any]]:
    """Per Job: the times its counts change and, at each, its pods on slots and waiting (step functions)."""
    out = {}
    for tr in _jobs(trace):
        job = tr.job_name
        series = {}
        for kind, items in (("slot", on_nodes), ("wait", waiting)):
            deltas: dict[float, int] = {}
            for s in items:
                if s.job != job:
                    continue
                deltas[s.start] = deltas.get(s.start, 0) + 1
                if s.end is not None:
                    deltas[s.end] = deltas.get(s.end, 0) - 1
            xs, ys, now = [trace.start_t], [0], 0
            for x in sorted(deltas):
                now += deltas[x]
                xs.append(x)
                ys.append(now)
            xs.append(t)
            ys.append(now)
            series[kind] = {"x": xs, "y": ys, "peak": max(ys)}
        out[job] = series
    return out


def _aggregated_figure(trace: Trace, k: int, t: float, on_nodes: list[Stay], waiting: list[Stay]):
    colours = _colour(trace)
    data: list[dict[str, Any]] = []
    for job, series in counts_over_time(trace, on_nodes, waiting, t).items():
        data.append({"type": "scatter", "mode": "lines", "line": {"shape": "hv", "color": colours[job], "width": 2},
                     "name": job, "legendgroup": job, "x": series["slot"]["x"], "y": series["slot"]["y"]})
        data.append({"type": "scatter", "mode": "lines", "line": {"shape": "hv", "color": colours[job], "width": 2,
                                                                 "dash": "dot"},
                     "name": _("{job} (waiting)").format(job=job), "legendgroup": job,
                     "x": series["wait"]["x"], "y": series["wait"]["y"]})
    data.append(cycle_ticks(trace, k))
    main, sub = _titles(trace, k, t, on_nodes, waiting)
    # TRANSLATORS: appended to the cluster view's subtitle when there are too many pods to draw one by one.
    sub = join_clauses([sub, _("pods per Job over time: solid on a slot, dotted waiting")])
    shapes, notes = cycle_marker(k, t, x_end(t))
    layout = {
        "title": title(main, sub), "height": 480, "margin": {"t": 105, "l": 60, "r": 20, "b": 95},
        "xaxis": {"title": {"text": _("time since the run started (s)")}, "range": [trace.start_t, x_end(t)]},
        "yaxis": {"domain": PLOT_DOMAIN, "title": {"text": _("pods")}, "rangemode": "tozero"},
        "yaxis2": CYCLE_STRIP, "shapes": shapes, "annotations": notes, "legend": LEGEND_BOTTOM,
    }
    return make_figure(data, layout, view=VIEW)


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`, as fixed-width text."""
    k, _t0, _c = resolve(trace, cycle)
    on_nodes, waiting, t = stays(trace, k)
    main, sub = _titles(trace, k, t, on_nodes, waiting)
    lines = [main, sub]
    if len(on_nodes) + len(waiting) > AGGREGATE_ABOVE:
        rows = []
        for job, series in counts_over_time(trace, on_nodes, waiting, t).items():
            rows.append((job, series["slot"]["peak"], series["wait"]["peak"],
                         sum(1 for s in on_nodes if s.job == job), len({s.pod for s in waiting if s.job == job})))
        lines.append(_("Too many pods to list one by one: per Job, the most on slots and waiting at once."))
        lines.append(table([pgettext("table column", "JOB"), pgettext("table column", "MOST ON SLOTS"),
                            pgettext("table column", "MOST WAITING"), pgettext("table column", "PODS BOUND"),
                            pgettext("table column", "PODS THAT WAITED")], rows, right=(1, 2, 3, 4)))
        return "\n".join(lines) + "\n"
    now = _("now")
    if on_nodes:
        rows = [(s.node, s.lane + 1, s.pod, s.job, secs(s.start), secs(s.end) if s.end is not None else now)
                for s in on_nodes]
        lines.append(_("On the nodes' pod slots:"))
        lines.append(table([pgettext("table column", "NODE"), pgettext("table column", "SLOT"),
                            pgettext("table column", "POD"), pgettext("table column", "JOB"),
                            pgettext("table column", "FROM (s)"), pgettext("table column", "TO (s)")], rows,
                           right=(1, 4, 5)))
    else:
        lines.append(_("(no pod on a node yet)"))
    if waiting:
        rows = [(s.job, s.pod, secs(s.start), secs(s.end) if s.end is not None else now,
                 secs((s.end if s.end is not None else t) - s.start)) for s in waiting]
        lines.append(_("Waited for a free pod slot:"))
        lines.append(table([pgettext("table column", "JOB"), pgettext("table column", "POD"),
                            pgettext("table column", "FROM (s)"), pgettext("table column", "TO (s)"),
                            pgettext("table column", "WAITED (s)")], rows, right=(2, 3, 4)))
    return "\n".join(lines) + "\n"


__all__ = ["AGGREGATE_ABOVE", "Stay", "counts_over_time", "figure", "most_at_once", "stays", "text"]
