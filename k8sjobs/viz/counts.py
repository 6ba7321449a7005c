"""View 2, counts over time: what the Job status said after each cycle, against what was asked.

Step lines of ``status.active``, ``ready``, ``succeeded``, ``failed`` and ``terminating``
after every reconcile cycle up to the chosen one, with ``spec.parallelism`` (and
``spec.completions``, when set) as reference lines: the picture of "actual parallelism is
above or below what you asked". Each series has its own dash style, marker symbol and an
end label, so the lines are told apart without colour.
"""

from __future__ import annotations

from typing import Any

from k8sjobs.i18n import N_, _, pgettext
from k8sjobs.trace.recorder import Trace

from ._common import (
    CYCLE_STRIP,
    HIGHLIGHT,
    INK,
    LEGEND_BOTTOM,
    OUTCOME_STYLE,
    PLOT_DOMAIN,
    cycle_ticks,
    cycle_word,
    job_ref,
    make_figure,
    now_line,
    resolve,
    secs,
    table,
    title,
    x_end,
)

VIEW = "counts"

SERIES: tuple[tuple[str, str, str, str], ...] = (
    # (status field, legend name (marked; shown with series_name), dash, marker symbol)
    ("active", N_("active"), "solid", "circle"),
    ("ready", N_("ready"), "dot", "square-open"),
    ("succeeded", N_("succeeded"), "dash", "square"),
    ("failed", N_("failed"), "longdash", "x"),
    ("terminating", N_("terminating"), "dashdot", "diamond"),
)


def series_name(name: str) -> str:
    """A series' legend name in the current language."""
    return _(name)
_COLOR = {"active": OUTCOME_STYLE["running"].color, "ready": "#56B4E9", "succeeded": OUTCOME_STYLE["succeeded"].color,
          "failed": OUTCOME_STYLE["failed"].color, "terminating": OUTCOME_STYLE["terminating"].color}
MARKERS_UP_TO = 60
"""Draw a marker at every cycle only when there are at most this many (else only at the end)."""


def series(trace: Trace, cycle: int) -> dict[str, list[Any]]:
    """Per-cycle values up to ``cycle``: ``t``, each status count, ``parallelism``, ``completions``."""
    cycles = trace.cycles[:cycle]
    out: dict[str, list[Any]] = {"t": [c.t for c in cycles], "cycle": [c.index for c in cycles]}
    for field, *_rest in SERIES:
        out[field] = [getattr(c.after, field) for c in cycles]
    out["parallelism"] = [c.parallelism if c.parallelism is not None else 1 for c in cycles]
    out["completions"] = [c.completions for c in cycles]
    out["wanted"] = [wanted(c) for c in cycles]
    return out


def wanted(c) -> int:
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
    # A reference value holds from its cycle until the next one (and to the end of the axis).
    return {"type": "scatter", "x": [*xs, end], "y": [*ys, ys[-1]] if ys else [], "mode": "lines", "name": name,
            "line": {"dash": dash, "color": color, "width": 2, "shape": "hv"}, "hoverinfo": "x+y+name"}


def figure(trace: Trace, cycle: int):
    """Status counts after each cycle up to ``cycle``, against parallelism and completions."""
    k, t, cur = resolve(trace, cycle)
    s = series(trace, k)
    xs = s["t"]
    data: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    ymax = 1
    if xs:
        data.append(_ref_line(xs, s["parallelism"], t, _("parallelism (asked)"), "dash", INK))
        ymax = max(ymax, *s["parallelism"])
        if any(v is not None for v in s["completions"]):
            comp = [v if v is not None else 0 for v in s["completions"]]
            data.append(_ref_line(xs, comp, t, _("completions (asked)"), "longdashdot", "#7F7F7F"))
            ymax = max(ymax, *comp)
        line = _ref_line(xs, s["wanted"], t, _("wanted active: min(parallelism, completions left)"), "dot", INK)
        line["line"]["width"] = 1.5
        data.append(line)
    many = len(xs) > MARKERS_UP_TO
    for field, marked, dash, symbol in SERIES:
        name = series_name(marked)
        ys = s[field]
        if ys:
            ymax = max(ymax, *ys)
        data.append({"type": "scatter", "x": xs, "y": ys, "name": name, "mode": "lines" if many else "lines+markers",
                     "line": {"shape": "hv", "dash": dash, "color": _COLOR[field], "width": 2.5},
                     "marker": {"symbol": symbol, "size": 7, "color": _COLOR[field]},
                     # TRANSLATORS: plotly hover template: keep %{{y}} and %{{x}} as they are.
                     "hovertemplate": _("{name} %{{y}} after the cycle at %{{x}} s").format(name=name)
                     + "<extra></extra>"})
    shapes = []
    if cur is not None:
        a = cur.after
        data.append({"type": "scatter", "x": [t] * len(SERIES), "y": [getattr(a, f) for f, *_rest in SERIES],
                     "mode": "markers", "name": _("cycle {cycle}").format(cycle=k), "showlegend": False,
                     "hoverinfo": "skip",
                     "marker": {"symbol": [sym for *_rest, sym in SERIES], "size": 13, "color": HIGHLIGHT,
                                "line": {"color": INK, "width": 2}}})
        shape, note = now_line(t, _("cycle {cycle}").format(cycle=k), right=x_end(t) * 1.2)
        shapes.append(shape)
        notes.append(note)
        # End labels: the series name and value next to the current cycle, readable without colour.
        labels: dict[int, list[str]] = {}
        for f, name, *_rest in SERIES:
            labels.setdefault(getattr(a, f), []).append(series_name(name))
        for value, names in sorted(labels.items()):
            notes.append({"x": t, "y": value, "xref": "x", "yref": "y", "text": f"{' = '.join(names)} {value}",
                          "showarrow": False, "xanchor": "left", "xshift": 10, "font": {"size": 11},
                          "bgcolor": "rgba(255,255,255,0.8)"})
    data.append(cycle_ticks(trace, k))
    main, sub = _titles(trace, k, t)
    layout = {
        "title": title(main, sub), "height": 480, "margin": {"t": 105, "l": 60, "r": 30, "b": 95},
        "xaxis": {"title": {"text": _("time since the Job was created (s)")}, "range": [0, x_end(t) * 1.2]},
        "yaxis": {"domain": PLOT_DOMAIN, "title": {"text": pgettext("axis title", "pods")}, "range": [-0.3, ymax * 1.12 + 0.5], "rangemode": "tozero"},
        "yaxis2": CYCLE_STRIP, "shapes": shapes, "annotations": notes,
        "legend": LEGEND_BOTTOM,
    }
    return make_figure(data, layout, view=VIEW)


def _titles(trace: Trace, k: int, t: float) -> tuple[str, str]:
    main = _("Job status counts of {job} after each cycle, up to {when}").format(job=job_ref(trace),
                                                                                 when=cycle_word(k, t, trace))
    if not k:
        return main, _("no cycle has run yet")
    c = trace.cycle(k)
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


__all__ = ["SERIES", "figure", "series", "text"]
