"""LiveFigureWidget: plotly's code travels as a trait and a small loader imports it once per page.

The loader itself runs in the browser (tests/browser checks that two figures side by side each
draw their own view and take every step); these check what the kernel side promises it.
"""

from __future__ import annotations

import re

import plotly
import plotly.graph_objects as go

from k8sjobs.widgets.figure import _MESSAGES, LOADER_ESM, LiveFigureWidget

PLOTLY_ESM = str(go.FigureWidget._esm)


def test_the_loader_is_small_and_plotlys_code_travels_unchanged_beside_it():
    fw = LiveFigureWidget()
    state = fw.get_state()
    assert state["_esm"] == LOADER_ESM and len(LOADER_ESM) < 12_000 < len(PLOTLY_ESM)
    assert state["_k8sjobs_esm"] == PLOTLY_ESM
    assert state["_k8sjobs_esm_key"].startswith(f"plotly-{plotly.__version__}-")


def test_every_figure_has_its_own_id_from_its_first_state():
    a, b = LiveFigureWidget(), LiveFigureWidget()
    assert a.get_state()["_k8sjobs_id"] != b.get_state()["_k8sjobs_id"]
    assert a.get_state()["_k8sjobs_id"] == a.get_state()["_k8sjobs_id"]


def test_the_loader_keeps_every_message_plotly_listens_for():
    # A plotly upgrade that adds a message would otherwise lose it while plotly loads.
    listened = set(re.findall(r'"change:(_py2js_[A-Za-z]+)"', PLOTLY_ESM))
    assert listened and listened <= set(_MESSAGES)
    for name in _MESSAGES:
        assert f'"{name}"' in LOADER_ESM


def test_the_view_whose_answers_the_loader_defers_is_plotlys_exported_figure_view():
    # The loader moves the view's two answers to an update (the computed layout's and data's diffs)
    # after the next frame by patching plotly's exported FigureView; if a plotly upgrade renamed
    # them, the patch would quietly do nothing (the browser tests also check it took).
    assert re.search(r"export\{[^}]*\bas FigureView\b", PLOTLY_ESM)
    tail = PLOTLY_ESM[PLOTLY_ESM.index(".update(this.el"):][:200]
    for name in ("_sendTraceDeltas", "_sendLayoutDelta"):
        assert f"this.{name}(" in tail, tail
        assert f'"{name}"' in LOADER_ESM


def test_the_full_state_is_the_current_figure():
    fw = LiveFigureWidget(go.Figure(go.Scatter(x=[1], y=[1])))
    with fw.batch_update():
        fw.data[0].y = [5]
        fw.layout.title.text = "now"
    state = fw.get_state()
    assert state["_widget_data"][0]["y"] == [5] and state["_widget_layout"]["title"]["text"] == "now"


def test_the_first_picture_travels_in_the_figures_first_message(monkeypatch):
    # A model that misses anywidget's 2 s window drops every later message: its first must be the picture.
    import comm

    opened = []
    create = comm.create_comm
    monkeypatch.setattr(comm, "create_comm", lambda **kw: opened.append(kw) or create(**kw))
    fw = LiveFigureWidget(go.Figure(go.Scatter(x=[1, 2], y=[3, 4], name="n"), layout={"title": {"text": "t"}}))
    figures = [o["data"]["state"] for o in opened if "_widget_data" in o["data"]["state"]]
    assert len(figures) == 1 and fw.comm is not None
    assert figures[0]["_widget_data"][0]["y"] == [3, 4] and figures[0]["_widget_layout"]["title"]["text"] == "t"


def test_the_figures_code_stretches_anywidgets_2_s_deadline_for_the_widgets_after_it():
    # anywidget 0.11 kills a widget whose code is not initialised 2 s after its model was created
    # (measured under load: "[anywidget] Failed to initialize model." in the browser and lite stages).
    from k8sjobs.widgets.figure import ANYWIDGET_DEADLINE_JS

    assert "AbortSignal.timeout" in ANYWIDGET_DEADLINE_JS and "ms === 2000" in ANYWIDGET_DEADLINE_JS
    assert LiveFigureWidget().get_state()["_esm"].startswith(ANYWIDGET_DEADLINE_JS)
