"""The lessons as a learner opens them: the start page and one lesson, in JupyterLab and in Voila.

Runs every cell of notebooks/en/00-start-here.ipynb, clicks Step on its dashboard and checks
the status line moved on (the kernel wrote it); runs lesson 10, answers its first exercise in
the widget and checks the verdict, its explanation and the picture that follows it; opens the
start page as a Voila app (the second Binder badge) and steps there too. No widget error,
console error or page error may appear. Screenshots go to artifacts/browser/.
"""

from __future__ import annotations

import re

from harness import Voila

START = "notebooks/en/00-start-here.ipynb"
LESSON = "notebooks/en/10-suspend-delete-cleanup.ipynb"
STATUS = ".k8sjobs-status"
CYCLE = re.compile(r"^cycle (\d+) of (\d+) · t=")


def cycle_shown(probe) -> int:
    m = CYCLE.match(probe.text(STATUS))
    assert m, f"status line does not read 'cycle N of M · t=...': {probe.text(STATUS)!r}"
    return int(m.group(1))


def step_once(probe) -> None:
    before = cycle_shown(probe)
    probe.click_button("Step")
    probe.expect_text(STATUS, re.compile(rf"^cycle {before + 1} of \d+ · t="))


def each_figure_shows_its_view_at(probe, cycle: int) -> None:
    """The start page's two figures side by side: each draws its own view, both at ``cycle``.

    (A figure whose widget failed to initialise keeps its first picture; one drawn from another
    figure's state shows the wrong title.)
    """
    at = re.compile(rf"up to\s+cycle {cycle}\b")
    probe.expect_text(".k8sjobs-view-timeline .js-plotly-plot .gtitle", re.compile(r"^Pods of job\.batch/pi"))
    probe.expect_text(".k8sjobs-view-timeline .js-plotly-plot .gtitle", at)
    probe.expect_text(".k8sjobs-view-counts .js-plotly-plot .gtitle", re.compile(r"^Job status counts of job\.batch/pi"))
    probe.expect_text(".k8sjobs-view-counts .js-plotly-plot .gtitle", at)


def test_the_start_page_runs_and_its_dashboard_steps_in_jupyterlab(lab, probe):
    nb = lab.open_notebook(probe, START)
    run = nb.run_all(timeout=240)
    assert run.ok, run.errors
    probe.expect_text(STATUS, CYCLE)
    step_once(probe)
    each_figure_shows_its_view_at(probe, cycle_shown(probe))
    probe.shot("start-page-after-step", scroll_to=".k8sjobs-explorer")
    probe.assert_clean()


def test_a_lesson_exercise_answers_with_its_explanation_and_picture_in_jupyterlab(lab, probe):
    nb = lab.open_notebook(probe, LESSON)
    run = nb.run_all(timeout=240)
    assert run.ok, run.errors
    box = probe.page.locator(".k8sjobs-exercise").first
    box.scroll_into_view_if_needed()
    box.get_by_role("radio", name="Failed, reason DeadlineExceeded").check()
    box.get_by_role("button", name="Check").click()
    probe.expect_text(".k8sjobs-exercise-feedback", re.compile(r"^✔ Correct: Failed, reason DeadlineExceeded\."))
    feedback = probe.page.locator(".k8sjobs-exercise-feedback").first
    feedback.locator(".js-plotly-plot").first.wait_for(timeout=30_000)
    assert "The resume sync takes its decisions (step 2) before it manages the pods" in feedback.inner_text()
    width = feedback.locator(".js-plotly-plot").first.bounding_box()["width"]
    assert width > 750, f"the picture fits the output area, not plotly's default 700 px ({width:.0f} px)"
    probe.shot("lesson-exercise", scroll_to=".k8sjobs-exercise-feedback")
    probe.assert_clean()


def test_the_start_page_works_as_a_voila_app(browser):
    with Voila(START) as voila:
        probe = browser.new_page("voila-start-page")
        voila.open(probe, ready=STATUS, timeout=240)
        step_once(probe)
        each_figure_shows_its_view_at(probe, cycle_shown(probe))
        probe.shot("after-step", scroll_to=".k8sjobs-explorer")
        probe.assert_clean()
        probe.close()
