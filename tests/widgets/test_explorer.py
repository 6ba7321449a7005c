"""The Explorer driven headless: click its buttons, set its slider and inputs, read its widgets.

These check what the browser would show (the status text, the figures' data, the error area)
without a browser; tests/browser/test_dashboard.py checks the same in a real one.
"""

from __future__ import annotations

import ipywidgets as W
import plotly.graph_objects as go
import pytest
from conftest import SAMPLE

from k8sjobs import viz
from k8sjobs.widgets import Explorer
from k8sjobs.widgets.explorer import _LiveFigureWidget
from k8sjobs.widgets.state import BEFORE_FIRST_CYCLE


@pytest.fixture(scope="module")
def shared() -> Explorer:
    """One Explorer for the read-mostly tests (building one costs ~0.3 s once plotly is warm)."""
    return Explorer(SAMPLE, seed=0, nodes=3)


@pytest.fixture
def ex() -> Explorer:
    return Explorer(SAMPLE, seed=0, nodes=3)


def status_text(ex: Explorer) -> str:
    import html
    import re

    return html.unescape(re.sub(r"<[^>]+>", "", ex.status.value))


def trace(fw: go.FigureWidget, name: str):
    return next(t for t in fw.data if t.name == name)


def drawn(values) -> int:
    """How many points a trace's x or y draws (before the first cycle a trace holds one empty point:
    viz's NO_POINT, which keeps its legend entry)."""
    return sum(v is not None for v in values)


def walk(widget: W.Widget):
    yield widget
    for attr in ("children",):
        for child in getattr(widget, attr, ()) or ():
            yield from walk(child)


def figure_json(fig) -> list[dict]:
    """The traces a figure shows (a widget keeps hidden ones for later steps: viz.apply), without
    emptied compound properties ({}: what a property the new figure does not set is cleared to)."""
    return [{k: v for k, v in t.items() if k != "uid" and v != {}} for t in viz._apply.shown(fig)]


# ---------------------------------------------------------------------------- controls


def test_the_controls_are_there_with_exactly_these_names(shared):
    assert shared.step_button.description == "Step"
    assert shared.back_button.description == "Back"
    assert shared.reset_button.description == "Reset"
    assert isinstance(shared.play, W.Play) and isinstance(shared.slider, W.IntSlider)
    links = {(link.source[0], link.source[1], link.target[0], link.target[1]) for link in shared._links}
    assert (shared.play, "value", shared.slider, "value") in links, "Play drives the slider in the browser"
    assert (shared.speed, "value", shared.play, "interval") in links, "the speed control sets Play's interval"
    assert (shared.play_button, "value", shared.play, "playing") in links, "the labelled toggle plays/pauses"
    assert all(type(link).__name__ == "Link" for link in shared._links), "jslink (browser side): no kernel loop"
    assert "k8sjobs-status" in shared.status._dom_classes
    assert isinstance(shared.apply_button, W.Button) and shared.apply_button.description == "Apply"
    assert isinstance(shared.yaml, W.Textarea) and shared.yaml.value == SAMPLE


def test_every_control_has_a_label_and_a_tooltip(shared):
    controls = [w for w in walk(shared.root)
                if isinstance(w, (W.Button, W.ToggleButton, W.IntSlider, W.Play, W.Dropdown, W.IntText,
                                  W.FloatText, W.Textarea))]
    assert len(controls) >= 30
    for w in controls:
        assert w.tooltip, f"{type(w).__name__} {getattr(w, 'description', '')!r} has no tooltip"
        if not isinstance(w, W.Textarea):
            assert w.description, f"{type(w).__name__} with tooltip {w.tooltip!r} has no label"
    play = [w for w in controls if isinstance(w, W.Play)]
    assert play and play[0].layout.display == "none", "Play's icon-only buttons are replaced by a labelled toggle"


def test_status_line_at_start_and_after_a_step(ex):
    assert status_text(ex) == f"cycle 0 of 12 · t=0 s · {BEFORE_FIRST_CYCLE}"
    assert ex.back_button.disabled and not ex.step_button.disabled
    ex.step_button.click()
    assert ex.state.cycle == 1 and ex.slider.value == 1 and ex.play.value == 1
    assert status_text(ex) == "cycle 1 of 12 · t=0 s · creating 3 pods in slow-start batches 1, 2, 4, ..."
    assert not ex.back_button.disabled


def test_step_updates_the_same_figure_in_place(ex):
    fw = ex.figures["timeline"]
    assert isinstance(fw, _LiveFigureWidget)
    assert drawn(trace(fw, "reconcile cycles").x) == 0 and drawn(trace(fw, "pending").y) == 0
    for k in range(1, 8):
        ex.step_button.click()
        assert ex.figures["timeline"] is fw, "never replaced"
        assert ex._view_boxes["timeline"].children == (fw,), "never displayed again"
        assert drawn(trace(fw, "reconcile cycles").x) == k, "one cycle tick more per step"
        assert figure_json(fw) == figure_json(viz.outside(viz.figure_parts("timeline", ex.state.trace, k))[0].figure())
    assert len(trace(fw, "pending").y) == 6, "six pods by cycle 7 (3, then 3 after the back-off)"
    assert ex.figure_title("timeline").splitlines()[0] == "Pods of job.batch/sample over time, up to cycle 7 (t=15.161 s)"


def test_back_seek_and_reset(ex):
    for _ in range(5):
        ex.step_button.click()
    ex.back_button.click()
    assert ex.state.cycle == 4 and ex.slider.value == 4
    ex.slider.value = 9  # what dragging the slider (or Play in the browser) does
    assert ex.state.cycle == 9
    assert ex.play.value == 4, "no echo to Play: in the browser jslink already moved it (a running Play)"
    assert status_text(ex).startswith("cycle 9 of 12 · t=18.161 s · ")
    assert drawn(trace(ex.figures["timeline"], "reconcile cycles").x) == 9
    ex.reset_button.click()
    assert ex.state.cycle == 0 and ex.slider.value == 0
    assert drawn(trace(ex.figures["timeline"], "reconcile cycles").x) == 0


def test_hidden_views_are_built_when_their_tab_opens_and_redrawn_when_shown(ex):
    assert list(ex.figures) == ["timeline"], "only the visible view is built at first"
    ex.seek(3)
    ex.tabs.selected_index = ex.views.index("counts")
    counts = ex.figures["counts"]
    assert len(trace(counts, "active").x) == 3
    ex.tabs.selected_index = 0
    ex.seek(6)
    assert len(trace(counts, "active").x) == 3, "a hidden view is not redrawn on every step"
    ex.tabs.selected_index = ex.views.index("counts")
    assert ex.figures["counts"] is counts and len(trace(counts, "active").x) == 6


def test_every_view_draws_at_every_cycle(shared):
    shared.reset()
    for i, view in enumerate(shared.views):
        shared.tabs.selected_index = i
        for k in (0, 1, 5, 12):
            shared.seek(k)
            assert figure_json(shared.figures[view]) == figure_json(viz.figure(view, shared.state.trace, k))
    assert shared.error.value == ""
    shared.tabs.selected_index = 0
    shared.reset()


def test_text_twin_behind_a_toggle(ex):
    ex.seek(5)
    twin = ex._twins["timeline"]
    assert twin.layout.display == "none" and twin.value == ""
    ex._twin_toggles["timeline"].value = True
    assert twin.layout.display == "block"
    import html

    assert twin.value == f"<pre>{html.escape(viz.text('timeline', ex.state.trace, 5))}</pre>"
    ex.step()
    assert html.escape(viz.text("timeline", ex.state.trace, 6)) in twin.value


def test_why_panel_names_the_rules(ex):
    assert "Press <b>Step</b>" in ex.explanation.value
    ex.seek(5)
    for d in ex.state.current.decisions:
        assert f"<code>{d.rule}</code>" in ex.explanation.value
    assert ex.explanation.value.startswith("<p><b>Cycle 5 of 12</b>, t=5.509 s:<br>waiting 9.652 s: backoff")


def test_one_or_two_views_side_by_side_without_tabs():
    one = Explorer(SAMPLE, views="counts")
    assert one.tabs is None and list(one.figures) == ["counts"]
    two = Explorer(SAMPLE, views=["timeline", "events"], start_cycle=-1)
    assert two.tabs is None and set(two.figures) == {"timeline", "events"}
    assert status_text(two).startswith("cycle 12 of 12 · ")
    two.back()
    assert len(trace(two.figures["timeline"], "reconcile cycles").x) == 11
    # Side by side or alone, a title is HTML above its figure, wrapped by the browser to the pane's width.
    side = Explorer(SAMPLE, views=["timeline", "counts"], start_cycle=4)
    assert side.figure_title("counts") == Explorer(SAMPLE, views="counts", start_cycle=4).figure_title("counts") != ""
    assert "<br>" not in side.figures["counts"].layout.meta["k8sjobs_title"]
    with pytest.raises(ValueError, match="unknown view 'pies'; views: timeline, counts"):
        Explorer(SAMPLE, views=["pies"])
    with pytest.raises(ValueError, match="play_interval: must be a whole number of milliseconds"):
        Explorer(SAMPLE, play_interval=5)


# ---------------------------------------------------------------------------- editing


def test_bad_yaml_shows_the_api_server_phrasing_and_loses_nothing(ex):
    ex.seek(4)
    run = ex.state.run
    typed = SAMPLE.replace("parallelism: 3", "parallelism: -1")
    ex.yaml.value = typed
    ex.apply_button.click()
    assert ex.error.layout.display == "block"
    assert ex.error.value == ("The Job &quot;sample&quot; is invalid: spec.parallelism: Invalid value: -1: "
                              "must be greater than or equal to 0")
    assert ex.yaml.value == typed, "the learner's text stays in the editor"
    assert ex.state.run is run and ex.state.cycle == 4
    assert status_text(ex).startswith("cycle 4 of 12 · ")
    ex.yaml.value = "spec: [1"
    ex.apply_button.click()
    assert ex.error.value.startswith("&lt;manifest&gt;: not YAML: line 1, column 9")
    ex.revert_button.click()
    assert ex.yaml.value == SAMPLE
    ex.yaml.value = SAMPLE.replace("parallelism: 3", "parallelism: 5")
    ex.apply_button.click()
    assert ex.error.layout.display == "none" and ex.error.value == ""
    assert "applied: the Job was created again" in ex.notice.value
    ex.seek(1)
    assert status_text(ex) == "cycle 1 of 10 · t=0 s · creating 5 pods in slow-start batches 1, 2, 4, ..."
    assert len(trace(ex.figures["timeline"], "pending").y) == 5
    assert ex.notice.value == "" and ex.notice.layout.display == "none", "a notice lasts until the next change"


def test_apply_to_the_running_job_refuses_an_immutable_change(ex):
    ex.seek(3)
    ex.yaml.value = SAMPLE.replace("image: busybox", "image: alpine")
    ex.apply_edit_button.click()
    assert ex.error.value.startswith("The Job &quot;sample&quot; is invalid: spec.template: Invalid value: ")
    assert ex.error.value.endswith("field is immutable")
    assert ex.state.actions == []


# ---------------------------------------------------------------------------- faults


def test_fail_a_chosen_pod_with_an_exit_code_forks_the_run(ex):
    ex.seek(3)
    assert "Acting at a past cycle forks the run" in ex.fork_note.value
    labels = [label for label, _ in ex.pod_menu.options]
    assert len(labels) == 3 and all(label.endswith(" · Running") for label in labels)
    pod = ex.pod_menu.options[2][1]
    ex.pod_menu.value = pod
    ex.exit_code.value = 42
    ex.fail_pod_button.click()
    assert ex.error.value == ""
    assert [(a.name, dict(a.kwargs)["exit_code"], dict(a.kwargs)["name"]) for a in ex.state.actions] == [
        ("fail_pod", 42, pod)]
    assert "the run was forked there" in ex.notice.value
    assert ex.state.cycle == 3 and ex.slider.max == ex.state.n_cycles
    ex.step_button.click()
    assert ex.state.pod_phases()[pod] == "Failed"
    assert dict(ex.pod_menu.options)[f"{pod} · Failed"] == pod


def test_fault_buttons_reach_the_simulation(ex):
    ex.seek(3)
    clicks = [
        (lambda: ex.evict_pod_button.click(), "evict_pod"),
        (lambda: (setattr(ex.node_menu, "value", "node-2"), ex.lose_node_button.click()), "lose_node"),
        (lambda: ex.add_node_button.click(), "add_node"),
        (lambda: (setattr(ex.fail_creates, "value", 3), ex.fail_creates_button.click()), "fail_next_creates"),
        (lambda: (setattr(ex.quota, "value", 4), ex.quota_button.click()), "set_pod_quota"),
        (lambda: ex.remove_quota_button.click(), "set_pod_quota"),
        (lambda: (setattr(ex.lag, "value", 1.5), ex.lag_button.click()), "set_informer_lag"),
        (lambda: ex.suspend_button.click(), "suspend"),
        (lambda: ex.resume_button.click(), "resume"),
        (lambda: (setattr(ex.parallelism, "value", 2), ex.scale_button.click()), "scale"),
    ]
    for click, action in clicks:
        ex.reset()
        ex.seek(3)
        click()
        assert ex.error.value == "", (action, ex.error.value)
        assert [a.name for a in ex.state.actions] == [action]


@pytest.mark.parametrize("setup, click, message", [
    (lambda ex: setattr(ex.exit_code, "value", 300), "fail_pod_button",
     "exit_code: must be an integer between 0 and 255, got 300"),
    (lambda ex: setattr(ex.fail_creates, "value", -4), "fail_creates_button",
     "n: must be an integer between 0 and 100000, got -4"),
    (lambda ex: setattr(ex.lag, "value", -1.0), "lag_button", "seconds: must be between 0 and 3600, got -1.0"),
    (lambda ex: setattr(ex.parallelism, "value", -1), "scale_button",
     "The Job &quot;sample&quot; is invalid: spec.parallelism: Invalid value: -1: must be greater than or equal to 0"),
    (lambda ex: ex.seek(0), "fail_pod_button", "fail_pod: choose a pod first"),
])
def test_bad_values_give_a_clear_message_never_a_traceback(ex, setup, click, message):
    ex.seek(3)
    setup(ex)
    run = ex.state.run
    getattr(ex, click).click()
    assert ex.error.layout.display == "block"
    assert ex.error.value.startswith(message), ex.error.value
    assert "Traceback" not in ex.error.value
    assert ex.state.run is run and ex.state.actions == []
    ex.step_button.click()
    assert ex.error.value == "" and ex.error.layout.display == "none", "the next accepted change clears it"


def test_a_broken_view_is_reported_in_the_error_area(ex, monkeypatch):
    def boom(view, trace, cycle, narrow=False):
        raise RuntimeError("view exploded")

    monkeypatch.setattr(viz, "figure_parts", boom)  # what a redraw builds (viz.figure goes through it too)
    ex.step_button.click()
    assert ex.state.cycle == 1
    assert ex.error.value == "the timeline view could not be drawn at cycle 1: RuntimeError: view exploded"


# ---------------------------------------------------------------------------- Voila and reloaded pages


def test_a_front_end_that_connects_later_gets_the_current_figure(ex):
    """Voila builds its views after the execution pass from the full widget state: it must be current."""
    fw = ex.figures["timeline"]
    for _ in range(7):
        ex.step()
    full = fw.get_state()
    assert [len(t.get("x") or []) for t in full["_widget_data"] if t.get("name") == "reconcile cycles"] == [7]
    assert "title" not in full["_widget_layout"] and full["_widget_layout"]["showlegend"] is False
    assert full["_widget_layout"]["meta"]["k8sjobs_title"].startswith(
        "<div class='k8sjobs-figure-title'>Pods of job.batch/sample over time, up to cycle 7 (t=15.161 s)</div>")
    partial = fw.get_state(key="_widget_data")
    assert set(partial) == {"_widget_data"}


def test_display_bundle_is_the_dashboard_widget(shared):
    bundle = shared._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == shared.root.model_id


def test_in_a_big_run_the_pod_menu_is_refreshed_on_request():
    """Sending every pod's name on every step is the costly part of a step: above 100 pods, on request."""
    from k8sjobs.widgets.explorer import MENU_LIVE_LIMIT

    big = Explorer(SAMPLE.replace("completions: 5", "completions: 400").replace("parallelism: 3", "parallelism: 150")
                   .replace('        sim.k8sjobs.io/fail-attempts: "1"\n', ""), nodes=2)
    big.seek(1)
    assert len(big.pod_menu.options) == 150 > MENU_LIVE_LIMIT
    assert big.refresh_menus_button.layout.display != "none"
    assert "show cycle 1 (150 pods: refreshed on request" in big.menus_note.value
    options = big.pod_menu.options
    big.step()
    big.step()
    assert big.pod_menu.options is options, "not refreshed on a step"
    assert big.menus_note.value.startswith("The pod and node lists show cycle 1 (150 pods); press Refresh pod list")
    big.refresh_menus_button.click()
    assert "show cycle 3 " in big.menus_note.value
    assert [label.split(" · ")[1] for label, _ in big.pod_menu.options] == list(big.state.pod_phases().values())


def test_the_slider_says_so_far_while_a_lazy_forks_cycles_are_still_being_simulated():
    from test_state import WIDE

    ex = Explorer(WIDE, seed=0, nodes=2, views=["counts"])
    assert ex.slider.description == "Cycle"
    ex.seek(40)
    pod = next(n for n, phase in ex.state.pod_phases().items() if phase == "Running")
    ex.act("fail_pod", name=pod, exit_code=3)
    assert ex.error.value == "" and not ex.state.final
    assert ex.slider.description == "Cycle (so far)" and "of M+" in ex.slider.tooltip
    assert "cycle 40 of 41+" in ex.status.value and ex.slider.max == 41
    ex.step()
    assert ex.slider.value == 41 and ex.slider.max > 41, "the slider grows as the run is simulated"
    ex.seek(10_000)  # past the end: refused, after simulating the rest of the run to know its end
    assert "cycle 10000 does not exist" in ex.error.value and ex.state.final
    ex.seek(ex.state.n_cycles)
    assert ex.slider.description == "Cycle" and ex.slider.max == ex.state.n_cycles and ex.step_button.disabled


def test_the_only_anywidgets_of_a_dashboard_are_its_figures(shared):
    # anywidget 0.11 gives every model 2 s (wall clock) to load its module in the browser and drops
    # every later kernel message to a model that missed it, with the page error "[anywidget] Failed
    # to initialize model". On a busy page (plotly's module evaluates for seconds) a helper widget
    # created after the figures missed it (lite stage, lesson 15); the figures' loader does that work.
    import anywidget

    shared.figure_widget(shared.views[0])
    ours = [w for w in walk(shared.root) if isinstance(w, anywidget.AnyWidget)]
    assert ours and all(isinstance(w, _LiveFigureWidget) for w in ours), [type(w).__name__ for w in ours]


def test_every_step_keeps_the_figures_autosized_and_sends_only_what_changed():
    """A step's update never turns plotly's autosize off (it used to send autosize: null on every
    other step, after the widget had been told to clear it and set it back in one batch), and a
    step that changes nothing in a figure sends that figure nothing."""
    ex = Explorer(SAMPLE, seed=0, nodes=3, views=["timeline", "counts"])
    figs = {v: ex.figure_widget(v) for v in ("timeline", "counts")}
    sent: list[tuple[str, dict]] = []
    for view, fw in figs.items():
        fw._send_update_msg = lambda _v=view, **msg: sent.append((_v, msg["relayout_data"]))
    for move in (ex.step, ex.step, ex.back, ex.step, ex.back, ex.back):
        move()
    assert ex.error.value == "" and len(sent) == 12, (ex.error.value, [v for v, _ in sent])
    assert all(relayout.get("autosize", True) is True for _, relayout in sent), sent
    assert all(fw.layout.autosize is True for fw in figs.values())
    sent.clear()
    ex._drawn.clear()  # drawn again at the same cycle: the same figures
    ex._redraw_visible()
    assert sent == [], sent


def test_the_first_step_from_cycle_0_adds_no_traces_changes_no_frame_and_shows_cycle_1():
    """Before the first cycle the start page's views hold the traces cycle 1 draws, in the same
    order, each with an empty point (so their legends show from the start), and the same frame
    (the timeline's margin has the room of the run's pod names): the learner's first Step is one
    update per figure that changes the data, the titles and the marks, never an addition (a full
    redraw of its own in the browser) or the legend, margins or height (another layout pass)."""
    ex = Explorer(SAMPLE, seed=0, nodes=3, views=["timeline", "counts"])
    trace = ex.state.trace
    figs = {v: ex.figure_widget(v) for v in ("timeline", "counts")}
    for v in figs:
        before, after = (viz.figure_parts(v, trace, k, narrow=ex._narrow) for k in (0, 1))
        assert [(t["type"], t.get("showlegend"), t.get("legendrank")) for t in before.data] == \
            [(t["type"], t.get("showlegend"), t.get("legendrank")) for t in after.data], v
        assert [t.get("name") for t in before.data if t.get("showlegend") is not False] == \
            [t.get("name") for t in after.data if t.get("showlegend") is not False], v
    for v in figs:
        lay0, lay1 = (viz.figure_parts(v, trace, k, narrow=ex._narrow).layout for k in (0, 1))
        assert [lay0[key] for key in ("height", "margin", "legend")] == [lay1[key] for key in ("height", "margin", "legend")], v
    for v, fw in figs.items():
        assert _traces_shown(fw) == _traces_shown(_dashboard_figure(v, trace, 0, ex._narrow)), v
    sent: list[tuple[str, str]] = []
    for v, fw in figs.items():
        fw._send_addTraces_msg = lambda *a, _v=v, **k: sent.append((_v, "add"))
        fw._send_update_msg = lambda _v=v, **k: sent.append((_v, "update"))
    ex.step()
    assert sent == [("timeline", "update"), ("counts", "update")], sent
    for v, fw in figs.items():
        assert _traces_shown(fw) == _traces_shown(_dashboard_figure(v, trace, 1, ex._narrow)), v


def _dashboard_figure(view, trace, cycle, narrow):
    """The figure a dashboard draws: the view's, its title and legend beside it (viz.outside)."""
    return viz.outside(viz.figure_parts(view, trace, cycle, narrow=narrow))[0].figure()


def _traces_shown(fig) -> list[dict]:
    """The traces a figure shows (not the hidden ones a widget keeps), without uids and cleared values."""
    return [{k: v for k, v in t.items() if k != "uid" and v not in (None, {}, [])} for t in viz._apply.shown(fig)]


def test_a_view_broken_only_at_cycle_1_still_builds_the_dashboard_and_is_reported_at_that_step(monkeypatch):
    """A view that can draw cycle 0 but not cycle 1 must not stop a dashboard built at cycle 0 from
    being built (nothing draws the first Step's figure early); the Step reports it."""
    real = viz.figure_parts

    def broken_at_1(view, trace, cycle, narrow=False):
        if cycle == 1:
            raise RuntimeError("view exploded")
        return real(view, trace, cycle, narrow=narrow)

    monkeypatch.setattr(viz, "figure_parts", broken_at_1)
    ex = Explorer(SAMPLE, seed=0, nodes=3, views=["timeline", "counts"])
    assert ex.error.value == ""
    ex.step_button.click()
    assert ex.state.cycle == 1
    # both views fail to draw cycle 1; the error area shows the last one reported
    assert ex.error.value == "the counts view could not be drawn at cycle 1: RuntimeError: view exploded"


def test_a_step_sends_the_status_line_then_the_pictures_then_the_rest(monkeypatch):
    """Each widget's change is a message of its own, handled in the browser in the order sent: the
    figures come right after the status line, before the slider (whose readout lays out the whole
    page), the buttons, the explanation and the menus."""
    ex = Explorer(SAMPLE, seed=0, nodes=3, views=["timeline", "counts"])
    ex._repr_mimebundle_()
    sent: list[W.Widget] = []
    real = W.Widget._send
    monkeypatch.setattr(W.Widget, "_send", lambda self, msg, buffers=None: (sent.append(self), real(self, msg, buffers)))
    for k in (1, 2, 1, 0):
        sent.clear()
        ex.seek(k)
        figures = [i for i, w in enumerate(sent) if isinstance(w, go.FigureWidget)]
        assert sent[0] is ex.status, k
        assert figures == list(range(1, len(figures) + 1)) and len(figures) >= 2, (k, [type(w).__name__ for w in sent])
        assert ex.slider in sent[figures[-1]:], k
