"""The Explorer dashboard in a real browser: JupyterLab, Notebook 7 and Voila (headless Debian Chromium).

Each test runs tests/browser/fixtures/dashboard.ipynb (an Explorer on a 12-cycle Job), clicks
Step, uses Play, and asserts from the DOM that the status line (``.k8sjobs-status``) and the
timeline figure changed (its cycle ticks, its bars, its title), that the kernel followed (the status
text is written by the kernel), and that no widget error, console error or page error appeared.
Screenshots go to artifacts/browser/.
"""

from __future__ import annotations

import re
import time

from harness import BARS_DRAWN, JupyterLab, Voila

NB = "tests/browser/fixtures/dashboard.ipynb"
NB_CHANGED = "tests/browser/fixtures/dashboard_changed_after_display.ipynb"
STATUS = ".k8sjobs-status"
EXPLORER = ".k8sjobs-explorer"
TIMELINE = ".k8sjobs-view-timeline"

S0 = ("cycle 0 of 12 · t=0 s · before the first cycle: the Job is created; the controller has not synced it "
      "yet")
S1 = "cycle 1 of 12 · t=0 s · creating 3 pods in slow-start batches 1, 2, 4, ..."
S12 = "cycle 12 of 12 · t=22.016 s · the Job is finished: nothing left to do"
S2 = ("cycle 2 of 12 · t=1 s · nothing to change: 3 active, want 3 active: min(completions 5 - succeeded 0 = 5, "
      "parallelism 3)")
S3 = ("cycle 3 of 12 · t=3 s · nothing to change: 3 active, want 3 active: min(completions 5 - succeeded 0 = 5, "
      "parallelism 3)")
S4_FORKED = "cycle 4 of 14 · t=4 s · waiting 9 s: backoff after 1 failure (delay 10 s since the last failure at t=3 s)"
PARALLELISM_ERROR = ('The Job "sample" is invalid: spec.parallelism: Invalid value: -1: must be greater than or '
                     "equal to 0")

# Notebook 7.6.5 only: a start-up race in its shortcuts settings (jupyter/notebook #7862) throws this once
# per page load, with or without our extensions; see test_harness_smoke.py.
NOTEBOOK7_KNOWN = (r"^pageerror: TypeError: Cannot read properties of undefined \(reading 'schema'\)$",)

_TRACE_LEN_JS = """([root, name, axis]) => {
    const gd = document.querySelector(root + ' .js-plotly-plot');
    if (!gd || !gd.data) return -1;
    const t = gd.data.find(t => t.name === name);
    // points drawn: before the first cycle a trace holds one empty point (viz NO_POINT) for its legend entry
    return t && t[axis] ? Array.from(t[axis]).filter(v => v !== null && v !== undefined).length : -1;
}"""


def trace_len(probe, name: str, axis: str = "x", root: str = TIMELINE) -> int:
    """Points a named trace's x (or y) draws in the plotly graph under ``root`` (-1 if absent)."""
    return probe.page.evaluate(_TRACE_LEN_JS, [root, name, axis])


def wait_trace_len(probe, name: str, n: int, axis: str = "x", root: str = TIMELINE, timeout: float = 30) -> None:
    probe.page.wait_for_function(f"args => ({_TRACE_LEN_JS})(args) === {n}", arg=[root, name, axis],
                                 timeout=timeout * 1000)


TITLE = f"{TIMELINE} .k8sjobs-figure-title"  # above the figure, as HTML (viz.outside)


def timeline_title(probe) -> str:
    return probe.text(TITLE)


def expect_timeline_title(probe, text: str, timeout: float = 30) -> None:
    """Wait until the timeline's title reads exactly ``text``: a step that changes the set of traces
    reaches plotly as three messages (traces removed, traces added, then the layout with the title),
    so the trace data can be new while the title is still the old one."""
    probe.expect_text(TITLE, re.compile("^" + re.escape(text) + "$"), timeout=timeout)
    assert timeline_title(probe) == text


def expect_status(probe, text: str, timeout: float = 30) -> None:
    probe.expect_text(STATUS, re.compile("^" + re.escape(text) + "$"), timeout=timeout)
    assert probe.text(STATUS) == text


def check_initial(probe) -> None:
    expect_status(probe, S0)
    wait_trace_len(probe, "reconcile cycles", 0)
    assert probe.count(f"{EXPLORER} .js-plotly-plot") == 1, "only the visible view is built"
    # the title is drawn after gd.data is set (plotly draws the figure in steps): wait for it
    probe.expect_text(TITLE, "up to the start (t=0 s)")
    assert probe.plotly_bar_count(root=TIMELINE) == 0


def step_and_check(probe) -> None:
    probe.click_button("Step")
    expect_status(probe, S1)
    wait_trace_len(probe, "reconcile cycles", 1)
    wait_trace_len(probe, "pending", 3, axis="y")
    expect_timeline_title(probe, "Pods of job.batch/sample over time, up to cycle 1 (t=0 s)")
    check_bars_drawn(probe)


_VISIBLE_JS = """([root, name]) => {
    const gd = document.querySelector(root + ' .js-plotly-plot');
    const t = gd && gd.data ? gd.data.find(t => t.name === name) : null;
    return t ? String(t.visible === undefined ? true : t.visible) : 'absent';
}"""


def check_legend_click_hides_a_trace_across_steps(probe, name: str = "pending") -> None:
    """The legend the figures' loader draws below the timeline (viz.outside): a click on an entry hides its
    trace as plotly's own legend does (legendonly), the kernel keeps it so through Back and Step, and a
    second click shows it again. Leaves the dashboard at cycle 1 with every trace shown."""
    entry = probe.page.locator(f"{TIMELINE} .k8sjobs-legend-item", has_text=re.compile("^" + name + "$"))
    assert entry.count() == 1, f"one legend entry named {name!r} below the timeline"
    assert entry.get_attribute("aria-pressed") == "true"
    assert probe.page.evaluate(_VISIBLE_JS, [TIMELINE, name]) == "true"
    entry.click()
    probe.page.wait_for_function(f"args => ({_VISIBLE_JS})(args) === 'legendonly'", arg=[TIMELINE, name])
    assert entry.get_attribute("aria-pressed") == "false"
    probe.click_button("Back")
    expect_status(probe, S0)
    probe.click_button("Step")
    expect_status(probe, S1)
    expect_timeline_title(probe, "Pods of job.batch/sample over time, up to cycle 1 (t=0 s)")
    assert probe.page.evaluate(_VISIBLE_JS, [TIMELINE, name]) == "legendonly", "the kernel kept the trace hidden"
    assert entry.get_attribute("aria-pressed") == "false"
    entry.click()
    probe.page.wait_for_function(f"args => ({_VISIBLE_JS})(args) === 'true'", arg=[TIMELINE, name])
    assert entry.get_attribute("aria-pressed") == "true"


def check_bars_drawn(probe) -> int:
    """Every bar in the timeline's data is drawn (``.barlayer .point``), and there are some."""
    def in_data() -> int:
        return sum(sum(x is not None for x in t["x"] or []) for t in probe.plotly_traces(root=TIMELINE)
                   if t["type"] == "bar")

    n = in_data()
    probe.page.wait_for_function(
        "([root, css, n]) => document.querySelectorAll(root + ' .js-plotly-plot ' + css).length === n",
        arg=[TIMELINE, BARS_DRAWN, n])
    assert n > 0 and probe.plotly_bar_count(root=TIMELINE) == n == in_data()
    return n


def check_figure_fills_its_tab(probe, root: str = TIMELINE) -> None:
    """The plotly figure is as wide as its tab (it was drawn, or re-fitted, at the settled width)."""
    probe.page.wait_for_function(
        """root => { const gd = document.querySelector(root + ' .js-plotly-plot');
                     const svg = gd && gd.querySelector('.main-svg');
                     const pane = gd && gd.closest('.k8sjobs-views');
                     if (!svg || !pane) return false;
                     const w = parseFloat(svg.getAttribute('width'));
                     return Math.abs(w - pane.getBoundingClientRect().width) < 60; }""", arg=root, timeout=10_000)


def play_and_check(probe) -> list[str]:
    """Press Play / Pause; the browser's Play timer walks the slider to the end, the kernel follows."""
    probe.click_button("Play / Pause")
    seen, deadline = [], time.perf_counter() + 60
    while time.perf_counter() < deadline:
        text = probe.text(STATUS)
        if not seen or seen[-1] != text:
            seen.append(text)
        if text == S12:
            break
        time.sleep(0.05)
    assert seen[-1] == S12, seen
    cycles = {int(m[1]) for s in seen if (m := re.match(r"cycle (\d+) of 12", s))}
    assert len(cycles) >= 4, f"Play should animate through the cycles, saw only {sorted(cycles)}"
    wait_trace_len(probe, "reconcile cycles", 12)
    wait_trace_len(probe, "pending", 6, axis="y")
    check_bars_drawn(probe)
    check_figure_fills_its_tab(probe)
    # Play stops by itself at the last cycle: the toggle is released again
    probe.page.wait_for_function(
        """root => { const b = [...document.querySelectorAll(root + ' button')]
                       .find(b => b.innerText.trim() === 'Play / Pause');
                     return b && !b.classList.contains('mod-active'); }""", arg=EXPLORER)
    return seen


_FOCUSED_JS = """() => { const e = document.activeElement;
    const tab = e.closest('.lm-TabBar-tab');
    if (tab) return 'tab:' + tab.innerText.trim();
    if (e.classList.contains('noUi-handle')) {
        const w = e.closest('.widget-slider'); const l = w && w.querySelector('.widget-label');
        return 'slider:' + (l ? l.innerText.trim() : '');
    }
    if (e.tagName === 'BUTTON') return 'button:' + e.innerText.trim();
    if (e.tagName === 'SELECT' || e.tagName === 'INPUT' || e.tagName === 'TEXTAREA') {
        const w = e.closest('.widget-inline-hbox, .widget-textarea'); const l = w && w.querySelector('.widget-label');
        return e.tagName.toLowerCase() + ':' + (l ? l.innerText.trim() : '');
    }
    return e.tagName.toLowerCase();
}"""


def keyboard_walk(probe, start: str, presses: int) -> list[str]:
    """Focus the button named ``start``, then press Tab ``presses`` times: what got the focus, in order."""
    probe.button(start).first.focus()
    seen = [probe.page.evaluate(_FOCUSED_JS)]
    for _ in range(presses):
        probe.page.keyboard.press("Tab")
        seen.append(probe.page.evaluate(_FOCUSED_JS))
    return seen


_FOCUS_LOG_JS = """() => { window.__k8sjobsFocusLog = [];
    document.addEventListener('focusin', (e) => window.__k8sjobsFocusLog.push(
        e.target.tagName + (e.target.classList.contains('jp-Notebook') ? '.jp-Notebook' : '')), true); }"""


def check_clicks_keep_the_focus(probe) -> None:
    """A click on a dashboard's button keeps the focus on the button (figure.py: QUIET_CLICKS_JS):
    JupyterLab's notebook does not take it first (when nothing had the focus, its mouse-down handler
    focused the notebook and the cell before the button took it: each move restyled the whole
    notebook). From cycle 1 to 2 and back; then Back from the keyboard to cycle 0, which disables
    Back: the focus goes to Step (a disabled button drops it to the page) and Enter steps again."""
    probe.page.evaluate(_FOCUS_LOG_JS)
    for name, status in (("Step", S2), ("Back", S1)):
        # nothing focused, as after Back reaches cycle 0 (a disabled button loses the focus)
        probe.page.evaluate("() => { document.activeElement?.blur(); window.__k8sjobsFocusLog.length = 0; }")
        probe.click_button(name)
        expect_status(probe, status)
        assert probe.page.evaluate(_FOCUSED_JS) == f"button:{name}"
        moves = probe.page.evaluate("() => window.__k8sjobsFocusLog")
        assert set(moves) <= {"BUTTON"}, f"the focus went elsewhere during the click on {name}: {moves}"
    # Back from the keyboard to cycle 0 disables Back: the focus goes to Step, not to the page
    probe.button("Back").first.focus()
    probe.page.keyboard.press("Enter")
    expect_status(probe, S0)
    probe.page.wait_for_function("() => document.activeElement?.classList.contains('k8sjobs-step')", timeout=5000)
    probe.page.keyboard.press("Enter")
    expect_status(probe, S1)


def check_keyboard(probe) -> None:
    """Every control is reachable with Tab, in reading order, and Step works from the keyboard."""
    walk = keyboard_walk(probe, "Step", 70)
    expected = ["button:Step", "button:Play / Pause", "button:Reset", "slider:ms per cycle", "slider:Cycle",
                "tab:Timeline", "button:Text version: Timeline", "tab:Faults and actions", "select:Pod",
                "input:Exit code", "button:Fail pod", "button:Evict pod", "button:Delete pod", "select:Node",
                "button:Lose node", "button:Add node", "input:Creations", "button:Fail next creations",
                "input:Pod quota", "button:Set pod quota", "button:Remove quota", "input:Informer lag (s)",
                "button:Set informer lag", "button:Suspend", "button:Resume", "input:Parallelism", "button:Scale"]
    positions = [walk.index(e) if e in walk else -1 for e in expected]
    missing = [e for e, i in zip(expected, positions) if i < 0]
    assert not missing, f"not reachable with Tab: {missing}\nwalk: {walk}"
    assert positions == sorted(positions), f"Tab order differs from reading order: {walk}"
    # A tab bar is one stop (arrow keys move between its tabs): open the YAML tab from the keyboard.
    probe.page.get_by_role("tab", name="Faults and actions").focus()
    probe.page.keyboard.press("ArrowRight")
    probe.page.keyboard.press("Enter")
    probe.page.locator(f"{EXPLORER} .k8sjobs-yaml textarea").wait_for()
    walk = keyboard_walk(probe, "Text version: Timeline", 8)
    expected = ["tab:", "textarea", "button:Apply", "button:Apply to the running Job", "button:Revert text"]
    positions = [next((i for i, w in enumerate(walk) if w.startswith(e)), -1) for e in expected]
    assert -1 not in positions and positions == sorted(positions), f"editing not reachable in order: {walk}"
    probe.page.get_by_role("tab", name="Faults and actions").click()
    probe.button("Step").first.focus()
    probe.page.keyboard.press("Enter")
    expect_status(probe, S1.replace("cycle 1", "cycle 2").split(" · ")[0] + " · t=1 s · nothing to change: 3 active, "
                  "want 3 active: min(completions 5 - succeeded 0 = 5, parallelism 3)")
    probe.page.keyboard.press("Space")
    expect_status(probe, S3)
    probe.button("Back").first.focus()
    probe.page.keyboard.press("Enter")
    probe.page.keyboard.press("Enter")
    expect_status(probe, S1)


def check_exercise(probe) -> None:
    """The Exercise under the dashboard: a wrong then a right prediction, each verdict with its explanation."""
    box = probe.page.locator(".k8sjobs-exercise").first
    box.scroll_into_view_if_needed()
    field = box.get_by_role("textbox")
    field.fill("2")
    field.press("Enter")
    box.get_by_role("button", name="Check").click()
    probe.expect_text(".k8sjobs-exercise-feedback", "✘ Not quite: you said 2; the run gives 3.")
    assert "Slow start: batches 1 and 2" in probe.text(".k8sjobs-exercise-feedback")
    field.fill("3")
    field.press("Enter")
    box.get_by_role("button", name="Check").click()
    probe.expect_text(".k8sjobs-exercise-feedback", re.compile(r"^✔ Correct: 3\.\s*Slow start"))
    probe.shot("exercise", scroll_to=".k8sjobs-exercise")


def test_dashboard_lab(lab, probe):
    nb = lab.open_notebook(probe, NB)
    run = nb.run_all()
    assert run.ok, run.errors
    assert f"kernel: {S0}" in run.text()
    check_initial(probe)
    probe.shot("1-rendered", scroll_to=EXPLORER)
    step_and_check(probe)
    probe.shot("2-step", scroll_to=EXPLORER)
    # the figures' loader found plotly's view and moved its answers to an update after the paint
    assert probe.page.evaluate("() => globalThis.__k8sjobsPlotly?.deltasDeferred === true")
    check_legend_click_hides_a_trace_across_steps(probe)
    check_clicks_keep_the_focus(probe)
    check_keyboard(probe)
    play_and_check(probe)
    probe.shot("3-played", scroll_to=EXPLORER)
    probe.click_button("Back")
    expect_status(probe, "cycle 11 of 12 · t=21.016 s · condition Complete (CompletionsReached): Reached expected "
                         "number of succeeded pods")

    # a fault at a past cycle forks the run
    probe.click_button("Reset")
    expect_status(probe, S0)
    for _ in range(3):
        probe.click_button("Step")
    expect_status(probe, S3)
    # the Job's faults (a CronJob's, hidden here, have a pod menu and an exit code of their own)
    job_faults = probe.page.locator(f"{EXPLORER} .k8sjobs-job-faults")
    job_faults.locator("select").first.select_option(index=1)
    exit_code = job_faults.get_by_label("Exit code")
    exit_code.fill("42")
    exit_code.press("Enter")
    probe.click_button("Fail pod")
    probe.expect_text(".k8sjobs-notice", re.compile(r"fail_pod\(name='sample-\w+', exit_code=42\) applied right "
                                                    r"after cycle 3: the run was forked there"))
    expect_status(probe, S3.replace("of 12", "of 14"))
    probe.click_button("Step")
    expect_status(probe, S4_FORKED)
    probe.shot("4-fault", scroll_to=".k8sjobs-faults")

    # bad YAML: the API server's words, nothing lost
    probe.page.get_by_role("tab", name="Edit the Job (YAML)").click()
    area = probe.page.locator(f"{EXPLORER} .k8sjobs-yaml textarea")
    area.fill(area.input_value().replace("parallelism: 3", "parallelism: -1"))
    area.blur()
    probe.click_button(re.compile("^Apply$"))
    probe.expect_text(".k8sjobs-error", PARALLELISM_ERROR)
    assert probe.text(".k8sjobs-error") == PARALLELISM_ERROR
    assert "parallelism: -1" in area.input_value(), "the learner's text stays"
    assert probe.text(STATUS) == S4_FORKED, "the run is kept"
    probe.shot("5-yaml-error", scroll_to=".k8sjobs-error")

    # another view, and a text twin
    probe.page.get_by_role("tab", name="Counts").click()
    probe.page.locator(".k8sjobs-view-counts .js-plotly-plot").wait_for()
    wait_trace_len(probe, "active", 4, root=".k8sjobs-view-counts")
    probe.click_button("Text version: Counts")
    probe.expect_text(".k8sjobs-view-counts .k8sjobs-twin pre", "Job status counts of job.batch/sample")
    check_figure_fills_its_tab(probe, ".k8sjobs-view-counts")
    probe.shot("6-counts-and-text", scroll_to=".k8sjobs-view-counts")

    check_exercise(probe)
    assert nb.settled_kernel_status() == "idle"
    probe.assert_clean()
    assert probe.blocked_requests == [], "JupyterLab tried to reach the internet"


def test_a_100000_pod_job_typed_into_the_yaml_tab_is_refused_and_the_run_still_steps(lab, probe):
    nb = lab.open_notebook(probe, NB)
    run = nb.run_all()
    assert run.ok, run.errors
    expect_status(probe, S0)
    probe.click_button("Step")
    expect_status(probe, S1)
    probe.click_button("Step")
    expect_status(probe, S2)

    probe.page.get_by_role("tab", name="Edit the Job (YAML)").click()
    area = probe.page.locator(f"{EXPLORER} .k8sjobs-yaml textarea")
    huge = area.input_value().replace("completions: 5", "completions: 1000000").replace(
        "parallelism: 3", "parallelism: 100000")
    assert "completions: 1000000" in huge and "parallelism: 100000" in huge
    area.fill(huge)
    area.blur()
    started = time.perf_counter()
    probe.click_button(re.compile("^Apply$"))
    probe.expect_text(".k8sjobs-error", re.compile(r"^Not applied: the run of this Job would stop at a limit of the "
                                                   r"dashboard after cycle \d+ "), timeout=120)
    refused_after = time.perf_counter() - started
    message = probe.text(".k8sjobs-error")
    # The message names the limit, its value and how to raise it, in the dashboard's own words (its keyword,
    # not the command line's option: issue 21).
    assert re.search(r"it created \d+ pods, more than its limit of 5000 \(max_pods\)", message), message
    assert "Your current run and YAML are kept." in message, message
    assert "Explorer(..., max_pods=10000)" in message and "--max-pods" not in message, message
    # Nothing is lost: the learner's YAML, the run shown and the cycle shown.
    assert area.input_value() == huge, "the learner's YAML stays"
    assert probe.text(STATUS) == S2, "the run shown is kept"
    assert nb.settled_kernel_status() == "idle", "the kernel survived and is free"
    probe.shot("too-big-refused", scroll_to=".k8sjobs-error")

    # The old run still steps, forward and back, and its figure follows.
    probe.click_button("Step")
    expect_status(probe, S3)
    wait_trace_len(probe, "reconcile cycles", 3)
    probe.click_button("Back")
    expect_status(probe, S2)
    wait_trace_len(probe, "reconcile cycles", 2)
    # Revert brings back the YAML of the run shown (the one that was kept).
    probe.click_button("Revert text")
    probe.page.wait_for_function(
        "sel => { const a = document.querySelector(sel); return a && a.value.includes('completions: 5'); }",
        arg=f"{EXPLORER} .k8sjobs-yaml textarea")
    assert "parallelism: 3" in area.input_value()
    probe.shot("too-big-still-steps", scroll_to=EXPLORER)
    print(f"refusal shown {refused_after:.1f} s after the click")
    assert nb.settled_kernel_status() == "idle"
    probe.assert_clean()


def test_notebook7(browser):
    with JupyterLab(app="notebook") as server:
        probe = browser.new_page("test_dashboard_notebook7")
        try:
            nb = server.open_notebook(probe, NB)
            run = nb.run_all()
            assert run.ok, run.errors
            check_initial(probe)
            step_and_check(probe)
            probe.shot("1-step", scroll_to=EXPLORER)
            play_and_check(probe)
            probe.shot("2-played", scroll_to=EXPLORER)
            probe.assert_clean(NOTEBOOK7_KNOWN)
            assert probe.blocked_requests == []
        except BaseException:
            probe.shot("failure")
            raise
        finally:
            probe.close()


def _voila_blocked_ok(probe) -> None:
    # Voila's template asks a CDN for FontAwesome; offline that is blocked (icons only)
    assert {re.sub(r"^https?://([^/]+)/.*", r"\1", u) for u in probe.blocked_requests} <= {"cdn.jsdelivr.net"}


def test_voila(browser):
    with Voila(NB) as voila:
        probe = browser.new_page("test_dashboard_voila")
        try:
            voila.open(probe, ready=STATUS)
            check_initial(probe)
            probe.shot("1-rendered")
            step_and_check(probe)
            probe.shot("2-step")
            play_and_check(probe)
            probe.shot("3-played")
            probe.page.get_by_role("tab", name="Back-off").click()
            probe.page.locator(".k8sjobs-view-backoff .js-plotly-plot").wait_for()
            check_figure_fills_its_tab(probe, ".k8sjobs-view-backoff")
            probe.shot("4-backoff")
            check_exercise(probe)
            probe.assert_clean()
            _voila_blocked_ok(probe)
        except BaseException:
            probe.shot("failure")
            raise
        finally:
            probe.close()


def test_voila_shows_changes_made_after_display(browser):
    """A cell after the display moves the Explorer to cycle 5: Voila must show cycle 5, not cycle 0."""
    with Voila(NB_CHANGED) as voila:
        probe = browser.new_page("test_dashboard_voila_changed")
        try:
            voila.open(probe, ready=STATUS)
            expect_status(probe, "cycle 5 of 12 · t=5.509 s · waiting 9.652 s: backoff after 1 failure "
                                 "(delay 10 s since the last failure at t=5.161 s)")
            wait_trace_len(probe, "reconcile cycles", 5)
            expect_timeline_title(probe, "Pods of job.batch/sample over time, up to cycle 5 (t=5.509 s)")
            probe.shot("1-rendered")
            probe.click_button("Step")
            wait_trace_len(probe, "reconcile cycles", 6)
            probe.assert_clean()
            _voila_blocked_ok(probe)
        except BaseException:
            probe.shot("failure")
            raise
        finally:
            probe.close()
