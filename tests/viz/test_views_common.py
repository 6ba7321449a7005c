"""What every view promises: it builds at every cycle, validates, is deterministic, has a title its
text twin repeats, never imports ipywidgets, and can be applied to a displayed figure in place."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap

import cron_scenarios as C
import plotly.graph_objects as go
import pytest
import viz_scenarios as S

from k8sjobs import viz
from k8sjobs.viz._common import (
    NARROW_FIGURE_PX,
    OUTCOME_STYLE,
    OUTCOMES,
    figure_title,
    join_lines,
    text_px,
    title_room,
    title_top,
)

SCENARIOS = ("backoff", "per_index", "indexed", "quota", "scale_down", "elastic", "lag")


def _cycles(trace) -> list[int]:
    n = len(trace.cycles)
    return sorted({0, 1, n // 2, n})


CASES = [(name, view) for name in SCENARIOS for view in viz.VIEWS]


@pytest.mark.parametrize(("scenario", "view"), CASES, ids=[f"{v} of {s}" for s, v in CASES])
def test_every_view_builds_validates_and_repeats_itself_at_every_cycle(scenario, view):
    trace = S.ALL[scenario]().trace
    for k in _cycles(trace):
        fig = viz.figure(view, trace, k)
        doc = json.loads(fig.to_json())
        # Rebuilding with plotly's validation changes nothing: no misspelt property anywhere.
        assert json.loads(go.Figure(fig.to_dict()).to_json()) == doc, f"{view} at cycle {k} does not validate"
        # Deterministic: the same input gives the same JSON, byte for byte.
        assert viz.figure(view, trace, k).to_json() == fig.to_json()
        assert fig.to_json() == fig.to_json()
        assert viz.text(view, trace, k) == viz.text(view, trace, k)


@pytest.mark.parametrize("view", viz.VIEWS)
def test_the_text_twin_starts_with_the_figure_title_in_words(view):
    trace = S.quota().trace
    for k in (0, 1, len(trace.cycles)):
        fig = viz.figure(view, trace, k)
        main = figure_title(fig).splitlines()[0]
        assert main and main[0].isupper(), f"{view}: the figure has no title"
        text = viz.text(view, trace, k)
        assert text.splitlines()[0] == main
        assert "<b>" not in text and "<br>" not in text, f"{view}: HTML leaked into the text twin"
        assert " object at 0x" not in text and "Decision(" not in text, f"{view}: a repr leaked into the text twin"


def test_the_subtitle_of_each_figure_is_the_second_part_of_its_text_twin():
    trace = S.backoff().trace
    k = len(trace.cycles)
    for view in viz.VIEWS:
        lines = figure_title(viz.figure(view, trace, k)).splitlines()
        if len(lines) > 1:
            assert viz.text(view, trace, k).splitlines()[1] == lines[1], view


def test_views_are_listed_in_lesson_order_and_unknown_names_are_refused():
    assert viz.VIEWS == ("timeline", "counts", "slow_start", "backoff", "deletion", "expectations", "ownership",
                         "control_loop", "events", "cluster", "schedule", "history")
    with pytest.raises(ValueError, match="unknown view 'gantt'"):
        viz.figure("gantt", S.indexed().trace, 1)


def test_a_cycle_outside_the_run_is_refused_with_the_valid_range():
    trace = S.indexed().trace
    with pytest.raises(IndexError, match=f"cycles 1 to {len(trace.cycles)}"):
        viz.figure("timeline", trace, len(trace.cycles) + 1)
    with pytest.raises(TypeError):
        viz.text("counts", trace, 1.5)


def test_the_viz_package_never_imports_ipywidgets():
    code = textwrap.dedent("""
        import sys
        sys.path.insert(0, "tests/viz")
        import viz_scenarios as S
        from k8sjobs import viz
        trace = S.indexed().trace
        for view in viz.VIEWS:
            viz.figure(view, trace, len(trace.cycles))
            viz.text(view, trace, 1)
        bad = sorted(m for m in sys.modules if m.split(".")[0] in ("ipywidgets", "anywidget", "IPython"))
        print("BAD", bad)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=S.ROOT).stdout
    assert "BAD []" in out, out


def test_outcomes_differ_in_pattern_so_they_read_in_black_and_white():
    patterns = [OUTCOME_STYLE[o].pattern for o in OUTCOMES]
    symbols = [OUTCOME_STYLE[o].symbol for o in OUTCOMES]
    assert len(set(patterns)) == len(OUTCOMES), "two outcomes share a fill pattern"
    assert len(set(symbols)) == len(OUTCOMES), "two outcomes share a marker symbol"
    assert patterns.count("") == 1, "only one outcome (running) may be a plain fill"


def test_every_timeline_bar_of_an_outcome_carries_that_outcomes_pattern():
    fig = viz.figure("timeline", S.scale_down().trace, len(S.scale_down().trace.cycles))
    bars = {tr.name: tr for tr in fig.data if tr.type == "bar"}
    assert list(bars) == list(OUTCOMES), "the legend shows every outcome, in the same order"
    for o, tr in bars.items():
        want = OUTCOME_STYLE[o].pattern
        got = tr.marker.pattern.shape if tr.marker.pattern is not None else None
        assert (got or "") == want, o


# ------------------------------------------------------------------------------ apply


def _doc(fig) -> dict:
    """The figure's JSON without trace uids, without cleared properties (null, or an emptied
    compound: {} or []), which plotly.js ignores, and without the hidden traces a widget keeps
    for a later step (viz.apply)."""
    d = json.loads(fig.to_json())
    d["layout"] = {k: v for k, v in d["layout"].items() if v not in (None, {}, [])}
    d["data"] = [{k: v for k, v in tr.items() if v not in (None, {}, []) and k != "uid"}
                 for tr in d["data"] if not viz._apply.is_hidden(tr)]
    return d


@pytest.mark.parametrize("view", viz.VIEWS)
def test_apply_turns_a_figure_into_the_next_one_in_place(view):
    trace = S.lag().trace
    target = viz.figure(view, trace, 2)
    before = list(target.data)
    new = viz.figure(view, trace, 14)
    same_shape = [t.type for t in target.data] == [t.type for t in new.data]
    out = viz.apply(target, new)
    assert out is target
    assert _doc(target) == _doc(new)
    if same_shape:
        assert all(a is b for a, b in zip(target.data, before)), "traces were replaced although they line up"


def test_apply_replaces_the_data_when_the_traces_do_not_line_up():
    trace = S.quota().trace
    target = viz.figure("events", trace, 3)
    new = viz.figure("counts", trace, 5)
    viz.apply(target, new)
    assert _doc(target) == _doc(new)
    # Properties the new figure does not set are cleared, not left behind.
    viz.apply(target, viz.figure("slow_start", trace, 0))
    assert _doc(target) == _doc(viz.figure("slow_start", trace, 0))


def test_apply_updates_a_figure_widget_inside_batch_update_without_replacing_it():
    pytest.importorskip("anywidget")
    pytest.importorskip("ipywidgets")
    trace = S.indexed().trace
    fw = go.FigureWidget(viz.figure("timeline", trace, 1))
    uids = [tr.uid for tr in fw.data]
    for k in range(2, len(trace.cycles) + 1):
        with fw.batch_update():
            viz.apply(fw, viz.figure("timeline", trace, k))
    assert [tr.uid for tr in fw.data] == uids, "the widget's traces were recreated"
    assert _doc(fw) == _doc(viz.figure("timeline", trace, len(trace.cycles)))
    # Fewer traces of the same types: the widget keeps its traces (no removal, no addition: one
    # restyle message), the ones not needed are emptied and hidden, and come back when needed.
    trace = S.quota().trace
    full = viz.figure("counts", trace, 1)
    fewer = go.Figure(full)
    fewer.data = fewer.data[3:]  # without the three asked lines
    figs = {0: fewer, 1: full}
    fw = go.FigureWidget(full)
    uids = [tr.uid for tr in fw.data]
    sent = []
    fw._send_deleteTraces_msg = lambda *a: sent.append("delete")
    fw._send_addTraces_msg = lambda *a, **k: sent.append("add")
    for k in (0, 1, 0, 1):
        with fw.batch_update():
            viz.apply(fw, figs[k])
        assert _doc(fw) == _doc(figs[k])
    assert not sent
    assert [tr.uid for tr in fw.data] == uids
    with fw.batch_update():
        viz.apply(fw, fewer)
    hidden = fw.data[len(fewer.data):]
    assert hidden and all(tr.visible is False and tr.x is None and tr.name is None for tr in hidden)
    assert viz._apply.shown(fw) == [tr.to_plotly_json() for tr in fw.data[:len(fw.data) - len(hidden)]]
    # From an empty "nothing yet" figure to a ladder of bars: the data are replaced, in the same widget.
    fw = go.FigureWidget(viz.figure("slow_start", S.quota().trace, 0))
    with fw.batch_update():
        viz.apply(fw, viz.figure("slow_start", S.quota().trace, 1))
    assert _doc(fw) == _doc(viz.figure("slow_start", S.quota().trace, 1))


@pytest.mark.parametrize("view", viz.VIEWS)
def test_a_widget_given_figure_parts_shows_at_every_step_what_the_figure_shows(view):
    """A dashboard's redraw hands apply the plain dicts (viz.figure_parts) and apply compares them
    with the dicts it gave last, not with the widget read back: the widget must still end up
    showing exactly the figure, forwards, backwards and in a half-width pane."""
    pytest.importorskip("anywidget")
    trace = S.quota().trace
    last = len(trace.cycles)
    for narrow in (False, True):
        fw = go.FigureWidget(viz.figure(view, trace, 0, narrow=narrow))
        for k in (1, 2, last, 3, 0, last // 2, last):
            with fw.batch_update():
                viz.apply(fw, viz.figure_parts(view, trace, k, narrow=narrow))
            assert _doc(fw) == _doc(viz.figure(view, trace, k, narrow=narrow)), (narrow, k)


def _steps_sent(view: str, trace, cycles, narrow: bool, fast: bool, monkeypatch) -> tuple[list, dict]:
    """The Plotly.update messages a widget sends over ``cycles`` (given parts), and its final JSON."""
    monkeypatch.setattr(viz._apply, "_FAST", fast)
    fw = go.FigureWidget(viz.figure(view, trace, 0, narrow=narrow))
    sent = []
    fw._send_update_msg = lambda **msg: sent.append(json.loads(json.dumps(msg, default=repr)))
    for k in cycles:
        with fw.batch_update():
            viz.apply(fw, viz.figure_parts(view, trace, k, narrow=narrow))
    return sent, json.loads(fw.to_json())


@pytest.mark.parametrize("view", viz.VIEWS)
def test_a_widget_sends_the_same_updates_without_plotlys_objects_as_with_them(view, monkeypatch):
    """apply edits a widget's dicts itself and sends one Plotly.update (viz._apply._send_edits):
    the messages and the widget's final state are exactly those of plotly.py's own batch_update,
    which validates every property through its objects; forwards, backwards, wide and narrow."""
    pytest.importorskip("anywidget")
    trace = C.trace("forbid") if view in viz.views_for("CronJob") else S.quota().trace
    last = len(trace.cycles)
    cycles = (1, 2, last, 3, 0, last // 2, last, last)
    for narrow in (False, True):
        slow = _steps_sent(view, trace, cycles, narrow, False, monkeypatch)
        fast = _steps_sent(view, trace, cycles, narrow, True, monkeypatch)
        assert fast == slow, (view, narrow)
        assert len(slow[0]) >= 4, "the steps must send updates, or this comparison proves nothing"


def test_the_path_without_plotlys_objects_leaves_plotlys_objects_reading_the_new_values():
    """After a step that changes the number of annotations and shapes, plotly.py's objects
    (fw.layout.annotations, a trace's line) read what the widget shows, not what they held."""
    pytest.importorskip("anywidget")
    trace = S.quota().trace
    fw = go.FigureWidget(viz.figure("counts", trace, 0))
    with fw.batch_update():
        viz.apply(fw, viz.figure_parts("counts", trace, 0))
    before = (len(fw.layout.annotations), fw.data[0].line.color)
    for k in (1, len(trace.cycles)):
        with fw.batch_update():
            viz.apply(fw, viz.figure_parts("counts", trace, k))
        fig = viz.figure("counts", trace, k)
        assert [a.text for a in fw.layout.annotations] == [a.text for a in fig.layout.annotations]
        assert [tr.line.color for tr in fw.data[:len(fig.data)]] == [tr.line.color for tr in fig.data]
    assert before != (len(fw.layout.annotations), fw.data[0].line.color), "nothing changed: no proof"


def test_figure_parts_are_the_figure_as_plain_dicts():
    trace = S.indexed().trace
    for view in viz.VIEWS:
        for narrow in (False, True):
            parts = viz.figure_parts(view, trace, 3, narrow=narrow)
            fig = viz.figure(view, trace, 3, narrow=narrow)
            assert isinstance(parts, viz.FigureParts) and isinstance(fig, go.Figure)
            assert json.loads(parts.figure().to_json()) == json.loads(fig.to_json()), (view, narrow)


def test_a_legend_click_in_the_page_survives_a_step():
    """What the page changes on its own (a learner hides a series by clicking its legend entry:
    plotly.js sets visible 'legendonly' and tells the kernel) is not undone by the next step:
    apply sends only what changed between the figures it was given."""
    pytest.importorskip("anywidget")
    trace = S.quota().trace
    fw = go.FigureWidget(viz.figure("counts", trace, 1))
    with fw.batch_update():
        viz.apply(fw, viz.figure_parts("counts", trace, 2))
    i = next(i for i, tr in enumerate(fw.data) if tr.name == "active")
    fw.data[i].visible = "legendonly"  # as plotly.py does on the page's restyle message
    with fw.batch_update():
        viz.apply(fw, viz.figure_parts("counts", trace, 3))
    assert fw.data[i].visible == "legendonly" and fw.data[i].name == "active"
    assert list(fw.data[i].x) == list(viz.figure("counts", trace, 3).data[i].x)


def _names_joined(data):
    return [{**tr, "name": join_lines(tr["name"].split("<br>"))} if "name" in tr else tr for tr in data]


@pytest.mark.parametrize("view", viz.VIEWS)
def test_a_narrow_figure_wraps_its_titles_short_and_grows_by_the_lines_it_adds(view):
    trace = S.ALL["quota"]().trace
    k = len(trace.cycles) // 2
    wide, narrow = viz.figure(view, trace, k), viz.figure(view, trace, k, narrow=True)
    main_lines = narrow.layout.title.text.split("<br>")
    sub = narrow.layout.title.subtitle.text or ""
    sub_lines = sub.split("<br>") if sub else []
    room = title_room(NARROW_FIGURE_PX)
    assert all(text_px(line, 15) <= room or " " not in line for line in main_lines)
    assert all(text_px(line, 12) <= room or " " not in line for line in sub_lines)
    # The same words, only broken differently; the data is untouched.
    assert " ".join(main_lines) == wide.layout.title.text.replace("<br>", " ")
    assert " ".join(sub_lines) == (wide.layout.title.subtitle.text or "").replace("<br>", " ")
    # Only a legend entry wider than the pane is wrapped (its name is the legend's text). The
    # ownership view places its columns in pixels of the pane and may shorten pod names there
    # (the hover keeps them whole): the same marks on the same rows, with the same hovers.
    # The events view stacks Type over Reason and From over Message in a narrow pane: the same words
    # row by row (wrapped), in fewer, taller columns.
    drop = {"x", "text"} if view == "ownership" else \
        {"cells", "header", "columnwidth"} if view in ("events", "deletion") else set()
    assert ([{k: v for k, v in tr.items() if k not in drop} for tr in _names_joined(narrow.to_dict()["data"])]
            == [{k: v for k, v in tr.items() if k not in drop} for tr in wide.to_dict()["data"]])
    if view == "events":
        def words(fig):
            cols = fig.data[0].cells.values
            return [re.sub(r"<br>|<b>|</b>|\s", "", "".join(col[i] for col in cols)) for i in range(len(cols[0]))]
        assert words(narrow) == words(wide) and len(narrow.data[0].cells.values) == 3
        return  # its height follows its rows' lines (tests/viz/test_events_layout.py)
    if view == "deletion" and wide.data:
        # four columns in a pane: #, pod, verdict and what decided (tests/viz/test_deletion_and_expectations.py)
        w, n = wide.data[0].cells.values, narrow.data[0].cells.values
        assert len(n) == 4 and list(n[0]) == list(w[0]) and list(n[2]) == list(w[-2])
        return
    # The top margin is what the narrow lines need (never below the view's own), and the plot keeps its height.
    assert narrow.layout.margin.t == max(wide.layout.meta["top"], title_top(narrow.layout.title.text, sub))
    added = narrow.layout.margin.t - wide.layout.margin.t
    legend_rows = (narrow.layout.margin.b or 0) - (wide.layout.margin.b or 0)
    # The ownership view's column titles wrap in a narrow column, and the figure grows by their lines.
    heads = (_head_lines(narrow) - _head_lines(wide)) * 16 if view == "ownership" else 0
    assert narrow.layout.height == wide.layout.height + added + legend_rows + heads


def _head_lines(fig):
    return max(a.text.count("<br>") + 1 for a in fig.layout.annotations if a.yref == "paper")


@pytest.mark.parametrize("view", ["timeline", "counts"])
def test_a_narrow_figures_legend_rows_leave_the_plot_its_height(view):
    # A half-width pane used to let plotly wrap the legend one entry per row, and the rows took the
    # plot's height (a 6-pod timeline shrank to a few pixels in lesson 15's dashboard). The rows
    # plotly draws are checked in test_views_fit.py; here the plot keeps its height at both widths.
    trace = S.ALL["quota"]().trace
    k = len(trace.cycles) // 2
    wide, narrow = viz.figure(view, trace, k), viz.figure(view, trace, k, narrow=True)
    assert narrow.layout.legend.entrywidthmode == wide.layout.legend.entrywidthmode == "pixels"
    assert narrow.layout.meta["legend_px"] > wide.layout.meta.get("legend_px", 0)

    def plot_height(fig):
        return fig.layout.height - fig.layout.margin.t - fig.layout.margin.b

    assert plot_height(narrow) == plot_height(wide)


def test_the_counts_title_of_a_busy_cycle_needs_the_narrow_wrap():
    trace = S.ALL["quota"]().trace
    wide = viz.figure("counts", trace, len(trace.cycles) // 2)
    narrow = viz.figure("counts", trace, len(trace.cycles) // 2, narrow=True)
    assert len(wide.layout.title.text) > 50 and "<br>" in narrow.layout.title.text
    assert narrow.layout.margin.t > wide.layout.margin.t


def test_each_view_says_which_kinds_of_trace_it_shows():
    from k8sjobs import viz

    assert viz.views_for("Job")[0] == "timeline"
    assert "cluster" in viz.views_for("CronJob") and "cluster" in viz.views_for("Job")
    assert "timeline" not in viz.views_for("CronJob")
    assert viz.views_for("Pod") == ()


def test_an_empty_figures_note_is_wrapped_to_a_half_width_pane():
    # "no scale-down yet: the controller has not had more active pods than it wanted" ran 66 px past a
    # 380 px pane's edge in one line (Chromium, tools/views_in_chromium.py)
    found = []
    for name in ("backoff", "quota"):
        trace = S.ALL[name]().trace
        for view in viz.VIEWS:
            for k in (0, 1):
                if trace.kind not in viz.REGISTRY[view].kinds:
                    continue
                narrow = viz.figure(view, trace, k, narrow=True)
                notes = [a for a in narrow.layout.annotations if a.name == "empty-note"]
                if notes:
                    wide = viz.figure(view, trace, k)
                    found.append((view, notes[0], next(a for a in wide.layout.annotations if a.name == "empty-note"),
                                  NARROW_FIGURE_PX - narrow.layout.margin.l - narrow.layout.margin.r))
    assert {view for view, *_ in found} >= {"slow_start", "deletion"}, [view for view, *_ in found]
    for view, note, wide_note, room in found:
        assert all(text_px(line, 13) <= room for line in note.text.split("<br>")), (view, note.text)
        assert join_lines(note.text.split("<br>")) == wide_note.text, view


def test_a_widget_remembered_from_its_parts_takes_the_next_step_without_plotlys_objects(monkeypatch):
    pytest.importorskip("anywidget")
    trace = S.quota().trace
    parts = viz.figure_parts("counts", trace, 0)
    fw = go.FigureWidget(parts.figure())
    viz.remember(fw, parts)
    fast = []
    monkeypatch.setattr(viz._apply, "_send_edits", lambda *a: fast.append(a))
    viz.apply(fw, viz.figure_parts("counts", trace, 1))
    assert len(fast) == 1, "the first step after remember took plotly.py's own path"
    with pytest.raises(ValueError, match="traces"):
        viz.remember(fw, viz.FigureParts(list(parts.data)[:-1], parts.layout))
