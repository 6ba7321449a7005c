"""The Schedule view: a CronJob's schedule times on a clock axis, and what became of each one.

Above the axis, a lane of marks, one per schedule time up to the cycle: a filled mark where a
Job was started for it, an open one where none was (skipped by ``concurrencyPolicy: Forbid``,
too late for ``startingDeadlineSeconds``, missed while the controller manager was down or the
CronJob suspended, or due and not handled yet), each with its own symbol. Below it, the Jobs as
bars from their creation to their end, coloured and patterned by outcome (running, succeeded,
failed, deleted by ``Replace``). The ``startingDeadlineSeconds`` window follows each time as a
thin band; the controller manager's downtime and the CronJob's suspensions are shaded and
labelled. The axis reads the clock of the schedule's time zone, named in its title, with the
labels computed here (a day with a daylight-saving change shows its repeated or skipped hour).

Above :data:`MAX_MARKS` schedule times (a day of an every-minute schedule has 1,440) or
:data:`MAX_LANES` overlapping Jobs the view bins the times and draws stacked counts per outcome,
and the title and text twin say so.
"""

from __future__ import annotations

from typing import Any

from k8sjobs.i18n import N_, Nn_, _, join_clauses, join_list, ngettext, pgettext
from k8sjobs.trace.cron_status import repeated_hour_offset
from k8sjobs.trace.recorder import Trace
from k8sjobs.trace.schedule_words import say_schedule

from . import _cron
from ._common import (
    FIGURE_PX,
    INK,
    LEGEND_BOTTOM,
    MUTED,
    empty_figure,
    fit_x_title,
    make_figure,
    now_line,
    resolve,
    table,
    title,
)

VIEW = "schedule"
FITS_WIDTH = True
"""The view fits its axis labels and titles to the figure's width (``figure(..., width_px=...)``)."""
KINDS = ("CronJob",)
MAX_MARKS = 120
"""More schedule times than this (up to the cycle) are drawn as binned counts."""
MARK_PX = 5
"""The least room a mark needs on the axis: fewer pixels per schedule time and the view bins them (a
380 px pane holds about 48 marks)."""
MAX_LANES = 8
"""More Jobs running at once than this are drawn as binned counts."""
MAX_ROWS = 120
"""The text twin lists at most this many schedule times one by one; more are binned."""
MARGIN = {"t": 105, "l": 10, "r": 20, "b": 95}


# colour, bar pattern, mark symbol, legend word (marked: show with _())
STYLE: dict[str, tuple[str, str, str, str]] = {
    # TRANSLATORS: what became of a CronJob's schedule time, as the Schedule view's legend says it.
    "running": ("#0072B2", "", "circle", N_("Job running")),
    "succeeded": ("#009E73", "/", "square", N_("Job succeeded")),
    "failed": ("#D55E00", "x", "x", N_("Job failed")),
    "replaced": ("#CC79A7", "\\", "triangle-down", N_("Job deleted by Replace")),
    "deleted": ("#E69F00", "-", "diamond", N_("Job deleted")),
    "forbid": ("#E69F00", "+", "circle-x-open", N_("skipped: Forbid, a Job still active")),
    "too_late": ("#56B4E9", ".", "hourglass-open", N_("missed: later than startingDeadlineSeconds")),
    "down": ("#777777", "|", "triangle-down-open", N_("missed: controller manager down")),
    "suspended": ("#C9B800", "-", "square-open", N_("missed: CronJob suspended")),
    "missed": ("#AAAAAA", "", "circle-open", N_("missed: only the most recent missed time runs")),
    "due": ("#FFFFFF", "", "star-open", N_("due, not handled yet")),
}
ORDER = tuple(STYLE)

COUNTS: dict[str, tuple[str, str]] = {
    # TRANSLATORS: counts of a CronJob's schedule times by what became of them ("3 Jobs succeeded").
    "running": Nn_("{n} Job running", "{n} Jobs running"),
    "succeeded": Nn_("{n} Job succeeded", "{n} Jobs succeeded"),
    "failed": Nn_("{n} Job failed", "{n} Jobs failed"),
    "replaced": Nn_("{n} Job deleted by Replace", "{n} Jobs deleted by Replace"),
    "deleted": Nn_("{n} Job deleted", "{n} Jobs deleted"),
    "forbid": Nn_("{n} skipped by Forbid", "{n} skipped by Forbid"),
    "too_late": Nn_("{n} later than startingDeadlineSeconds", "{n} later than startingDeadlineSeconds"),
    "down": Nn_("{n} missed while the controller manager was down", "{n} missed while the controller manager was down"),
    "suspended": Nn_("{n} missed while suspended", "{n} missed while suspended"),
    "missed": Nn_("{n} missed", "{n} missed"),
    "due": Nn_("{n} due", "{n} due"),
}

def _count(what: str, n: int) -> str:
    one, many = COUNTS[what]
    return ngettext(one, many, n).format(n=n)


# ------------------------------------------------------------------ clock


def clock(t: float, zone: str, *, seconds: bool = False) -> str:
    """``02:30`` (or ``02:30:00.1`` with ``seconds``) in ``zone``; in the hour the clocks go back, with
    the UTC offset (``02:30 +01:00``), since that wall-clock time names two instants."""
    d = _cron.to_local(t, zone)
    if not seconds:
        return f"{d.hour:02d}:{d.minute:02d}" + repeated_hour_offset(d)
    frac = round(t - int(t), 3) if t >= 0 else 0
    text = f"{d.hour:02d}:{d.minute:02d}:{d.second:02d}"
    return text + (f"{frac:.3f}".rstrip("0")[1:] if frac else "") + repeated_hour_offset(d)


def date_time(t: float, zone: str, *, seconds: bool = False) -> str:
    """``2026-01-01 02:30`` (or ``2026-01-01 02:30:00.1`` with ``seconds``) in ``zone``."""
    d = _cron.to_local(t, zone)
    return f"{d.year:04d}-{d.month:02d}-{d.day:02d} {clock(t, zone, seconds=seconds)}"


_STEPS = (60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800)


def clock_ticks(start: float, end: float, zone: str, most: int) -> tuple[list[float], list[str]]:
    """Tick positions and labels for a clock axis from ``start`` to ``end``: at most ``most`` ticks at
    round local times, labelled ``HH:MM`` (and the date under the first and where it changes)."""
    span = max(end - start, 60.0)
    step = next((s for s in _STEPS if span / s <= most), _STEPS[-1])
    d = _cron.to_local(start, zone)
    into = (d.hour * 3600 + d.minute * 60 + d.second + (start - int(start))) % min(step, 86400)
    first = start - into + (min(step, 86400) if into else 0)
    vals, labels = [], []
    last_date = None
    x = first
    while x <= end and len(vals) < 2 * most:
        dd = _cron.to_local(x, zone)
        label = f"{dd.hour:02d}:{dd.minute:02d}"
        date = f"{dd.month:02d}-{dd.day:02d}"
        if date != last_date:
            label += f"<br>{date}"
            last_date = date
        vals.append(x)
        labels.append(label)
        x += step
    return vals, labels


# ------------------------------------------------------------------ words


def cronjob_ref(trace: Trace) -> str:
    """``cronjob.batch/NAME`` as kubectl names it."""
    return f"cronjob.batch/{trace.job_name}"


def sync_label(cycle: int) -> str:
    """``sync 4``: the line of "now" in the CronJob views, a sync of the CronJob controller."""
    # TRANSLATORS: the label of the "now" line in the CronJob views: the CronJob controller's sync number {cycle}.
    return _("sync {cycle}").format(cycle=cycle)


def when_word(cycle: int, t: float, zone: str) -> str:
    """``sync 4 at 00:05:00.1`` or ``the CronJob's creation at 00:00:00`` (a CronJob's cycles are the
    CronJob controller's syncs: the dashboard's status line counts them so too)."""
    if cycle:
        # TRANSLATORS: "{when}" in the CronJob views' titles ("... up to {when}"): the CronJob controller's
        # sync number {cycle} and its clock time, as the dashboard says "sync 4 of 102".
        return _("sync {cycle} at {time}").format(cycle=cycle, time=clock(t, zone, seconds=True))
    # TRANSLATORS: "{when}" in the CronJob views' titles before the first sync.
    return _("the CronJob's creation at {time}").format(time=clock(t, zone, seconds=True))


def _state(trace: Trace, cycle: int) -> dict[str, Any]:
    k, t, c = resolve(trace, cycle)
    end_seq = c.change_end if c is not None else trace.initial_changes
    m = _cron.model(trace)
    spec = _cron.spec_at(m, t, end_seq)
    if spec is None and trace.final_job is not None:
        spec = trace.final_job.spec
    zone = _cron.zone_of(spec, m.controller_zone) if spec is not None else m.controller_zone
    return {"k": k, "t": t, "end_seq": end_seq, "model": m, "spec": spec, "zone": zone,
            "slots": _cron.slots(trace, k, t, end_seq), "down": _cron.downtime_until(m, t),
            "suspended": _cron.suspended_until(m, t, end_seq)}


def _titles(trace: Trace, st: dict[str, Any], aggregated: bool = False, bin_s: float = 0) -> tuple[str, str]:
    spec, zone = st["spec"], st["zone"]
    words = say_schedule(spec.schedule, zone) if spec is not None else ""
    # TRANSLATORS: the Schedule view's title: {cronjob} is cronjob.batch/NAME, {when} "cycle 4 at 00:05:00.1",
    # {schedule} the schedule in words ("every 5 minutes, UTC").
    main = _("Schedule of {cronjob} up to {when}: {schedule}").format(
        cronjob=cronjob_ref(trace), when=when_word(st["k"], st["t"], zone), schedule=words)
    counts = {w: 0 for w in ORDER}
    for s in st["slots"]:
        counts[s.what] += 1
    n = len(st["slots"])
    parts = [_count(w, counts[w]) for w in ORDER if counts[w]]
    head = ngettext("{n} schedule time", "{n} schedule times", n).format(n=n)
    clauses = [_("{times}: {outcomes}").format(times=head, outcomes=join_list(parts)) if parts else head]
    if spec is not None:
        policy = spec.concurrency_policy or "Allow"
        # TRANSLATORS: {policy} is Allow, Forbid or Replace (stays English).
        clauses.append(_("concurrencyPolicy {policy}").format(policy=policy))
        if spec.starting_deadline_seconds is not None and aggregated:
            # TRANSLATORS: {deadline} is a number of seconds.
            clauses.append(_("startingDeadlineSeconds {deadline}: a missed time may still start within {deadline} s")
                           .format(deadline=spec.starting_deadline_seconds))
        elif spec.starting_deadline_seconds is not None:
            # TRANSLATORS: {deadline} is a number of seconds; the bands after each mark show the window.
            clauses.append(_("startingDeadlineSeconds {deadline}: a missed time may still start within {deadline} s "
                             "(the band after each mark)").format(deadline=spec.starting_deadline_seconds))
    problem = _cron.schedule_problem(trace, st["k"])
    if problem is not None:
        clauses.append(problem.reason)
    nxt = _cron.next_time(trace, st["t"], spec)
    if nxt is not None and not (spec is not None and spec.suspend):
        clauses.append(_("next schedule time {time}").format(time=date_time(nxt, zone) if nxt - st["t"] >= 86400
                                                             else clock(nxt, zone)))
    if aggregated:
        # TRANSLATORS: the schedule times are too many to mark one by one; {width} is a duration such as "15 minutes".
        clauses.append(_("too many to mark one by one: schedule times counted per {width} bin").format(
            width=_span_word(bin_s)))
    return main, join_clauses(clauses)


def _span_word(seconds: float) -> str:
    if seconds % 3600 == 0:
        h = int(seconds // 3600)
        return ngettext("{n} hour", "{n} hours", h).format(n=h)
    mins = int(seconds // 60)
    return ngettext("{n} minute", "{n} minutes", mins).format(n=mins)


def _spans(st: dict[str, Any]) -> list[tuple[str, float, float]]:
    """(kind, from, to) of the shaded spans up to the cycle: the controller manager down, the CronJob suspended."""
    t = st["t"]
    out = [("down", a, min(b, t) if b > t else b) for a, b in st["down"]]
    out += [("suspended", a, b if b is not None else t) for a, b in st["suspended"]]
    return [(k, a, b) for k, a, b in out if b > a or k == "down"]


def _span_shapes(st: dict[str, Any], right: float) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    shapes, notes = [], []
    for kind, a, b in _spans(st):
        down = kind == "down"
        b = max(b, a)
        shapes.append({"type": "rect", "xref": "x", "yref": "paper", "x0": a, "x1": b, "y0": 0, "y1": 1,
                       "fillcolor": "#999999" if down else "#F0E442", "opacity": 0.22, "layer": "below",
                       "line": {"color": INK, "width": 1, "dash": "dot" if down else "dash"}})
        # TRANSLATORS: labels of shaded spans in the Schedule view.
        label = _("controller manager down") if down else _("CronJob suspended")
        notes.append({"x": a, "y": 0.0, "xref": "x", "yref": "paper", "text": label, "showarrow": False,
                      "xanchor": "left" if a < 0.6 * right else "right", "yanchor": "bottom",
                      "font": {"size": 10, "color": INK}, "bgcolor": "rgba(255,255,255,0.7)"})
    return shapes, notes


def _mark_hover(s: _cron.Slot, zone: str) -> str:
    lines = [f"<b>{date_time(s.scheduled, zone)}</b>", _(STYLE[s.what][3])]
    if s.job is not None:
        lines.append(_("Job {job} created at {time}").format(job=s.job.name, time=clock(s.start, zone, seconds=True)))
        if s.waited_for_forbid:
            lines.append(_("it started late: Forbid waited for the Job before it"))
    if s.deadline is not None:
        lines.append(_("startingDeadlineSeconds {deadline}").format(deadline=s.deadline))
    return "<br>".join(lines)


# ------------------------------------------------------------------ figure


def _lanes(slots_: list[_cron.Slot]) -> list[int]:
    ends: list[float] = []
    out = []
    for s in slots_:
        if s.job is None:
            out.append(-1)
            continue
        lane = next((i for i, e in enumerate(ends) if e <= s.start), None)
        if lane is None:
            ends.append(0.0)
            lane = len(ends) - 1
        ends[lane] = s.end if s.end is not None else float("inf")
        out.append(lane)
    return out


def not_a_cronjob(trace: Trace, cycle: int) -> tuple[str, str]:
    """(title, note) of a CronJob view given another object's trace (a Job's)."""
    k, t, _c = resolve(trace, cycle)
    # TRANSLATORS: a CronJob view (Schedule, History) given a Job's trace; {job} is job.batch/NAME.
    return (_("Not a CronJob: {job} is a Job").format(job=f"job.batch/{trace.job_name}"),
            _("This view shows a CronJob: give it the CronJob's trace (run.cluster.cronjobs()[0])."))


def figure(trace: Trace, cycle: int, *, width_px: float = FIGURE_PX):
    """The schedule times up to ``cycle`` and what became of each (binned counts when there are many)."""
    if trace.kind != "CronJob":
        return empty_figure(VIEW, *not_a_cronjob(trace, cycle))
    st = _state(trace, cycle)
    sl = st["slots"]
    lanes = _lanes(sl)
    nlanes = max(lanes, default=-1) + 1
    t, zone = st["t"], st["zone"]
    start = trace.start_t
    right = max(t, start + 60) + 0.04 * max(t - start, 60)
    plot_px = width_px - 150
    if len(sl) > min(MAX_MARKS, plot_px / MARK_PX) or nlanes > MAX_LANES:
        return _aggregated_figure(trace, st, width_px)
    gaps = [b.scheduled - a.scheduled for a, b in zip(sl, sl[1:])]
    gap_px = min(gaps) / (right - start) * plot_px if gaps else 99
    mark = max(5, min(11, int(gap_px) - 1))
    sched_lane = _("schedule times")
    job_lanes = [_("Jobs") if nlanes == 1 else _("Jobs · {row}").format(row=i + 1) for i in range(nlanes)]
    cats = [sched_lane, *job_lanes]
    data: list[dict[str, Any]] = []
    # startingDeadlineSeconds windows: one thin bar per time, all in one trace.
    wins = [s for s in sl if s.deadline is not None]
    if wins:
        data.append({"type": "bar", "orientation": "h", "x": [s.deadline for s in wins],
                     "base": [s.scheduled for s in wins], "y": [sched_lane] * len(wins), "width": 0.25,
                     "name": _("startingDeadlineSeconds window"), "marker": {"color": "#56B4E9", "opacity": 0.45,
                                                                            "line": {"width": 0}},
                     "hoverinfo": "skip", "showlegend": True, "legendrank": 800})
    for what in ORDER:
        color, pattern, symbol, word = STYLE[what]
        # Job bars
        bars = [(s, lane) for s, lane in zip(sl, lanes) if s.job is not None and s.what == what]
        if bars:
            marker: dict[str, Any] = {"color": color, "line": {"color": INK, "width": 0.5}}
            if pattern:
                marker["pattern"] = {"shape": pattern, "fgcolor": "#ffffff" if what != "deleted" else "#000000",
                                     "size": 6, "solidity": 0.3}
            span = right - start
            texts = [s.job.name if (s.end - s.start) / span * (width_px - 120) >= 6.5 * len(s.job.name) + 8 else ""
                     for s, _l in bars]
            data.append({"type": "bar", "orientation": "h", "name": _(word), "legendgroup": what,
                         "x": [round(max(s.end - s.start, 0.0), 3) for s, _l in bars],
                         "base": [round(s.start, 3) for s, _l in bars], "y": [job_lanes[lane] for _s, lane in bars],
                         "text": texts, "textposition": "inside", "insidetextanchor": "start",
                         "textfont": {"size": 10, "color": "#000000" if what in ("deleted", "replaced") else "#ffffff"},
                         "hovertext": [_mark_hover(s, zone) for s, _l in bars], "hoverinfo": "text",
                         "marker": marker, "showlegend": False, "cliponaxis": False})
        marks = [s for s in sl if s.what == what]
        if not marks:
            continue
        open_mark = marks[0].job is None
        data.append({"type": "scatter", "mode": "markers", "name": _(word), "legendgroup": what,
                     "x": [s.scheduled for s in marks], "y": [sched_lane] * len(marks),
                     "marker": {"symbol": symbol, "size": mark, "color": color if not open_mark else INK,
                                "line": {"width": 1.5, "color": INK if not open_mark else color}},
                     "hovertext": [_mark_hover(s, zone) for s in marks], "hoverinfo": "text", "showlegend": True})
    late = [(s, lane) for s, lane in zip(sl, lanes) if s.job is not None and s.start - s.scheduled > 1.5]
    if late:
        xs: list[Any] = []
        ys: list[Any] = []
        for s, lane in late:
            xs += [s.scheduled, s.start, None]
            ys += [sched_lane, job_lanes[lane], None]
        # TRANSLATORS: the Schedule view's legend: a dotted line from a schedule time to its Job, started later.
        data.append({"type": "scatter", "mode": "lines", "x": xs, "y": ys, "name": _("started late"),
                     "line": {"color": INK, "width": 1, "dash": "dot"}, "hoverinfo": "skip", "showlegend": True,
                     "legendrank": 850})
    shapes, notes = _span_shapes(st, right)
    if st["k"]:
        line, note = now_line(t, sync_label(st["k"]), right=right)
        shapes.append(line)
        notes.append(note)
    if not sl:
        notes.append({"text": _("no schedule time yet"), "showarrow": False, "xref": "paper", "yref": "paper",
                      "x": 0.5, "y": 0.5, "font": {"color": MUTED, "size": 13}})
    main, sub = _titles(trace, st)
    most = max(3, int((width_px - 80) // 75))
    vals, labels = clock_ticks(start, right, zone, most)
    height = max(320, 44 * len(cats) + 230)
    layout = {
        "title": title(main, sub, width_px=width_px), "barmode": "overlay", "bargap": 0.3, "height": height,
        "margin": dict(MARGIN),
        # TRANSLATORS: the Schedule view's x axis: {zone} is an IANA time zone name such as Asia/Shanghai.
        "xaxis": {"title": {"text": _("clock time in {zone}").format(zone=zone)}, "range": [start, right],
                  "tickvals": vals, "ticktext": labels, "zeroline": False, "showgrid": True},
        "yaxis": {"type": "category", "categoryorder": "array", "categoryarray": cats, "autorange": "reversed",
                  "automargin": True, "fixedrange": True},
        "shapes": shapes, "annotations": notes, "legend": LEGEND_BOTTOM,
    }
    fit_x_title(layout, width_px)
    return make_figure(data, layout, view=VIEW)


def _bin_width(span: float) -> float:
    return next((s for s in (60, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 604800)
                 if span / s <= 96), 604800)


def binned(st: dict[str, Any], start: float) -> tuple[float, list[dict[str, Any]]]:
    """(bin width, rows): per bin of schedule times from ``start``, how many became what."""
    sl = st["slots"]
    span = max(st["t"] - start, 60.0)
    width = _bin_width(span)
    nbins = int(span // width) + 1
    rows = [{"lo": start + i * width, "hi": start + (i + 1) * width, **dict.fromkeys(ORDER, 0)} for i in range(nbins)]
    for s in sl:
        i = min(int((s.scheduled - start) // width), nbins - 1)
        rows[i][s.what] += 1
    return width, rows


def _aggregated_figure(trace: Trace, st: dict[str, Any], width_px: float):
    start, t, zone = trace.start_t, st["t"], st["zone"]
    width, rows = binned(st, start)
    right = max(t, start + 60) + 0.04 * max(t - start, 60)
    xs = [r["lo"] + width / 2 for r in rows]
    labels = [f"{clock(r['lo'], zone)}–{clock(r['hi'], zone)}" for r in rows]
    data = []
    for what in ORDER:
        ys = [r[what] for r in rows]
        if not any(ys):
            continue
        color, pattern, _symbol, word = STYLE[what]
        marker: dict[str, Any] = {"color": color, "line": {"color": INK, "width": 0.5}}
        if pattern:
            marker["pattern"] = {"shape": pattern, "fgcolor": "#000000" if what in ("deleted", "due", "suspended",
                                                                                   "missed", "too_late") else "#ffffff",
                                 "size": 6, "solidity": 0.3}
        data.append({"type": "bar", "x": xs, "y": ys, "width": width * 0.92, "name": _(word), "legendgroup": what,
                     "marker": marker, "customdata": labels, "showlegend": True,
                     # TRANSLATORS: plotly hover template: keep %{{y}} and %{{customdata}} as they are.
                     "hovertemplate": _("%{{y}} schedule times in %{{customdata}}: {what}").format(what=_(word))
                     + "<extra></extra>"})
    shapes, notes = _span_shapes(st, right)
    if st["k"]:
        line, note = now_line(t, sync_label(st["k"]), right=right)
        shapes.append(line)
        notes.append(note)
    main, sub = _titles(trace, st, aggregated=True, bin_s=width)
    most = max(3, int((width_px - 80) // 75))
    vals, ticks = clock_ticks(start, right, zone, most)
    layout = {
        "title": title(main, sub, width_px=width_px), "barmode": "stack", "bargap": 0, "height": 460,
        "margin": {**MARGIN, "l": 60},
        "xaxis": {"title": {"text": _("clock time in {zone}").format(zone=zone)}, "range": [start, right],
                  "tickvals": vals, "ticktext": ticks, "zeroline": False},
        "yaxis": {"title": {"text": _("schedule times per bin")}, "rangemode": "tozero", "fixedrange": True},
        "shapes": shapes, "annotations": notes, "legend": LEGEND_BOTTOM,
    }
    fit_x_title(layout, width_px)
    return make_figure(data, layout, view=VIEW)


# ------------------------------------------------------------------ text twin


def _span_lines(st: dict[str, Any]) -> list[str]:
    zone = st["zone"]
    out = []
    for a, b in st["down"]:
        out.append(_("The controller manager was down from {start} to {end}.").format(
            start=date_time(a, zone, seconds=True), end=clock(b, zone, seconds=True)))
    for a, b in st["suspended"]:
        if b is None:
            out.append(_("The CronJob is suspended since {start}.").format(start=date_time(a, zone)))
        else:
            out.append(_("The CronJob was suspended from {start} to {end}.").format(
                start=date_time(a, zone, seconds=True), end=clock(b, zone, seconds=True)))
    return out


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`, as fixed-width text."""
    if trace.kind != "CronJob":
        return "\n".join(not_a_cronjob(trace, cycle)) + "\n"
    st = _state(trace, cycle)
    sl, zone = st["slots"], st["zone"]
    lanes = _lanes(sl)
    many = len(sl) > MAX_ROWS or max(lanes, default=-1) + 1 > MAX_LANES
    if many:
        width, rows = binned(st, trace.start_t)
        main, sub = _titles(trace, st, aggregated=True, bin_s=width)
        shown = [w for w in ORDER if any(r[w] for r in rows)]
        body = table([pgettext("table column", "FROM"), pgettext("table column", "TO"),
                      *[_(STYLE[w][3]) for w in shown]],
                     [(date_time(r["lo"], zone), clock(r["hi"], zone), *[r[w] for w in shown]) for r in rows
                      if any(r[w] for w in shown)], right=range(2, 2 + len(shown)))
        legend = []
    else:
        main, sub = _titles(trace, st)
        rows = []
        for s in sl:
            job = s.job.name if s.job is not None else "-"
            started = clock(s.start, zone, seconds=True) if s.start is not None else "-"
            ended = "-"
            if s.job is not None:
                ended = _("still running") if s.what == "running" else clock(s.end, zone, seconds=True)
            what = _(STYLE[s.what][3])
            if s.waited_for_forbid:
                what = _("{what} (started late: Forbid)").format(what=what)
            rows.append((date_time(s.scheduled, zone), what, job, started, ended))
        body = table([pgettext("table column", "SCHEDULED"), pgettext("table column", "WHAT HAPPENED"),
                      pgettext("table column", "JOB"), pgettext("table column", "CREATED"),
                      pgettext("table column", "ENDED")], rows) if rows else _("(no schedule time yet)")
        legend = []
    lines = [main, sub, *_span_lines(st), *legend, body]
    return "\n".join(lines) + "\n"


__all__ = ["MAX_MARKS", "STYLE", "binned", "clock", "clock_ticks", "figure", "text"]
