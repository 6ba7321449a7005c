"""A dashboard's figures have their titles and legends beside them as HTML, not inside plotly.

plotly.js redraws a figure's title and legend on every update (every step of a dashboard): a quarter
to a third of plotly's time in a step. The dashboard's figure carries them as HTML in its layout's
``meta`` (drawn beside the plot by its loader, in the same update), the same words in the same order;
a figure shown on its own keeps them inside (tests/viz).
"""

from __future__ import annotations

import re

import pytest
from conftest import SAMPLE

from k8sjobs import set_language, viz
from k8sjobs.i18n import LANGUAGES
from k8sjobs.viz._common import figure_title
from k8sjobs.widgets import Explorer

VIEWS = ("timeline", "counts")


@pytest.fixture
def english():
    yield
    set_language("en")


def title_of(ex: Explorer, view: str) -> str:
    return ex.figures[view].layout.meta["k8sjobs_title"]


def legend_of(ex: Explorer, view: str) -> str:
    return ex.figures[view].layout.meta["k8sjobs_legend"]


def legend_names(html: str) -> list[str]:
    return re.findall(r"<span class='k8sjobs-legend-name'>(.*?)</span>", html)


def plotly_legend(view: str, trace, cycle: int, narrow: bool) -> list[str]:
    """The names plotly's own legend shows for the view's figure, in its order (the names as the view gave
    them, before a narrow legend wrapped them)."""
    parts = viz.figure_parts(view, trace, cycle, narrow=narrow)
    names = {int(i): n for i, n in parts.layout["meta"].get("legend_names", {}).items()}
    shown = [i for i, t in enumerate(parts.data) if t.get("showlegend") is not False and t.get("name")]
    shown.sort(key=lambda i: parts.data[i].get("legendrank", 1000))
    return [names.get(i, parts.data[i]["name"]) for i in shown]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_dashboard_figure_has_no_title_or_legend_of_its_own_and_its_html_says_the_same_words(english, language):
    set_language(language)
    ex = Explorer(SAMPLE, seed=0, nodes=3, views=list(VIEWS))
    set_language("en")  # the dashboard keeps its language
    seen = {v: set() for v in VIEWS}
    for cycle in (0, 1, 4, 4, 3, 12):
        ex.seek(cycle)
        set_language(language)
        for v in VIEWS:
            fw = ex.figures[v]
            assert fw.layout.title.text is None and fw.layout.showlegend is False, (v, cycle)
            static = viz.figure(v, ex.state.trace, cycle, narrow=True)
            assert ex.figure_title(v) == figure_title(static), (language, v, cycle)
            assert legend_names(legend_of(ex, v)) == plotly_legend(v, ex.state.trace, cycle, True), (v, cycle)
            seen[v].add(title_of(ex, v))
        set_language("en")
    for v in VIEWS:
        assert len(seen[v]) == 5, f"the {v} title follows every step (cycles 0, 1, 4, 3, 12)"


def test_the_plot_keeps_its_size_without_its_title_and_legend():
    ex = Explorer(SAMPLE, seed=0, nodes=3, views=list(VIEWS), start_cycle=4)
    for v in VIEWS:
        lay = viz.figure_parts(v, ex.state.trace, 4, narrow=True).layout
        fw = ex.figures[v]
        plot = lay["height"] - lay["margin"]["t"] - lay["margin"]["b"]
        assert fw.layout.height - fw.layout.margin.t - fw.layout.margin.b == plot, v
        assert fw.layout.margin.t == viz._outside.BARE_TOP


def test_a_click_on_a_legend_entry_hides_its_trace_and_it_stays_hidden_on_later_steps():
    ex = Explorer(SAMPLE, seed=0, nodes=3, views=list(VIEWS), start_cycle=2)
    fw = ex.figures["counts"]
    i = next(t for t in range(len(fw.data)) if fw.data[t].name == "active")
    assert f"data-trace='{i}' aria-pressed='true'" in legend_of(ex, "counts")
    # what the figure's loader sends on a click of the entry (figure.py), as plotly's legend would
    fw._js2py_restyle = {"style_data": {"visible": ["legendonly"]}, "style_traces": [i], "source_view_id": None}
    assert fw.data[i].visible == "legendonly"
    for _ in range(3):
        ex.step()
        assert fw.data[i].visible == "legendonly", "a step leaves what the page changed on its own"
    fw._js2py_restyle = {"style_data": {"visible": [True]}, "style_traces": [i], "source_view_id": None}
    ex.step()
    assert fw.data[i].visible is True


def test_the_title_travels_in_the_figures_own_update():
    """One message per figure and step: the title's HTML is part of the figure's update (an HTML widget
    of its own was a message, a view update and a layout more in the browser, each step)."""
    ex = Explorer(SAMPLE, seed=0, nodes=3, views=list(VIEWS))
    fw = ex.figures["timeline"]
    sent = []
    fw._send_update_msg = lambda **k: sent.append(k)
    ex.step()
    assert len(sent) == 1 and sent[0]["relayout_data"]["meta"]["k8sjobs_title"].startswith(
        "<div class='k8sjobs-figure-title'>Pods of job.batch/sample over time, up to cycle 1 (t=0 s)</div>")
    assert "title" not in sent[0]["relayout_data"]


def test_a_tab_opened_later_gets_its_title_and_legend_too():
    ex = Explorer(SAMPLE, seed=0, nodes=3, start_cycle=5)
    assert set(ex.figures) == {"timeline"}
    ex.tabs.selected_index = ex.views.index("backoff")
    assert ex.figure_title("backoff") == figure_title(viz.figure("backoff", ex.state.trace, 5))
    assert legend_names(legend_of(ex, "backoff")) == plotly_legend("backoff", ex.state.trace, 5, False)
    # a view without a legend (a table) shows none
    ex.tabs.selected_index = ex.views.index("events")
    assert legend_of(ex, "events") == "" and title_of(ex, "events").startswith("<div class='k8sjobs-figure-title'>")
