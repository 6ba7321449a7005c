"""View 4, the backoff timeline: each pod failure, the wait it causes, and when a pod may start.

After ``n`` failures since the last success the controller waits ``10 s * 2^(n-1)``
(doubling stops at the 600 s cap) from the *latest* failure before it creates a
replacement; a success resets the count. So an earlier failure's wait is superseded by the
next failure's longer one. With ``backoffLimitPerIndex`` the count and the wait are kept per
completion index instead, and an index that failed more than its limit gets no new pod.

The figure has a lane per failure (Job-wide) or per index (per-index backoff): a bar for
each wait from the failure to the moment a new pod may start, the failure and the pod
creations as markers, and the successes that reset the count. The syncs that waited are
ticks on their own lane with the controller's own numbers in the hover.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import Any

from k8sjobs.api.types import Phase
from k8sjobs.controller.job.backoff_utils import (
    DEFAULT_JOB_POD_FAILURE_BACKOFF,
    MAX_JOB_POD_FAILURE_BACKOFF,
    backoff_delay,
)
from k8sjobs.i18n import N_, _, join_clauses, join_list, join_sentences, ngettext, pgettext
from k8sjobs.trace.recorder import Trace
from k8sjobs.trace.records import PodHistory

from ._common import (
    FIGURE_PX,
    INK,
    LEGEND_BOTTOM,
    MUTED,
    OUTCOME_STYLE,
    bar_marker,
    cycle_word,
    fit_x_title,
    job_ref,
    make_figure,
    now_line,
    plot_beside_names,
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

VIEW = "backoff"
FITS_WIDTH = True
"""This view fits its labels to the figure's width (``figure(..., width_px=...)``)."""
MARGIN = {"t": 105, "l": 10, "r": 30, "b": 115}
TICKS_PX = 20
"""Pixels below the plot that the x axis's tick labels take (plotly's tick length, padding, a 12 px line)."""
FAILED_AY = 30
"""Pixels below the plot of the centre of the "Job failed" words (the end of their arrow)."""
FAILED_ROOM = 20
"""Pixels the x axis's title moves down, and the figure grows, when "Job failed" is written below the axis."""
LABEL_SIZE = 11
MARK_PX = 10
"""Room between a start mark's position and its label (half the triangle and a gap)."""
MAX_TEXT_ROWS = 100
"""The text twin lists at most this many failures (the latest)."""
MAX_MARKS = 400
"""At most this many creation (or success) marks: the latest ones; the lane's name says how many there were."""
MAX_LANES = 40
"""At most this many failure (or index) lanes: the latest ones, with a note saying how many were left out."""
NAMES_SHARE = 0.4
"""The most of the figure's width the lane names may take: longer failure lanes leave out the
Job's name from the pod's (``failure 1: …-bkspk``; the hover and the text twin keep it), longer
lane names of other kinds are wrapped. In a 380 px pane the ru "сбой 1: job-pod-failure-backoff-bkspk"
(235 px) left the plot 104 px, and its labels and the x axis's title were cut."""


def delay_formula(n: int) -> str:
    """``10·2^(2−1) = 20 s``, or ``10·2^(7−1) = 640 s, capped at 600 s``."""
    if n <= 0:
        return _("{seconds} s").format(seconds=0)
    raw = DEFAULT_JOB_POD_FAILURE_BACKOFF * 2 ** (n - 1)
    base = f"{secs(DEFAULT_JOB_POD_FAILURE_BACKOFF)}·2^({n}−1)"
    actual = backoff_delay(n)
    if actual < raw:
        # TRANSLATORS: {formula} is "10·2^(7−1)"; the delays are in seconds.
        return _("{formula} = {raw} s, capped at {cap} s").format(formula=base, raw=secs(raw),
                                                                  cap=secs(MAX_JOB_POD_FAILURE_BACKOFF))
    return _("{formula} = {delay} s").format(formula=base, delay=secs(actual))


@dataclass(frozen=True, slots=True)
class Failure:
    """One counted pod failure and the wait it sets."""

    pod: str
    index: int | None
    t: float
    n: int
    """Failures counted since the last success (of the index, for per-index backoff)."""
    delay: float
    next_start: float
    status: str
    """``superseded`` (a later failure came first), ``waited``, ``waiting`` (at the cycle), ``reset``
    (a success came first), ``index failed`` (over backoffLimitPerIndex) or ``job failed``."""


@dataclass(frozen=True, slots=True)
class Wait:
    """A sync that did not create pods because of the backoff (the controller's own numbers)."""

    cycle: int
    t: float
    remaining: float
    failures: int | None
    until: float


@dataclass(frozen=True, slots=True)
class BackoffStory:
    """Everything the view shows, as of one cycle."""

    per_index: bool
    failures: tuple[Failure, ...]
    resets: tuple[tuple[float, str, int | None], ...]
    creations: tuple[tuple[float, str, int | None], ...]
    waits: tuple[Wait, ...]
    job_failed_at: float | None
    limit: int | None


def _controller_deleted(trace: Trace, k: int) -> set[str]:
    # Scale-down and suspend remove the tracking finalizer first: those pods never count as failures.
    return {d.fields.get("pod", "") for c in trace.cycles[:k] for d in c.decisions
            if d.rule in ("delete.scale_down", "delete.suspend")}


def _failed_at(h: PodHistory, t: float, skip: set[str]) -> float | None:
    if h.name in skip:
        return None
    if h.finished is not None and h.finished <= t and h.phase == Phase.FAILED:
        return h.finished
    if h.finished is None and h.removed is not None and h.removed <= t:
        return h.deleting if h.deleting is not None else h.removed
    return None


def story(trace: Trace, cycle: int) -> BackoffStory:
    """The failures, waits, resets and creations up to ``cycle``."""
    k, t, _c = resolve(trace, cycle)
    spec = trace.manifest.spec
    per_index = spec.backoff_limit_per_index is not None
    skip = _controller_deleted(trace, k)
    finished: list[tuple[float, int, PodHistory]] = []
    creations = []
    cut = trace.cycle(k).change_end if k else 0
    for h in trace.pod_histories():
        if h.created_in_cycle > k:
            continue
        h = h.until(cut)  # what a later cycle did at the same instant stays out
        creations.append((h.created, h.name, h.index))
        ft = _failed_at(h, t, skip)
        if ft is not None:
            finished.append((ft, 0, h))
        elif h.finished is not None and h.finished <= t and h.phase == Phase.SUCCEEDED:
            finished.append((h.finished, 1, h))
    # At equal times a failure is processed before a success: only failures strictly after
    # the latest success count (newBackoffRecord).
    finished.sort(key=lambda x: (x[0], x[1], x[2].name))
    job_failed_at = next((c.t for c in trace.cycles[:k] if any(
        ty in ("FailureTarget", "Failed") and st == "True" for ty, st, _, _ in c.after.conditions)), None)
    counts: dict[int | None, int] = {}
    raw: list[tuple[float, PodHistory, int]] = []
    resets = []
    for ft, kind, h in finished:
        key = h.index if per_index else None
        if kind == 1:
            if not per_index:
                counts[key] = 0
            resets.append((ft, h.name, h.index))
            continue
        counts[key] = counts.get(key, 0) + 1
        raw.append((ft, h, counts[key]))
    # The next failure and the next success after each failure, of the same lane (linear passes).
    next_fail: list[float | None] = [None] * len(raw)
    seen: dict[int | None, float] = {}
    for i in range(len(raw) - 1, -1, -1):
        key = raw[i][1].index if per_index else None
        next_fail[i] = seen.get(key)
        seen[key] = raw[i][0]
    reset_times: dict[int | None, list[float]] = {}
    for r, _n, ix in resets:
        reset_times.setdefault(ix if per_index else None, []).append(r)
    failures = []
    for i, (ft, h, n) in enumerate(raw):
        key = h.index if per_index else None
        delay = backoff_delay(n)
        nxt = ft + delay
        later = next_fail[i]
        rs = reset_times.get(key, [])
        j = bisect.bisect_left(rs, ft)
        reset_first = rs[j] if j < len(rs) else None
        if per_index and spec.backoff_limit_per_index is not None and n > spec.backoff_limit_per_index:
            status = "index failed"
        elif later is not None and (reset_first is None or later < reset_first) and later < nxt:
            status = "superseded"
        elif reset_first is not None and reset_first < nxt and (later is None or reset_first <= later):
            status = "reset"
        elif job_failed_at is not None and nxt > job_failed_at:
            status = "job failed"
        elif nxt > t:
            status = "waiting"
        else:
            status = "waited"
        failures.append(Failure(h.name, h.index, ft, n, delay, nxt, status))
    waits = []
    for c in trace.cycles[:k]:
        for d in c.decisions:
            if d.rule in ("backoff.wait", "backoff.wait_index"):
                rem = float(d.fields.get("delay", 0.0))
                waits.append(Wait(c.index, c.t, rem, d.fields.get("failures"), float(d.fields.get("until", c.t + rem))))
    limit = spec.backoff_limit_per_index if per_index else spec.backoff_limit
    return BackoffStory(per_index, tuple(failures), tuple(resets), tuple(sorted(creations)), tuple(waits),
                        job_failed_at, limit)


# ------------------------------------------------------------------------------ figure

_STATUS_WORD = {"superseded": N_("superseded by the next failure"), "waited": N_("waited"),
                "waiting": N_("waiting"), "reset": N_("a success reset the count"),
                "index failed": N_("index failed: no retry"), "job failed": N_("the Job failed")}
"""What became of a failure's wait (marked; shown with :func:`status_word`)."""


def status_word(status: str) -> str:
    """What became of a failure's wait, in the current language."""
    return _(_STATUS_WORD[status])


def _titles(trace: Trace, k: int, t: float, s: BackoffStory) -> tuple[str, str]:
    if s.per_index:
        main = _("Backoff of {job} up to {when}: per-index backoff")
    else:
        main = _("Backoff of {job} up to {when}: pod-failure backoff")
    main = main.format(job=job_ref(trace), when=cycle_word(k, t, trace))
    if not s.failures:
        return main, _("no pod has failed yet, so there is no backoff")
    last = s.failures[-1]
    # TRANSLATORS: {failures} is "3 failures", {successes} "1 success"; {cap} is the longest wait in seconds.
    counted = _("{failures}, {successes}; wait after n failures = 10 s·2^(n−1), capped at {cap} s").format(
        failures=plural(len(s.failures), "failure"), successes=plural(len(s.resets), "success"),
        cap=secs(MAX_JOB_POD_FAILURE_BACKOFF))
    values = {"n": last.n, "index": last.index, "t": secs(last.t), "next": secs(last.next_start),
              "status": status_word(last.status)}
    if last.status == "index failed":
        latest = _("Latest: failure {n} of index {index} at {t} s: the index failed, no new pod for it")
    elif s.per_index:
        latest = _("Latest: failure {n} of index {index} at {t} s → new pod not before {next} s ({status})")
    else:
        latest = _("Latest: failure {n} at {t} s → new pod not before {next} s ({status})")
    # Two sentences joined as the language does (Chinese ends the first with 。 and no space).
    sub = join_sentences([counted, latest.format(**values)])
    if s.job_failed_at is not None:
        sub = join_clauses([sub, _("the Job failed at {t} s").format(t=secs(s.job_failed_at))])
    return main, sub


def _latest(items: list, lane: str) -> tuple[list, str]:
    if len(items) <= MAX_MARKS:
        return items, lane
    return items[-MAX_MARKS:], _("{lane} (latest {shown} of {n})").format(lane=lane, shown=MAX_MARKS, n=len(items))


def _bar_text(f: Failure) -> str:
    return f"n={f.n}: {delay_formula(f.n)}"


def plot_px(lanes: list[str], width_px: float = FIGURE_PX) -> float:
    """The plot's width in a figure ``width_px`` wide beside the lane names, at least 60 px."""
    return max(plot_beside_names(width_px, MARGIN, lanes), 60.0)


def _ends_at(x: float, label_px: float, plot: float) -> float:
    # The smallest right end R of the axis [-0.02 R, R] for which a label of label_px pixels
    # written right of x ends inside a plot `plot` pixels wide. A label wider than 0.7 of the
    # plot (a narrow pane) gets the rest of it at most, so the axis does not shrink to nothing.
    a = min(label_px / plot, 0.7)
    return x / (1.02 * (1 - a) - 0.02)


def _fit_words(words: str, plot: float) -> str:
    # A label right of a mark takes at most 0.7 of the plot (see _ends_at): a longer one is
    # wrapped between words to it (ru "индекс неуспешен (2 > backoffLimitPerIndex 1)" ran 88 px
    # past a 380 px figure).
    room = 0.7 * plot - MARK_PX
    return words if text_px(words, LABEL_SIZE) <= room else "<br>".join(wrap_px(words, room, LABEL_SIZE))


def _words_px(words: str) -> float:
    return max(text_px(line, LABEL_SIZE) for line in words.split("<br>"))


def _right(t: float, shown: list[Failure], labels: dict[int, str], plot: float, limit: int | None) -> float:
    # The run so far, every wait that ran out or is running with room for its start label
    # right of it (labels by id of the failure), and room for the "index failed" words.
    ends = [x_end(t)]
    for f in shown:
        if f.status in ("waited", "waiting"):
            ends.append(_ends_at(f.next_start, MARK_PX + _words_px(labels.get(id(f), "")), plot))
        elif f.status == "index failed":
            ends.append(_ends_at(f.t, MARK_PX + _words_px(_fit_words(_index_failed(f, limit), plot)), plot))
    return max(ends)


def _start_words(f: Failure, formula: bool) -> str:
    # Right of a start mark: when, and the formula too when its bar is too short to hold it.
    if formula:
        return _("{formula} → may start at {t} s").format(formula=_bar_text(f), t=secs(f.next_start))
    return _("may start at {t} s").format(t=secs(f.next_start))


def _index_failed(f: Failure, limit: int | None) -> str:
    return _("index failed ({n} > backoffLimitPerIndex {limit})").format(n=f.n, limit=limit)


def _lane(s: BackoffStory, f: Failure, job: str | None = None) -> str:
    # With ``job``, the pod's name leaves it out (``failure 1: …-bkspk``): see NAMES_SHARE.
    if s.per_index:
        return _index_lane(f.index)
    return _("failure {n}: {pod}").format(n=f.n, pod=f.pod if job is None else short_pod_label(f.pod, job))


def _index_lane(index: int | None) -> str:
    return _("index {index}").format(index=index)


def _wait_hover(f: Failure) -> str:
    values = {"pod": f.pod, "n": f.n, "index": f.index, "t": secs(f.t), "formula": delay_formula(f.n),
              "next": secs(f.next_start), "status": status_word(f.status)}
    if f.index is None:
        return _("{pod}: failure {n} at {t} s; wait {formula}; new pod not before {next} s ({status})").format(**values)
    return _("{pod}: failure {n} of index {index} at {t} s; wait {formula}; new pod not before {next} s "
             "({status})").format(**values)


def _created(t: float, pod: str) -> str:
    return _("{pod} created at {t} s").format(pod=pod, t=secs(t))


def _wait_sync_hover(w: Wait) -> str:
    values = {"cycle": w.cycle, "t": secs(w.t), "seconds": secs(w.remaining), "until": secs(w.until)}
    if w.failures is None:
        return _("cycle {cycle} at {t} s: waits {seconds} s more (until {until} s)").format(**values)
    n = int(w.failures)
    return ngettext("cycle {cycle} at {t} s: waits {seconds} s more after {n} failure (until {until} s)",
                    "cycle {cycle} at {t} s: waits {seconds} s more after {n} failures (until {until} s)",
                    n).format(n=n, **values)


def figure(trace: Trace, cycle: int, *, width_px: float = FIGURE_PX):
    """Failures, their waits, resets and creations up to ``cycle``.

    ``width_px``: the narrowest the figure will be drawn; the axis leaves room right of each
    start mark for its label, and a bar holds its formula only where it fits.
    """
    k, t, _c = resolve(trace, cycle)
    s = story(trace, k)
    main, sub = _titles(trace, k, t, s)
    fails = list(s.failures)
    room = NAMES_SHARE * width_px
    short = not s.per_index and any(text_px(_lane(s, f)) > room for f in fails)

    def lane(f: Failure) -> str:
        return _lane(s, f, trace.job_name if short else None)

    if s.per_index:
        lanes_all = sorted({f.index for f in fails}, key=lambda ix: -1 if ix is None else ix)
        lanes_all = [_index_lane(ix) for ix in lanes_all]
    else:
        lanes_all = [lane(f) for f in fails]
    dropped = max(0, len(lanes_all) - MAX_LANES)
    lanes = lanes_all[dropped:]
    shown = [f for f in fails if lane(f) in set(lanes)]
    # Lanes of point marks keep the latest MAX_MARKS and say so in their name.
    created, created_lane = _latest(list(s.creations), _("pods created"))
    resets, resets_lane = _latest(list(s.resets), _("successes (reset)"))
    waits_lane = _("syncs that waited")
    created_lane, resets_lane, waits_lane = ("<br>".join(wrap_px(w, room)) for w in (created_lane, resets_lane,
                                                                                      waits_lane))
    top = [created_lane] + ([resets_lane] if s.resets and not s.per_index else []) + \
        ([waits_lane] if s.waits else [])
    cats = top + lanes
    data: list[dict[str, Any]] = []
    served = [f for f in shown if f.status in ("waited", "waiting")]
    moot = [f for f in shown if f.status in ("superseded", "reset", "job failed")]
    plot = plot_px(cats, width_px)

    # The axis leaves room right of each start mark for "may start at ..." (and for the "index
    # failed" words). The formula goes in its bar where the bar's visible part holds it (a
    # superseded wait may run past the axis), else after the start mark where there is room,
    # else in the bar if plotly's shrinking of text that does not fit keeps 60% of its size;
    # the hover always has it.
    right = _right(t, shown, {} if s.per_index else {id(f): _fit_words(_start_words(f, False), plot) for f in served},
                   plot,
                   s.limit)

    def px(x: float) -> float:
        return (x + 0.02 * right) / (1.02 * right) * plot

    def bar_px(f: Failure) -> float:
        return px(min(f.t + f.delay, right)) - px(f.t)

    fits = {id(f): bar_px(f) >= text_px(_bar_text(f), LABEL_SIZE) + 10 for f in shown}
    start_words: dict[int, str] = {}
    for f in served:
        words = _start_words(f, not fits[id(f)])
        room = plot - px(f.next_start) - MARK_PX
        if not fits[id(f)] and text_px(words, LABEL_SIZE) > room:
            # Two lines: the formula, then when (a capped delay's formula is long).
            two = [_bar_text(f), _start_words(f, False)]
            if max(text_px(w, LABEL_SIZE) for w in two) <= room:
                words = "<br>".join(two)
            else:
                words = _fit_words(_start_words(f, False), plot)
                fits[id(f)] = bar_px(f) >= 0.6 * text_px(_bar_text(f), LABEL_SIZE) + 10
        start_words[id(f)] = words
    for name, group, opacity in ((_("wait (new pod not before its end)"), served, 1.0),
                                 (_("wait that never ran out (superseded, reset or Job failed)"), moot, 0.35)):
        data.append({"type": "bar", "orientation": "h", "name": name, "y": [lane(f) for f in group],
                     "base": [f.t for f in group], "x": [f.delay for f in group], "opacity": opacity,
                     "text": [_bar_text(f) if fits[id(f)] else "" for f in group], "textposition": "inside",
                     "insidetextanchor": "start", "textfont": {"color": "#000000", "size": 11},
                     "marker": bar_marker("failed", color="#F4B183"),
                     "customdata": [_wait_hover(f) for f in group],
                     "hovertemplate": "%{customdata}<extra></extra>"})
    failed_text = [_fit_words(_index_failed(f, s.limit), plot) if f.status == "index failed" else "" for f in shown]
    data.append({"type": "scatter", "mode": "markers+text", "name": _("pod failed"),
                 "y": [lane(f) for f in shown], "x": [f.t for f in shown], "text": failed_text,
                 "textposition": "middle right", "textfont": {"size": 11},
                 "marker": {"symbol": "x-thin-open", "size": 13, "color": OUTCOME_STYLE["failed"].color,
                            "line": {"width": 3, "color": OUTCOME_STYLE["failed"].color}},
                 "hovertext": [_("{pod} failed at {t} s (n={n})").format(pod=f.pod, t=secs(f.t), n=f.n)
                               for f in shown], "hoverinfo": "text"})
    # The start mark says when and why; it repeats the formula when the bar was too short to hold it.
    # Per-index lanes hold several waits in a row, so there the words stay in the hover.
    start_text = [] if s.per_index else [start_words[id(f)] for f in served]
    data.append({"type": "scatter", "mode": "markers" if s.per_index else "markers+text",
                 "name": _("new pod may start"), "y": [lane(f) for f in served],
                 "x": [f.next_start for f in served], "text": start_text, "textposition": "middle right",
                 "textfont": {"size": 11}, "marker": {"symbol": "triangle-right", "size": 12, "color": INK},
                 "hoverinfo": "text", "hovertext": [_("a new pod may start at {t} s").format(t=secs(f.next_start))
                                                    for f in served]})
    if s.per_index:
        lane_set = set(lanes)
        cx = [(c, n, ix) for c, n, ix in s.creations if _index_lane(ix) in lane_set]
        data.append({"type": "scatter", "mode": "markers", "name": _("pod created (index lane)"),
                     "y": [_index_lane(ix) for _c, _n, ix in cx], "x": [c for c, _n, _i in cx],
                     "marker": {"symbol": "triangle-up", "size": 10, "color": OUTCOME_STYLE["running"].color},
                     "hovertext": [_created(c, n) for c, n, _i in cx], "hoverinfo": "text"})
        rx = [(r, n, ix) for r, n, ix in s.resets if _index_lane(ix) in lane_set]
        data.append({"type": "scatter", "mode": "markers", "name": _("index succeeded"),
                     "y": [_index_lane(ix) for _r, _n, ix in rx], "x": [r for r, _n, _i in rx],
                     "marker": {"symbol": "square", "size": 10, "color": OUTCOME_STYLE["succeeded"].color,
                                "line": {"color": INK, "width": 1}},
                     "hovertext": [_("{pod} succeeded at {t} s").format(pod=n, t=secs(r)) for r, n, _i in rx],
                     "hoverinfo": "text"})
    data.append({"type": "scatter", "mode": "markers", "name": _("pod created"), "y": [created_lane] * len(created),
                 "x": [c for c, _n, _i in created], "marker": {"symbol": "triangle-up", "size": 10,
                                                             "color": OUTCOME_STYLE["running"].color},
                 "hovertext": [_created(c, n) for c, n, _i in created], "hoverinfo": "text",
                 "showlegend": not s.per_index})
    if s.resets and not s.per_index:
        data.append({"type": "scatter", "mode": "markers", "name": _("success: count reset to 0"),
                     "y": [resets_lane] * len(resets), "x": [r for r, _n, _i in resets],
                     "marker": {"symbol": "square", "size": 10, "color": OUTCOME_STYLE["succeeded"].color,
                                "line": {"color": INK, "width": 1}},
                     "hovertext": [_("{pod} succeeded at {t} s: failures counted from 0 again").format(
                         pod=n, t=secs(r)) for r, n, _i in resets], "hoverinfo": "text"})
    if s.waits:
        data.append({"type": "scatter", "mode": "markers", "name": _("sync waited (backoff)"),
                     "y": [waits_lane] * len(s.waits), "x": [w.t for w in s.waits],
                     "marker": {"symbol": "line-ns-open", "size": 14, "color": MUTED, "line": {"width": 2}},
                     "hovertext": [_wait_sync_hover(w) for w in s.waits], "hoverinfo": "text"})
    shapes, notes = [], []
    if k:
        shape, note = now_line(t, _("cycle {cycle}").format(cycle=k), right=x_end(t))
        shapes.append(shape)
        notes.append(note)
    if s.job_failed_at is not None:
        # Centred under its arrow unless that runs past the figure's right edge.
        words = _("Job failed")
        x_px = (s.job_failed_at + 0.02 * right) / (1.02 * right) * plot
        anchor = "right" if x_px + text_px(words, LABEL_SIZE) / 2 > plot + MARGIN["r"] - 2 else "center"
        notes.append({"x": s.job_failed_at, "y": 0, "xref": "x", "yref": "paper", "text": words, "xanchor": anchor,
                      "showarrow": True, "arrowhead": 2, "ay": FAILED_AY, "ax": 0, "font": {"size": LABEL_SIZE}})
    if dropped:
        notes.append({"xref": "paper", "yref": "paper", "x": 1, "y": -0.1, "xanchor": "right", "showarrow": False,
                      "text": ngettext("{n} earlier lane not shown", "{n} earlier lanes not shown", dropped).format(
                          n=dropped), "font": {"size": 11, "color": MUTED}})
    if not fails:
        notes.append({"xref": "paper", "yref": "paper", "x": 0.5, "y": 0.3, "showarrow": False,
                      "text": _("no pod has failed yet"), "font": {"size": 13, "color": MUTED}})
    # "Job failed" is written below the axis, between the tick labels and the axis's title, which
    # moves down to make room (ru "Job завершился неуспешно" sat on "время с момента создания Job (с)").
    room = FAILED_ROOM if s.job_failed_at is not None else 0
    xtitle: dict[str, Any] = {"text": _("time since the Job was created (s)")}
    if room:
        xtitle["standoff"] = FAILED_AY + LABEL_SIZE - TICKS_PX + 6
    layout = {
        "title": title(main, sub, width_px=width_px), "barmode": "overlay",
        "height": max(320, 34 * len(cats) + 200) + room, "margin": {**MARGIN, "b": MARGIN["b"] + room},
        "xaxis": {"title": xtitle, "range": [-0.02 * right, right]},
        "yaxis": {"type": "category", "categoryorder": "array", "categoryarray": cats, "autorange": "reversed",
                  "automargin": True},
        "shapes": shapes, "annotations": notes,
        "legend": LEGEND_BOTTOM,
    }
    fit_x_title(layout, width_px)
    return make_figure(data, layout, view=VIEW)


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`: failures with their waits, resets and the syncs that waited."""
    k, t, _c = resolve(trace, cycle)
    s = story(trace, k)
    main, sub = _titles(trace, k, t, s)
    lines = [main, sub]
    if s.failures:
        first = max(0, len(s.failures) - MAX_TEXT_ROWS)
        if first:
            lines.append(ngettext("(the {n} earliest failure is not listed)",
                                  "(the {n} earliest failures are not listed)", first).format(n=first))
        rows = [(i, f.pod, "-" if f.index is None else f.index, secs(f.t), f.n, delay_formula(f.n),
                 _("never") if f.status == "index failed" else secs(f.next_start), status_word(f.status))
                for i, f in enumerate(s.failures, start=1) if i > first]
        heads = ["#", pgettext("table column", "POD"), pgettext("table column", "INDEX"),
                 pgettext("table column", "FAILED AT"), pgettext("table column", "N"),
                 pgettext("table column", "WAIT"), pgettext("table column", "NEW POD FROM"),
                 pgettext("table column", "STATUS")]
        lines.append(table(heads, rows, right=(0, 2, 3, 4, 6)))
    if s.resets:
        shown = s.resets[-10:]
        items = join_list(_("{pod} at {t} s").format(pod=n, t=secs(r)) for r, n, _i in shown)
        if len(s.resets) > len(shown):
            if s.per_index:
                line = _("Successes (per index, they end the index's backoff): {n}, the latest: {items}")
            else:
                line = _("Successes (each resets the failure count to 0): {n}, the latest: {items}")
        elif s.per_index:
            line = _("Successes (per index, they end the index's backoff): {items}")
        else:
            line = _("Successes (each resets the failure count to 0): {items}")
        lines.append(line.format(n=len(s.resets), items=items))
    if s.waits:
        lines.append(_("Syncs that waited: {items}").format(items=join_clauses(
            _("cycle {cycle} at {t} s waits {seconds} s").format(cycle=w.cycle, t=secs(w.t), seconds=secs(w.remaining))
            for w in s.waits)))
    if s.job_failed_at is not None:
        lines.append(_("The Job failed at {t} s.").format(t=secs(s.job_failed_at)))
    return "\n".join(lines) + "\n"


__all__ = ["BackoffStory", "Failure", "Wait", "delay_formula", "figure", "story", "text"]
