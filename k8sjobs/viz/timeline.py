"""View 1, the pod timeline: one bar per pod from creation to end, on a seconds axis.

Each pod's bar is split where its life changed: pending (created, not yet running), then
running or its outcome (succeeded, failed), then terminating or deleted. Bars are ``go.Bar``
with ``base`` (horizontal), never ``px.timeline``, which forces a date axis. The picture is
the run *up to the chosen cycle*: pods created later are not there yet and pods still alive
end at that cycle's time; the time axis always spans the whole run, so the picture grows as
the learner steps. Indexed Jobs sort pods by completion index and label bars with it.

Above :data:`AGGREGATE_ABOVE` pods there would be more bars than anyone can read: the view
then bins time and shows stacked counts (pods alive in each state above the axis, pods that
ended in the bin below it), and the title and text twin say so.
"""

from __future__ import annotations

import bisect
from typing import Any

from k8sjobs.i18n import _, join_clauses, join_list, pgettext
from k8sjobs.trace.recorder import Trace
from k8sjobs.trace.records import PodHistory

from ._common import (
    CYCLE_STRIP,
    FIGURE_PX,
    LEGEND_BOTTOM,
    MUTED,
    OUTCOMES,
    PLOT_DOMAIN,
    bar_marker,
    cached,
    cycle_marker,
    cycle_ticks,
    cycle_word,
    fit_x_title,
    job_ref,
    make_figure,
    names_room,
    outcome_word,
    plural,
    resolve,
    secs,
    short_pod_label,
    table,
    text_px,
    title,
    wrap_px,
    x_end,
)

VIEW = "timeline"
FITS_WIDTH = False
AGGREGATE_ABOVE = 400
"""More pods than this (as of the cycle) are drawn as binned counts instead of one bar each."""
PLOT_WIDTH_PX = 1000
"""Assumed plot width, to decide which bar labels fit (a label that does not fit is left to the hover)."""
BINS = 100
"""Number of time bins from 0 to the cycle's time in the aggregated picture."""
FITS_WIDTH = True
"""This view fits its pods' names to the figure's width (``figure(..., width_px=...)``)."""
NAMES_SHARE = 0.4
"""The most of the figure's width the pods' names may take; longer ones leave out the Job's name."""
MARGIN = {"t": 105, "l": 10, "r": 20, "b": 95}


# ------------------------------------------------------------------------------ the model


def _as_of(v: float | None, t: float) -> float | None:
    return v if v is not None and v <= t else None


def pod_segments(h: PodHistory, t: float) -> list[tuple[str, float, float]]:
    """``(outcome, start, end)`` pieces of a pod's bar as of time ``t`` (empty if not yet created).

    pending from creation until it runs (or is deleted or ends); then running, coloured by
    the outcome if it finished on its own; then terminating/deleted from the deletion
    request to the end. Zero-length pieces are dropped, except that a pod always has one.
    """
    if h.created > t:
        return []
    started, finished = _as_of(h.started, t), _as_of(h.finished, t)
    deleting, removed = _as_of(h.deleting, t), _as_of(h.removed, t)
    stops = [x for x in (finished, removed) if x is not None]
    stop = min(stops) if stops else t
    outcome = h.outcome(t)
    pieces: list[tuple[str, float, float]] = []
    first = min(x for x in (started, deleting, stop) if x is not None)
    pieces.append(("pending", h.created, first))
    tail_from = deleting if deleting is not None and deleting < stop else stop
    if started is not None and started < tail_from:
        run_as = outcome if outcome in ("succeeded", "failed") and tail_from == stop else "running"
        pieces.append((run_as, started, tail_from))
    if tail_from < stop:
        tail = outcome if outcome in ("terminating", "deleted", "succeeded", "failed") else "terminating"
        pieces.append((tail, tail_from, stop))
    kept = [p for p in pieces if p[2] > p[1]]
    return kept or [(outcome if outcome != "running" else "pending", h.created, h.created)]


def _label(h: PodHistory, outcome: str, indexed: bool) -> str:
    word = outcome_word(outcome)
    if outcome == "failed" and h.exit_code is not None:
        word = _("failed (exit {code})").format(code=h.exit_code)
    if h.disruption and outcome in ("failed", "deleted", "terminating"):
        # TRANSLATORS: {disruption} is a DisruptionTarget reason such as EvictionByEvictionAPI (stays English).
        word = _("{outcome}, {disruption}").format(outcome=word, disruption=h.disruption)
    return _("index {index} · {outcome}").format(index=h.index, outcome=word) if indexed and h.index is not None \
        else word


def _hover(h: PodHistory, outcome: str, t: float) -> str:
    lines = [f"<b>{h.name}</b>"]
    if h.index is not None:
        lines.append(_("completion index {index}").format(index=h.index))
    lines.append(_("created at {t} s (cycle {cycle})").format(t=secs(h.created), cycle=h.created_in_cycle))
    if h.node and h.scheduled is not None and h.scheduled <= t:
        lines.append(_("scheduled on {node} at {t} s").format(node=h.node, t=secs(h.scheduled)))
    for word, v in ((_("started at {t} s"), h.started), (_("ready at {t} s"), h.ready),
                    (_("deletion requested at {t} s"), h.deleting), (_("finished at {t} s"), h.finished),
                    (_("removed at {t} s"), h.removed)):
        if v is not None and v <= t:
            lines.append(word.format(t=secs(v)))
    if h.restarts:
        lines.append(f"{plural(h.restarts, 'container restart')}")
    lines.append(_("outcome: {outcome}").format(outcome=_label(h, outcome, False)))
    return "<br>".join(lines)


def pods_as_of(trace: Trace, cycle: int) -> list[PodHistory]:
    """The pods created by the end of ``cycle``, in display order (by index for Indexed Jobs)."""
    end = trace.cycle(cycle).change_end if cycle else 0
    # Cut by change number, not time: what a later cycle does at the same instant stays out.
    hist = [h.until(end) for h in trace.pod_histories() if h.created_in_cycle <= cycle]
    if _indexed(trace):
        hist.sort(key=lambda h: (h.index if h.index is not None else 1 << 62, h.created, h.name))
    return hist


def _indexed(trace: Trace) -> bool:
    return trace.manifest.spec.completion_mode == "Indexed"


# ------------------------------------------------------------------------------ figure


def figure(trace: Trace, cycle: int, *, width_px: float = FIGURE_PX):
    """The pod timeline up to ``cycle`` (a bar per pod, or binned counts for many pods).

    ``width_px``: the narrowest the figure will be drawn; where the pods' names would take
    more than :data:`NAMES_SHARE` of it, they leave out the Job's name (``…-v2nvs [0]``; the
    hover and the text twin keep the whole name).
    """
    k, t, _c = resolve(trace, cycle)
    pods = pods_as_of(trace, k)
    if len(pods) > AGGREGATE_ABOVE:
        return _aggregated_figure(trace, k, t, pods, width_px)
    indexed = _indexed(trace)
    by: dict[str, dict[str, list[Any]]] = {o: {"x": [], "base": [], "y": [], "text": [], "hovertext": []}
                                          for o in OUTCOMES}
    counts = dict.fromkeys(OUTCOMES, 0)
    names = []
    span = x_end(t)
    for h in pods:
        outcome = h.outcome(t)
        counts[outcome] += 1
        names.append(h.name)
        segs = pod_segments(h, t)
        hover = _hover(h, outcome, t)
        label = _label(h, outcome, indexed)
        widest = max(range(len(segs)), key=lambda i: segs[i][2] - segs[i][1])
        for i, (o, a, b) in enumerate(segs):
            d = by[o]
            d["x"].append(round(b - a, 3))
            d["base"].append(round(a, 3))
            d["y"].append(h.name)
            # Only where it fits: about 6.5 px per character on a plot about 1000 px wide.
            fits = (b - a) / span * PLOT_WIDTH_PX >= 6.5 * len(label) + 8
            d["text"].append(label if i == widest and fits else "")
            d["hovertext"].append(hover)
    # A zero-length bar for every outcome without bars, so the legend always shows all six (before
    # the first pod, an empty point: NO_POINT).
    pad = {"x": 0, "base": 0, "y": names[0]} if pods else {"x": None, "base": None, "y": None}
    for o in OUTCOMES:
        if not by[o]["x"]:
            for key, v in {**pad, "text": "", "hovertext": ""}.items():
                by[o][key].append(v)
    data: list[dict[str, Any]] = []
    for o in OUTCOMES:
        d = by[o]
        data.append({"type": "bar", "orientation": "h", "name": outcome_word(o), "legendgroup": o, **d,
                     "marker": bar_marker(o), "textposition": "inside", "insidetextanchor": "start",
                     "textfont": {"size": 10,
                                  "color": "#000000" if o in ("pending", "terminating", "deleted") else "#ffffff"},
                     "hoverinfo": "text", "showlegend": True, "cliponaxis": False})
    data.append(cycle_ticks(trace, k))
    main, sub = _titles(trace, k, t, len(pods), counts)
    shapes, notes = cycle_marker(k, t, x_end(t))
    if not pods:
        notes.append({"text": _("no pods yet"), "showarrow": False, "xref": "paper", "yref": "paper",
                      "x": 0.5, "y": 0.5, "font": {"color": MUTED, "size": 13}})
    height = min(1000, max(340, 20 * len(pods) + 190))

    ticktext = tick_labels(trace, pods, indexed, width_px)
    # The y axis's title is centred on the plot's height: a longer one is wrapped to it (the ru
    # "поды по индексу завершения" ran into the subtitle above a 6-pod plot).
    plot_h = (height - MARGIN["t"] - MARGIN["b"]) * (PLOT_DOMAIN[1] - PLOT_DOMAIN[0])
    ytitle = _("pods by completion index") if indexed else _("pods in creation order")
    ytitle = "<br>".join(wrap_px(ytitle, plot_h - 8))
    # Room for the widest names of the whole run, made now (automargin would push the margin only
    # as pods come, a layout pass of its own in the browser, and move the plot at the first Step).
    names_px = cached(trace, f"timeline-names-px-{width_px}", lambda tr: _widest_names_px(tr, width_px))
    layout = {
        "title": title(main, sub, width_px=width_px), "barmode": "overlay", "bargap": 0.25, "height": height,
        "margin": {**MARGIN, "l": MARGIN["l"] + names_room(names_px, ytitle)},
        "xaxis": {"title": {"text": _("time since the Job was created (s)")}, "range": [0, x_end(t)],
                  "zeroline": False},
        "yaxis": {"domain": PLOT_DOMAIN, "type": "category", "categoryorder": "array", "categoryarray": names, "autorange": "reversed",
                  "tickvals": names, "ticktext": ticktext, "automargin": True,
                  "title": {"text": ytitle}},
        "yaxis2": CYCLE_STRIP, "shapes": shapes, "annotations": notes,
        "legend": LEGEND_BOTTOM,
        "meta": {"names_px": names_px},  # the margin has their room (layout_plot_px)
    }
    fit_x_title(layout, width_px)
    return make_figure(data, layout, view=VIEW)


def tick_labels(trace: Trace, pods: list[PodHistory], indexed: bool, width_px: float) -> list[str]:
    """The y axis's names of ``pods`` (``name [index]`` for an Indexed Job); where the widest would
    take more than :data:`NAMES_SHARE` of ``width_px``, they leave out the Job's name."""
    def tick(name: str, h: PodHistory) -> str:
        return f"{name} [{h.index}]" if indexed and h.index is not None else name

    labels = [tick(h.name, h) for h in pods]
    if labels and max(text_px(tt) for tt in labels) > NAMES_SHARE * width_px:
        labels = [tick(short_pod_label(h.name, trace.job_name), h) for h in pods]
    return labels


def _widest_names_px(trace: Trace, width_px: float) -> float:
    pods = pods_as_of(trace, len(trace.cycles))
    return max((text_px(tt) for tt in tick_labels(trace, pods, _indexed(trace), width_px)), default=0.0)


def _aggregated_titles(trace: Trace, k: int, t: float, pods: list[PodHistory], width: float) -> tuple[str, str]:
    counts = dict.fromkeys(OUTCOMES, 0)
    for h in pods:
        counts[h.outcome(t)] += 1
    # TRANSLATORS: {job} is job.batch/NAME; {when} is "cycle 4 (t=32 s)" or "the start (t=0 s)".
    main = _("Pods of {job} over time, up to {when} (aggregated)").format(job=job_ref(trace), when=cycle_word(k, t, trace))
    parts = [plural(counts[o], o) for o in OUTCOMES if counts[o]]
    # TRANSLATORS: {pods} is "1,200 pods"; {outcomes} lists counts by outcome ("3 running, 2 failed").
    sub = _("{pods} ({outcomes}) are more than {limit} bars: counts per {width}-s bin; above the axis pods "
            "alive, below it pods that ended").format(pods=plural(len(pods), "pod"), outcomes=join_list(parts),
                                                      limit=AGGREGATE_ABOVE, width=secs(width))
    return main, sub


def _titles(trace: Trace, k: int, t: float, n: int, counts: dict[str, int]) -> tuple[str, str]:
    main = _("Pods of {job} over time, up to {when}").format(job=job_ref(trace), when=cycle_word(k, t, trace))
    parts = [plural(counts[o], o) for o in OUTCOMES if counts[o]]
    sub = plural(n, "pod")
    if parts:
        # TRANSLATORS: "{pods}: {outcomes}" as in "5 pods: 3 running, 2 succeeded".
        sub = _("{pods}: {outcomes}").format(pods=sub, outcomes=join_list(parts))
    clauses = [sub]
    if _indexed(trace):
        clauses.append(_("bars labelled by completion index"))
    clauses.append(_("ticks at the top mark reconcile cycles"))
    sub = join_clauses(clauses)
    return main, sub


# ------------------------------------------------------------------------------ aggregated


def _intervals(pods: list[PodHistory], t: float) -> dict[str, Any]:
    """Per-state start/end lists (for counting pods alive at a time) and end times by outcome."""
    spans: dict[str, tuple[list[float], list[float]]] = {o: ([], []) for o in ("pending", "running", "terminating")}
    ended: dict[str, list[float]] = {o: [] for o in ("succeeded", "failed", "deleted")}
    for h in pods:
        segs = pod_segments(h, t)
        for o, a, b in segs:
            key = o if o in spans else ("running" if o in ("succeeded", "failed") else "terminating")
            spans[key][0].append(a)
            spans[key][1].append(b)
        outcome = h.outcome(t)
        if outcome in ended:
            end = h.end
            if end is not None and end <= t:
                ended[outcome].append(end)
    for starts, ends in spans.values():
        starts.sort()
        ends.sort()
    for v in ended.values():
        v.sort()
    return {"spans": spans, "ended": ended}


def binned_counts(trace: Trace, cycle: int, pods: list[PodHistory] | None = None) -> dict[str, Any]:
    """Counts per time bin up to ``cycle``: alive pods per state at the bin's middle, ended pods per bin."""
    _, t, _ = resolve(trace, cycle)
    pods = pods_as_of(trace, cycle) if pods is None else pods
    width = max(t, 1.0) / BINS
    nbins = min(BINS, int(t // width) + 1)
    iv = _intervals(pods, t)
    rows = []
    for i in range(nbins):
        lo, hi = i * width, (i + 1) * width
        mid = min((lo + hi) / 2, t)
        alive = {}
        for o, (starts, ends) in iv["spans"].items():
            alive[o] = bisect.bisect_right(starts, mid) - bisect.bisect_right(ends, mid)
        gone = {o: bisect.bisect_left(v, hi if i < nbins - 1 else float("inf")) - bisect.bisect_left(v, lo)
                for o, v in iv["ended"].items()}
        rows.append({"lo": lo, "hi": hi, "mid": mid, **alive, **{"ended_" + o: n for o, n in gone.items()}})
    return {"width": width, "rows": rows}


def _count_ticks(up: int, down: int) -> dict[str, Any]:
    """Tick values on both sides of zero, labelled without a minus sign (counts below the axis are ended pods)."""
    top = max(up, down)
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000)
                if top / s <= 6)
    vals = list(range(-((down + step - 1) // step) * step, up + step, step))
    return {"tickvals": vals, "ticktext": [str(abs(v)) for v in vals]}


def _aggregated_figure(trace: Trace, k: int, t: float, pods: list[PodHistory], width_px: float):
    b = binned_counts(trace, k, pods)
    rows, width = b["rows"], b["width"]
    xs = [round((r["lo"] + r["hi"]) / 2, 3) for r in rows]
    data = []
    for o in ("pending", "running", "terminating"):
        ys = [r[o] for r in rows]
        data.append({"type": "bar", "x": xs, "y": ys, "width": width * 0.95,
                     "name": _("{outcome} (alive)").format(outcome=outcome_word(o)),
                     "legendgroup": o, "marker": bar_marker(o),
                     # TRANSLATORS: plotly hover template: keep %{{y}} and %{{x:.1f}} as they are.
                     "hovertemplate": _("%{{y}} pods {outcome} at %{{x:.1f}} s").format(outcome=outcome_word(o))
                     + "<extra></extra>"})
    for o in ("succeeded", "failed", "deleted"):
        ys = [-r["ended_" + o] for r in rows]
        data.append({"type": "bar", "x": xs, "y": ys, "width": width * 0.95,
                     "name": _("{outcome} (ended in bin)").format(outcome=outcome_word(o)),
                     "legendgroup": o, "marker": bar_marker(o), "customdata": [-y for y in ys],
                     # TRANSLATORS: plotly hover template: keep %{{customdata}} and %{{x:.1f}} as they are.
                     "hovertemplate": _("%{{customdata}} pods {outcome} in the bin around %{{x:.1f}} s").format(
                         outcome=outcome_word(o)) + "<extra></extra>"})
    data.append(cycle_ticks(trace, k))
    main, sub = _aggregated_titles(trace, k, t, pods, width)
    shapes, notes = cycle_marker(k, t, x_end(t))
    layout = {
        "title": title(main, sub, width_px=width_px), "barmode": "relative", "bargap": 0, "height": 520,
        "margin": {"t": 105, "l": 60, "r": 20, "b": 95},
        "xaxis": {"title": {"text": _("time since the Job was created (s)")}, "range": [0, x_end(t)]},
        "yaxis": {"domain": PLOT_DOMAIN, "title": {"text": _("pods alive (up) · pods ended (down)")}, "zeroline": True,
                  **_count_ticks(max([r["pending"] + r["running"] + r["terminating"] for r in rows] + [1]),
                                 max([r["ended_succeeded"] + r["ended_failed"] + r["ended_deleted"] for r in rows]
                                     + [1])),
                  "zerolinecolor": "#000000", "zerolinewidth": 1.5},
        "yaxis2": CYCLE_STRIP, "shapes": shapes, "annotations": notes,
        "legend": LEGEND_BOTTOM,
    }
    return make_figure(data, layout, view=VIEW)


# ------------------------------------------------------------------------------ text twin


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`, as fixed-width text."""
    k, t, _c = resolve(trace, cycle)
    pods = pods_as_of(trace, k)
    cyc = trace.cycles[:k]
    if 0 < len(cyc) <= 30:
        cycles_line = _("Reconcile cycles so far: {n} (at t = {times} s)").format(
            n=len(cyc), times=join_list(secs(c.t) for c in cyc))
    else:
        cycles_line = _("Reconcile cycles so far: {n}").format(n=len(cyc))
    if len(pods) > AGGREGATE_ABOVE:
        b = binned_counts(trace, k, pods)
        main, sub = _aggregated_titles(trace, k, t, pods, b["width"])
        rows = [(f"{secs(r['lo'])}-{secs(r['hi'])}", r["pending"], r["running"], r["terminating"],
                 r["ended_succeeded"], r["ended_failed"], r["ended_deleted"]) for r in b["rows"]]
        body = table([pgettext("table column", "BIN (s)"), pgettext("table column", "PENDING"),
                      pgettext("table column", "RUNNING"), pgettext("table column", "TERMINATING"),
                      pgettext("table column", "ENDED:SUCCEEDED"), pgettext("table column", "ENDED:FAILED"),
                      pgettext("table column", "ENDED:DELETED")], rows, right=range(1, 7))
        return "\n".join([main, sub, cycles_line, body]) + "\n"
    indexed = _indexed(trace)
    rows = []
    for h in pods:
        outcome = h.outcome(t)
        segs = pod_segments(h, t)
        end = segs[-1][2] if segs else h.created
        alive = outcome in ("running", "pending", "terminating")
        rows.append((h.name, h.index if h.index is not None else "-", h.node or "-", secs(h.created),
                     secs(_as_of(h.started, t)), (_("still alive") if alive else secs(end)),
                     _label(h, outcome, False)))
    headers = [pgettext("table column", "POD"), pgettext("table column", "INDEX"), pgettext("table column", "NODE"),
               pgettext("table column", "CREATED"), pgettext("table column", "STARTED"),
               pgettext("table column", "ENDED"), pgettext("table column", "OUTCOME")]
    body = table(headers, rows, right=(1, 3, 4, 5)) if rows else _("(no pods yet)")
    counts = dict.fromkeys(OUTCOMES, 0)
    for h in pods:
        counts[h.outcome(t)] += 1
    main, sub = _titles(trace, k, t, len(pods), counts)
    lines = [main, sub, cycles_line]
    if indexed:
        lines.append(_("Pods are listed by completion index."))
    lines.append(body)
    return "\n".join(lines) + "\n"


__all__ = ["AGGREGATE_ABOVE", "binned_counts", "figure", "pod_segments", "pods_as_of", "text"]
