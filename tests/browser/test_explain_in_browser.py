"""Lesson 15 in JupyterLab: ``Explorer.from_snapshot`` opens the dashboard at a real Job's snapshot and steps.

Runs every cell of notebooks/en/15-explain-a-real-job.ipynb in a real Chromium, then drives its
dashboard (the ``shards`` snapshot, pods assumed to run 90 s): cycle 0 is the snapshot (the status
line and the timeline's title say so, with the snapshot's time), Step shows the sync ``explain``
predicts, a fault at cycle 1 forks the run from the snapshot (index 3 waits out its per-index
back-off), and Reset returns to the snapshot. No widget, console or page error may appear.
Screenshots go to artifacts/browser/.
"""

from __future__ import annotations

import re

from test_dashboard import check_bars_drawn

LESSON = "notebooks/en/15-explain-a-real-job.ipynb"
STATUS = ".k8sjobs-status"
EXPLORER = ".k8sjobs-explorer"
TIMELINE = ".k8sjobs-view-timeline"
COUNTS = ".k8sjobs-view-counts"


def wrapped(text: str) -> str:
    """A regex of ``text`` as a figure's title shows it (HTML above the figure: the browser wraps it, the
    DOM text keeps its spaces; a title inside plotly joined its lines with nothing between them)."""
    return r"\s*".join(re.escape(word) for word in text.split(" "))


SNAPSHOT_WHEN = wrapped("up to the snapshot of 2026-03-10T11:01:02Z (t=62 s)")

AT_SNAPSHOT = ("cycle 0 of 4 · t=62 s · the snapshot of 2026-03-10T11:01:02Z: the controller's next sync comes "
               "next")
CYCLE_1 = "cycle 1 of 4 · t=62 s · counted 0 succeeded and 1 failed pod: its finalizer is gone, so the counters grow"
FORKED_2 = "cycle 2 of 10 · t=63 s · waiting 9 s: the lowest pending index (3) is in its per-index backoff"


def expect_status(probe, text: str, timeout: float = 30) -> None:
    probe.expect_text(STATUS, re.compile("^" + re.escape(text) + "$"), timeout=timeout)


def timeline_title(probe) -> str:
    return probe.text(f"{TIMELINE} .k8sjobs-figure-title")


def views_settled_at(probe, when: str) -> None:
    """Both views (timeline and counts, side by side) show ``when`` (a regex), each drawn at its half's width."""
    for root in (TIMELINE, COUNTS):
        probe.expect_text(f"{root} .k8sjobs-figure-title", re.compile(when))
        probe.page.wait_for_function(
            """root => { const view = document.querySelector(root);
                         const svg = view && view.querySelector('.js-plotly-plot .main-svg');
                         if (!svg) return false;
                         const w = parseFloat(svg.getAttribute('width'));
                         return Math.abs(w - view.getBoundingClientRect().width) < 40; }""", arg=root, timeout=15_000)
    check_bars_drawn(probe)


def test_the_dashboard_opens_at_a_snapshot_and_steps_forks_and_resets_in_jupyterlab(lab, probe):
    nb = lab.open_notebook(probe, LESSON)
    run = nb.run_all(timeout=300)
    assert run.ok, run.errors
    assert "the same answer: True" in run.text() and "[create.no_pending_index]" in run.text()

    expect_status(probe, AT_SNAPSHOT)
    probe.expect_text(f"{TIMELINE} .k8sjobs-figure-title", re.compile(
        "^" + wrapped("Pods of job.batch/shards over time, up to the snapshot of 2026-03-10T11:01:02Z (t=62 s)")))
    # The snapshot's six pods are drawn from their own history before any cycle ran.
    views_settled_at(probe, SNAPSHOT_WHEN)
    assert probe.plotly_bar_count(root=TIMELINE) > 0
    probe.shot("1-snapshot", scroll_to=EXPLORER)

    probe.click_button("Step")
    expect_status(probe, CYCLE_1)
    views_settled_at(probe, wrapped("up to cycle 1 (t=62 s)"))
    probe.shot("2-step", scroll_to=EXPLORER)

    # A fault at cycle 1 forks the run from the snapshot: the failed index 3 waits out its back-off.
    probe.page.get_by_role("tab", name="Faults and actions").click()
    pod_menu = probe.page.locator(f"{EXPLORER} .k8sjobs-job-faults select").first
    pod_menu.select_option(label="shards-3-vvwvp · Running")
    probe.click_button("Fail pod")
    probe.expect_text(".k8sjobs-notice", re.compile(r"fail_pod\(name='shards-3-vvwvp', exit_code=\d+\) applied right "
                                                    r"after cycle 1: the run was forked there"))
    probe.click_button("Step")
    expect_status(probe, FORKED_2)
    views_settled_at(probe, wrapped("up to cycle 2 (t=63 s)"))
    probe.shot("3-forked", scroll_to=EXPLORER)

    probe.click_button("Reset")
    expect_status(probe, AT_SNAPSHOT)
    views_settled_at(probe, SNAPSHOT_WHEN)
    assert nb.settled_kernel_status() == "idle"
    probe.assert_clean()
    assert probe.blocked_requests == [], "JupyterLab tried to reach the internet"
