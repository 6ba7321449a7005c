"""A figure that missed anywidget's start-up window still follows the dashboard (JupyterLab, Chromium).

anywidget 0.11 starts a 2 s wall-clock timer when a model is created (its ``Runtime``); if the
widget's module has not loaded and bound by then, the model's ``ready`` promise is rejected and
every later message from the kernel to that model is dropped: the figure would freeze at its
first picture. On a busy page (plotly's 5 MB module evaluating for many seconds, a slow laptop,
a loaded CI machine) that happened to the dashboard's helper widget in half the runs of lesson 15
with the page's CPU throttled 4x. This test makes every anywidget model miss the window (the
page's 2 s anywidget timer fires at once) and checks that the dashboard's figures still take
every step: the figures' loader (k8sjobs/widgets/figure.py, keepListening) hands the messages to
ipywidgets itself, and the figure's first message carries its first picture. anywidget may report
its own rejection as a page error; that one message, and only it, is allowed here. (A figure that
misses the window gets messages, which swallow the rejection: nothing is reported at all, so only
checking the pictures finds it.)
"""

from __future__ import annotations

from test_dashboard import EXPLORER, NB, S0, S1, S2, TIMELINE, expect_status, wait_trace_len

# anywidget's Runtime calls AbortSignal.timeout(2000); nothing else on the page asks for 2000 ms.
# Once the first figure's code has run, the loader stretches that call to 60000 ms
# (figure.py: ANYWIDGET_DEADLINE_JS, which wraps this wrapper): both are cut to 0 here, so every
# figure misses its window, the first and the ones created after it.
MISS_THE_WINDOW = """(() => {
    const timeout = AbortSignal.timeout.bind(AbortSignal);
    window.__k8sjobsWindows = 0;
    AbortSignal.timeout = (ms) => (ms === 2000 || ms === 60000
                                   ? (window.__k8sjobsWindows += 1, timeout(0)) : timeout(ms));
})();"""
ANYWIDGET_TIMEOUT = "pageerror: Error: [anywidget] Failed to initialize model."
COUNTS = ".k8sjobs-view-counts"


def test_figures_whose_anywidget_start_up_timed_out_still_follow_every_step(lab, probe):
    probe.page.add_init_script(MISS_THE_WINDOW)
    nb = lab.open_notebook(probe, NB)
    run = nb.run_all()
    assert run.ok, run.errors
    expect_status(probe, S0)
    wait_trace_len(probe, "reconcile cycles", 0)
    assert probe.page.evaluate("window.__k8sjobsWindows") >= 1, "anywidget's window was shortened"
    windows_before_counts = probe.page.evaluate("window.__k8sjobsWindows")

    probe.click_button("Step")
    expect_status(probe, S1)
    wait_trace_len(probe, "reconcile cycles", 1)  # the timeline took the step
    wait_trace_len(probe, "pending", 3, axis="y")

    # a second figure, built now (another tab), missed its window too and follows the next step
    probe.page.get_by_role("tab", name="Counts").click()
    probe.page.locator(f"{COUNTS} .js-plotly-plot").wait_for()
    wait_trace_len(probe, "active", 1, root=COUNTS)
    assert probe.page.evaluate("window.__k8sjobsWindows") > windows_before_counts, "the Counts figure missed it too"
    probe.click_button("Step")
    expect_status(probe, S2)
    wait_trace_len(probe, "active", 2, root=COUNTS)
    probe.page.get_by_role("tab", name="Timeline").click()
    wait_trace_len(probe, "reconcile cycles", 2, root=TIMELINE)

    assert probe.count(f"{EXPLORER} .js-plotly-plot") == 2
    assert set(probe.problems()) <= {ANYWIDGET_TIMEOUT}, probe.problems()
    assert nb.settled_kernel_status() == "idle"
