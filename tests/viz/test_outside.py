"""viz.outside: a figure's title and legend taken out for a dashboard to show beside it as HTML.

A static figure (``viz.figure``) keeps both; the dashboard's figure has neither, the plot keeps its
size, and the HTML says what plotly's title and legend said, in the legend's order, with a swatch
that draws what plotly's legend draws (colour, pattern, dash, symbol).
"""

from __future__ import annotations

import copy
import re

import pytest
from viz_scenarios import ALL

from k8sjobs import viz
from k8sjobs.viz._common import figure_title
from k8sjobs.viz._outside import _STROKES, _SYMBOLS, BARE_TOP, legend_html, outside, rich, swatch, title_html

CASES = [(name, view) for name in ("backoff", "indexed", "scale_down", "lag") for view in viz.views_for("Job")]


def plotly_legend(parts) -> list[str]:
    names = {int(i): n for i, n in parts.layout["meta"].get("legend_names", {}).items()}
    shown = [i for i, t in enumerate(parts.data) if t.get("showlegend") is not False and t.get("name")]
    shown.sort(key=lambda i: parts.data[i].get("legendrank", 1000))
    return [names.get(i, parts.data[i]["name"]) for i in shown]


@pytest.mark.parametrize(("scenario", "view"), CASES)
@pytest.mark.parametrize("narrow", [False, True])
def test_outside_takes_the_title_and_legend_out_and_keeps_the_plot(scenario, view, narrow):
    run = ALL[scenario]()
    for cycle in sorted({0, 1, len(run.trace.cycles) // 2, len(run.trace.cycles)}):
        parts = viz.figure_parts(view, run.trace, cycle, narrow=narrow)
        before = copy.deepcopy((parts.data, parts.layout))
        bare, head = outside(parts)
        assert (parts.data, parts.layout) == before, "the view's dicts are not changed"
        assert head.text == figure_title(parts.figure())
        assert "title" not in bare.layout
        lay, new = parts.layout, bare.layout
        assert new["margin"]["t"] == BARE_TOP
        if lay.get("legend", {}).get("orientation") == "h" and parts.data:
            assert new["showlegend"] is False and "legend" not in new
            assert [e.name for e in head.legend] == (plotly_legend(parts) if len(plotly_legend(parts)) > 1 else [])
            assert "legend_px" not in new["meta"] and "legend_names" not in new["meta"]
        else:
            assert head.legend == ()
        plot = lay["height"] - lay["margin"]["t"] - lay["margin"]["b"]
        assert new["height"] - new["margin"]["t"] - new["margin"]["b"] == plot, (view, cycle)
        # the figure still validates with plotly's own objects
        bare.figure().to_dict()


def test_a_static_figure_keeps_its_title_and_legend():
    fig = viz.figure("timeline", ALL["backoff"]().trace, 3)
    assert fig.layout.title.text and fig.layout.showlegend is not False and fig.layout.legend.orientation == "h"


def test_the_html_escapes_everything_but_plotlys_few_tags():
    assert rich("a <b>b</b> <x> & c<br>d<sup>2</sup>") == "a <b>b</b> &lt;x&gt; &amp; c<br>d<sup>2</sup>"
    head = viz.Outside("Pods of <job>", "now: 3 < 4", ())
    assert title_html(head) == ("<div class='k8sjobs-figure-title'>Pods of &lt;job&gt;</div>"
                                "<div class='k8sjobs-figure-subtitle'>now: 3 &lt; 4</div>")
    assert legend_html(()) == ""


def test_every_legend_entry_of_every_view_gets_a_swatch_that_draws_its_marks():
    symbols = set()
    for name in ("backoff", "indexed", "scale_down", "lag", "quota"):
        run = ALL[name]()
        for view in viz.views_for("Job"):
            parts = viz.figure_parts(view, run.trace, len(run.trace.cycles))
            for entry in outside(parts)[1].legend:
                t = parts.data[entry.trace]
                sw = entry.swatch
                marker = t.get("marker") or {}
                if t["type"] == "bar":
                    colour = marker["color"] if isinstance(marker["color"], str) else marker["color"][0]
                    assert f"background-color:{colour}" in sw
                    if (marker.get("pattern") or {}).get("shape"):
                        assert "gradient" in sw, (view, entry.name)
                    continue
                mode = t.get("mode") or "lines+markers"
                if "lines" in mode:
                    assert "<line " in sw and ((t.get("line") or {}).get("dash") in (None, "solid")) != (
                        "stroke-dasharray" in sw), (view, entry.name)
                if "markers" in mode:
                    symbol = str(marker.get("symbol") or "circle").removesuffix("-open")
                    symbols.add(symbol)
                    assert symbol in _SYMBOLS or symbol in _STROKES, f"{view}: no drawing of {symbol!r}"
    assert {"circle", "square", "x", "diamond", "line-ns"} <= symbols


def test_a_swatch_of_an_open_symbol_is_its_outline():
    sw = swatch({"type": "scatter", "mode": "markers", "marker": {"symbol": "circle-open", "color": "#123456"}})
    assert re.search(r"<circle [^>]*fill='none' stroke='#123456'", sw)
