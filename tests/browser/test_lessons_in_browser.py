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


FIGURE_AT_JS = """([view, cycle]) => {
    const gd = document.querySelector(`.k8sjobs-view-${view} .js-plotly-plot`);
    const layout = gd && gd.layout;
    return !!layout && layout.meta.view === view
        && (layout.annotations || []).some((a) => a.text === `<b>cycle ${cycle}</b>`) === (cycle > 0);
}"""


def each_figure_shows_its_view_at(probe, cycle: int) -> None:
    """The start page's two figures side by side: each draws its own view, both at ``cycle``.

    (A figure whose widget failed to initialise keeps its first picture; one drawn from another
    figure's state shows the wrong title.)
    """
    at = re.compile(rf"up to\s+cycle {cycle}\b")
    probe.expect_text(".k8sjobs-view-timeline .k8sjobs-figure-title", re.compile(r"^Pods of job\.batch/pi"))
    probe.expect_text(".k8sjobs-view-timeline .k8sjobs-figure-title", at)
    probe.expect_text(".k8sjobs-view-counts .k8sjobs-figure-title", re.compile(r"^Job status counts of job\.batch/pi"))
    probe.expect_text(".k8sjobs-view-counts .k8sjobs-figure-title", at)
    # (the titles are HTML above the figures: each figure itself draws its own view, marked at the cycle)
    for view in ("timeline", "counts"):
        assert probe.wait_until(FIGURE_AT_JS, [view, cycle]), (view, cycle)


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
    # The figure is attached before plotly has sized it to its place (autosize, then the
    # responsive re-fit): wait for the width it settles at, then measure it.
    plot = feedback.locator(".js-plotly-plot").first
    probe.wait_until("el => el.getBoundingClientRect().width > 750", plot.element_handle())
    width = plot.bounding_box()["width"]
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


LESSON_01 = "notebooks/en/01-why-jobs.ipynb"


def test_a_choice_exercise_answers_by_label_and_the_answers_wait_folded_at_the_end(lab, probe):
    """Lesson 01 as a learner takes it: a wrong number, a choice by its label, then the answers."""
    nb = lab.open_notebook(probe, LESSON_01)
    run = nb.run_all(timeout=240)
    assert run.ok, run.errors
    # ex_delete: a wrong number first, then the choice exercise by its label (its key never shows).
    first, second = probe.page.locator(".k8sjobs-exercise").nth(0), probe.page.locator(".k8sjobs-exercise").nth(1)
    first.scroll_into_view_if_needed()
    first.get_by_role("textbox").fill("1")
    first.get_by_role("button", name="Check").click()
    expect_feedback = re.compile(r"^✘ Not quite: you said 1; the run gives 2\.")
    probe.expect_text(".k8sjobs-exercise-feedback", expect_feedback)
    second.scroll_into_view_if_needed()
    second.get_by_role("radio", name="it is deleted together with the Job").check()
    second.get_by_role("button", name="Check").click()
    feedback = second.locator(".k8sjobs-exercise-feedback")
    feedback.locator(".js-plotly-plot").first.wait_for(timeout=30_000)
    assert feedback.inner_text().startswith("✔ Correct: it is deleted together with the Job.")
    assert "deleted_too" not in second.inner_text(), "a learner reads labels, never keys"
    probe.shot("choice-exercise", scroll_to=second)
    # Run All ran "Checking the answers" too: each answer waits folded under its question.
    last = probe.page.locator(".jp-CodeCell").last
    last.scroll_into_view_if_needed()
    answers = last.locator(".k8sjobs-answer")
    assert answers.count() == 2, "both exercises were confirmed"
    assert not last.locator(".k8sjobs-answer-text").first.is_visible(), "folded after Run All"
    # textContent: the cell has just scrolled in and may not be drawn yet (content-visibility: auto)
    assert "The pi pod is deleted at t = 6 s" in (answers.first.text_content() or ""), "the question shows"
    probe.shot("answers-folded", scroll_to=last)
    answers.nth(1).locator("summary").click()
    last.locator(".k8sjobs-answer-text").nth(1).wait_for(state="visible", timeout=10_000)
    assert "Answer: it is deleted together with the Job." in answers.nth(1).inner_text()
    assert not last.locator(".k8sjobs-answer-text").first.is_visible(), "each answer opens on its own"
    probe.shot("answers-one-unfolded", scroll_to=last)
    probe.assert_clean()
