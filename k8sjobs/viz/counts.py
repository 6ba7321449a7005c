"""View 2, counts over time: what the Job status said after each cycle, against what was asked.

Step lines of ``status.active``, ``ready``, ``succeeded``, ``failed`` and ``terminating``
after every reconcile cycle up to the chosen one, with ``spec.parallelism`` (and
``spec.completions``, when set) as reference lines: the picture of "actual parallelism is
above or below what you asked". Each series has its own dash style, marker symbol and an
end label, so the lines are told apart without colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from k8sjobs.i18n import Np_, _, pgettext
from k8sjobs.trace.recorder import Trace
from k8sjobs.trace.records import Cycle, StatusSummary

from ._common import (
    CYCLE_STRIP,
    FIGURE_PX,
    HIGHLIGHT,
    INK,
    LEGEND_BOTTOM,
    NO_POINT,
    OUTCOME_STYLE,
    PLOT_DOMAIN,
    cached,
    cycle_ticks,
    cycle_word,
    job_ref,
    make_figure,
    now_line,
    resolve,
    secs,
    table,
    text_px,
    title,
    title_top,
    x_end,
)

VIEW = "counts"

SERIES: tuple[tuple[str, str, str, str], ...] = (
    # (status field, legend name (marked; shown with series_name), dash, marker symbol)
    # TRANSLATORS: the legend of the Counts view names the status counters, as its table's columns
    # (ACTIVE, READY, SUCCEEDED, FAILED, TERMINATING) do: a count of pods, not one pod's state.
    ("active", Np_("counts legend", "active"), "solid", "circle"),
    ("ready", Np_("counts legend", "ready"), "dot", "square-open"),
    ("succeeded", Np_("counts legend", "succeeded"), "dash", "square"),
    ("failed", Np_("counts legend", "failed"), "longdash", "x"),
    ("terminating", Np_("counts legend", "terminating"), "dashdot", "diamond"),
)


def series_name(name: str) -> str:
    """A series' legend name in the current language."""
    return pgettext("counts legend", name)
_COLOR = {"active": OUTCOME_STYLE["running"].color, "ready": "#56B4E9", "succeeded": OUTCOME_STYLE["succeeded"].color,
          "failed": OUTCOME_STYLE["failed"].color, "terminating": OUTCOME_STYLE["terminating"].color}
MARKERS_UP_TO = 60
"""Draw a marker at every cycle only when there are at most this many (else only at the end)."""


@dataclass(frozen=True, slots=True)
class Start:
    """A run's starting point shown as "cycle 0": the Job status a snapshot recorded.

    A run from a manifest starts with an empty status (nothing to show); a run from a real
    cluster's snapshot starts with the snapshot's counts, which the views show at cycle 0.
    It answers what :func:`wanted` asks of a :class:`~k8sjobs.trace.records.Cycle`.
    """

    index: int
    t: float
    after: StatusSummary
    parallelism: int | None
    completions: int | None
    suspended: bool

    def find(self, rule: str) -> list:
        """No decisions: nothing has run yet."""
        return []


def start(trace: Trace) -> Start | None:
    """The snapshot's counts at the run's start (None for a run from a manifest)."""
    if trace.snapshot_at is None:
        return None
    return cached(trace, "counts-start", _start)


def _start(trace: Trace) -> Start:
    job = trace.state_at(0).job
    spec = job.spec if job is not None else None
    return Start(0, trace.start_t, StatusSummary.of(job), spec.parallelism if spec else None,
                 spec.completions if spec else None, bool(spec and spec.suspend))


def points(trace: Trace, cycle: int) -> list[Cycle | Start]:
    """What the view plots up to ``cycle``: the snapshot's start (if any), then each cycle."""
    first = start(trace)
    return ([first] if first is not None else []) + trace.cycles[:cycle]


def series(trace: Trace, cycle: int) -> dict[str, list[Any]]:
    """Per-cycle values up to ``cycle``: ``t``, each status count, ``parallelism``, ``completions``.

    A run from a snapshot starts with the snapshot's counts as cycle 0.
    """
    cycles = points(trace, cycle)
    out: dict[str, list[Any]] = {"t": [c.t for c in cycles], "cycle": [c.index for c in cycles]}
    for field, *_rest in SERIES:
        out[field] = [getattr(c.after, field) for c in cycles]
    out["parallelism"] = [c.parallelism if c.parallelism is not None else 1 for c in cycles]
    out["completions"] = [c.completions for c in cycles]
    out["wanted"] = [wanted(c) for c in cycles]
    return out


def wanted(c: Cycle | Start) -> int:
    """The active count the controller aimed at in cycle ``c`` (its ``manage.want_active``, else computed).

    min(parallelism, completions - succeeded); a work-queue Job (no completions) wants
    parallelism until a pod succeeded.
    """
    found = c.find("manage.want_active")
    if found and "want" in found[0].fields:
        return int(found[0].fields["want"])
    # A suspended Job wants no pods; nor does one the controller has decided to finish.
    if c.suspended or any(t in ("FailureTarget", "SuccessCriteriaMet", "Failed", "Complete") and st == "True"
                          for t, st, _, _ in c.after.conditions):
        return 0
    par = c.parallelism if c.parallelism is not None else 1
    if c.completions is None:
        return par if c.after.succeeded == 0 else c.after.active
    return max(0, min(par, c.completions - c.after.succeeded))


def _ref_line(xs: list[float], ys: list[Any], end: float, name: str, dash: str, color: str) -> dict[str, Any]:
    # A reference value holds from its cycle until the next one (and to the end of the axis); before
    # the first cycle, an empty point (NO_POINT).
    x, y = ([*xs, end], [*ys, ys[-1]]) if xs else (list(NO_POINT), list(NO_POINT))
    return {"type": "scatter", "x": x, "y": y, "mode": "lines", "name": name,
            "line": {"dash": dash, "color": color, "width": 2, "shape": "hv"}, "hoverinfo": "x+y+name"}


FITS_WIDTH = True
"""This view fits its end labels to the figure's width (``figure(..., width_px=...)``)."""
LABEL_SIZE = 11
LABEL_SHIFT = 10
"""Font size of the end labels, and their distance in pixels right of the current cycle."""
LABEL_LINE_PX = 15
"""Pixels one line of an end label takes (plotly's line height at LABEL_SIZE, with its padding)."""
MARGIN = {"t": 105, "l": 60, "r": 30, "b": 95}
HEIGHT = 480


def figure(trace: Trace, cycle: int, *, width_px: float = FIGURE_PX):
    """Status counts after each cycle up to ``cycle``, against parallelism and completions.

    ``width_px``: the narrowest the figure will be drawn; the end labels right of the current
    cycle fit inside the plot at that width (the time axis leaves room for them).
    """
    k, t, cur = resolve(trace, cycle)
    if cur is None:
        cur = start(trace)
    s = series(trace, k)
    xs = s["t"]
    data: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    ymax = 1
    # Before the first cycle the traces the first cycle draws are there too, each with an empty point
    # (NO_POINT), in the same order: the legend shows from the start and the first Step changes only data.
    first = trace.cycles[0] if trace.cycles else None
    if xs or first is not None:
        data.append(_ref_line(xs, s["parallelism"], t, _("parallelism (asked)"), "dash", INK))
        ymax = max([ymax, *s["parallelism"]])
        if (any(v is not None for v in s["completions"]) if xs else first.completions is not None):
            comp = [v if v is not None else 0 for v in s["completions"]]
            data.append(_ref_line(xs, comp, t, _("completions (asked)"), "longdashdot", "#7F7F7F"))
            ymax = max([ymax, *comp])
        line = _ref_line(xs, s["wanted"], t, _("wanted active: min(parallelism, completions left)"), "dot", INK)
        line["line"]["width"] = 1.5
        data.append(line)
    many = len(xs) > MARKERS_UP_TO
    for field, marked, dash, symbol in SERIES:
        name = series_name(marked)
        ys = s[field]
        if ys:
            ymax = max(ymax, *ys)
        data.append({"type": "scatter", "x": xs or list(NO_POINT), "y": ys or list(NO_POINT), "name": name,
                     "mode": "lines" if many else "lines+markers",
                     "line": {"shape": "hv", "dash": dash, "color": _COLOR[field], "width": 2.5},
                     "marker": {"symbol": symbol, "size": 7, "color": _COLOR[field]},
                     # TRANSLATORS: plotly hover template: keep %{{y}} and %{{x}} as they are.
                     "hovertemplate": _("{name} %{{y}} after the cycle at %{{x}} s").format(name=name)
                     + "<extra></extra>"})
    shapes = []
    yrange = [-0.3, ymax * 1.12 + 0.5]
    right = x_end(t) * 1.2
    if cur is not None or first is not None:
        # the current cycle's markers (before the first cycle, none yet: the first Step moves them in place)
        x, y = ([t] * len(SERIES), [getattr(cur.after, f) for f, *_rest in SERIES]) if cur is not None else (
            list(NO_POINT), list(NO_POINT))
        data.append({"type": "scatter", "x": x, "y": y, "mode": "markers", "name": _("cycle {cycle}").format(cycle=k),
                     "showlegend": False, "hoverinfo": "skip",
                     "marker": {"symbol": [sym for *_rest, sym in SERIES], "size": 13, "color": HIGHLIGHT,
                                "line": {"color": INK, "width": 2}}})
    if cur is not None:
        a = cur.after
        labels = end_labels(a, width_px, yrange)
        # The time axis leaves room right of the current cycle for the widest label.
        plot_px = plot_width(width_px)
        need = (max(lb["width_px"] for lb in labels) + LABEL_SHIFT + 4) / plot_px
        right = max(right, t / (1 - min(need, 0.8)))
        shape, note = now_line(t, _("cycle {cycle}").format(cycle=k), right=right)
        shapes.append(shape)
        notes.append(note)
        for lb in labels:
            notes.append({"x": t, "y": lb["value"], "xref": "x", "yref": "y", "text": lb["text"],
                          "showarrow": False, "xanchor": "left", "xshift": LABEL_SHIFT, "yshift": lb["yshift"],
                          "align": "left", "font": {"size": LABEL_SIZE}, "bgcolor": "rgba(255,255,255,0.8)"})
    data.append(cycle_ticks(trace, k))
    main, sub = _titles(trace, k, t)
    meta: dict[str, Any] = {}
    if not xs and first is not None:
        # Before the first cycle the subtitle is one line, after it two or three: the room of the
        # first cycle's title is made now, so the first Step keeps the figure's frame (top_min).
        room = title(*_titles(trace, 1, first.t), width_px=width_px)
        meta["top_min"] = title_top(room["text"], room["subtitle"]["text"])
    layout = {
        "title": title(main, sub, width_px=width_px), "height": HEIGHT, "margin": dict(MARGIN), "meta": meta,
        "xaxis": {"title": {"text": _("time since the Job was created (s)")}, "range": [0, right]},
        "yaxis": {"domain": PLOT_DOMAIN, "title": {"text": pgettext("axis title", "pods")}, "range": yrange,
                  "rangemode": "tozero"},
        "yaxis2": CYCLE_STRIP, "shapes": shapes, "annotations": notes,
        "legend": LEGEND_BOTTOM,
    }
    return make_figure(data, layout, view=VIEW)


def plot_width(width_px: float) -> float:
    """Pixels of the plot area in a figure ``width_px`` wide."""
    return width_px - MARGIN["l"] - MARGIN["r"]


def plot_height() -> float:
    """Pixels of the main plot area (the figure's height is fixed; added title lines add to it)."""
    return (HEIGHT - MARGIN["t"] - MARGIN["b"]) * (PLOT_DOMAIN[1] - PLOT_DOMAIN[0])


def end_labels(a: StatusSummary, width_px: float, yrange: list[float]) -> list[dict[str, Any]]:
    """The labels next to the current cycle: series with the same value share one
    (``succeeded = failed 0``), readable without colour.

    A label wider than a third of the plot breaks into lines; labels that would overlap
    are moved apart (``yshift``, pixels). Each has ``value``, ``text``, ``width_px``
    (its widest line) and ``yshift``.
    """
    groups: dict[int, list[str]] = {}
    for f, name, *_rest in SERIES:
        groups.setdefault(getattr(a, f), []).append(series_name(name))
    longest = plot_width(width_px) / 3
    out = []
    for value, names in sorted(groups.items()):
        # Lines break only between names (never inside one: a Chinese name could break anywhere).
        parts = [f"{n} =" for n in names[:-1]] + [f"{names[-1]} {value}"]
        lines: list[str] = []
        for part in parts:
            if lines and text_px(f"{lines[-1]} {part}", LABEL_SIZE) <= longest:
                lines[-1] = f"{lines[-1]} {part}"
            else:
                lines.append(part)
        out.append({"value": value, "text": "<br>".join(lines), "lines": len(lines),
                    "width_px": max(text_px(line, LABEL_SIZE) for line in lines) + 4, "yshift": 0})
    # Moved apart from the bottom up, then down from the top if the highest left the plot.
    per_unit = plot_height() / (yrange[1] - yrange[0])
    centres = [(lb["value"] - yrange[0]) * per_unit for lb in out]
    half = [lb["lines"] * LABEL_LINE_PX / 2 for lb in out]
    placed: list[float] = []
    for i, c in enumerate(centres):
        low = placed[-1] + half[i - 1] + half[i] if placed else half[i]
        placed.append(max(c, low))
    top = plot_height()
    for i in range(len(placed) - 1, -1, -1):
        high = placed[i + 1] - half[i + 1] - half[i] if i + 1 < len(placed) else top - half[i]
        placed[i] = min(placed[i], high)
    for lb, c, p in zip(out, centres, placed):
        lb["yshift"] = round(p - c)
    return out


def _titles(trace: Trace, k: int, t: float) -> tuple[str, str]:
    main = _("Job status counts of {job} after each cycle, up to {when}").format(job=job_ref(trace),
                                                                                 when=cycle_word(k, t, trace))
    c: Cycle | Start | None = trace.cycle(k) if k else start(trace)
    if c is None:
        return main, _("no cycle has run yet")
    a = c.after
    par = c.parallelism if c.parallelism is not None else 1
    want = wanted(c)
    if c.completions is not None:
        why = _("parallelism {parallelism}, completions {completions} - succeeded {succeeded}").format(
            parallelism=par, completions=c.completions, succeeded=a.succeeded)
    else:
        why = _("parallelism {parallelism}").format(parallelism=par)
    # TRANSLATORS: {why} is "parallelism 3, completions 10 - succeeded 4" (how the wanted count is computed).
    if a.active > want:
        sub = _("now: active {active}, {diff} above the {want} wanted ({why}); ready {ready}, succeeded {succeeded}, "
                "failed {failed}, terminating {terminating}")
    elif a.active < want:
        sub = _("now: active {active}, {diff} below the {want} wanted ({why}); ready {ready}, succeeded {succeeded}, "
                "failed {failed}, terminating {terminating}")
    else:
        sub = _("now: active {active}, equal to the {want} wanted ({why}); ready {ready}, succeeded {succeeded}, "
                "failed {failed}, terminating {terminating}")
    sub = sub.format(active=a.active, diff=abs(a.active - want), want=want, why=why, ready=a.ready,
                     succeeded=a.succeeded, failed=a.failed, terminating=a.terminating)
    return main, sub


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`: a row of status counts per cycle."""
    k, t, _c = resolve(trace, cycle)
    s = series(trace, k)
    main, sub = _titles(trace, k, t)
    rows = [(s["cycle"][i], secs(s["t"][i]), s["active"][i], s["ready"][i], s["succeeded"][i], s["failed"][i],
             s["terminating"][i], s["wanted"][i], s["parallelism"][i],
             s["completions"][i] if s["completions"][i] is not None else "-")
            for i in range(len(s["t"]))]
    heads = [pgettext("table column", "CYCLE"), pgettext("table column", "T(s)"), pgettext("table column", "ACTIVE"),
             pgettext("table column", "READY"), pgettext("table column", "SUCCEEDED"),
             pgettext("table column", "FAILED"), pgettext("table column", "TERMINATING"),
             pgettext("table column", "WANTED"), pgettext("table column", "PARALLELISM"),
             pgettext("table column", "COMPLETIONS")]
    body = table(heads, rows, right=range(10)) if rows else _("(no cycles yet)")
    return "\n".join([main, sub, body]) + "\n"


__all__ = ["SERIES", "Start", "end_labels", "figure", "points", "series", "start", "text", "wanted"]
