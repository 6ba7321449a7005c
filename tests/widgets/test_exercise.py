"""Predict, then reveal: Exercise.check / reveal for each kind, headless and through its widget."""

from __future__ import annotations

import pytest
from conftest import SAMPLE

from k8sjobs import Run
from k8sjobs.widgets import Exercise, Verdict


@pytest.fixture(scope="module")
def run() -> Run:
    return Run(SAMPLE)


def first_batch(run: Run) -> int:
    return len(run.cycle(1).created)


def test_number_checked_against_the_simulation(run):
    ex = Exercise("How many pods does the first sync create?", kind="number", run=run, answer=first_batch,
                  explanation=lambda r, e: f"min(parallelism 3, completions 5) = {e}")
    assert ex.check(3) == Verdict(True, 3, "Correct: 3.")
    assert ex.check("3") == Verdict(True, 3, "Correct: 3.")
    assert ex.check(2) == Verdict(False, 3, "Not quite: you said 2; the run gives 3.")
    assert ex.attempts == 3
    assert ex.reveal() == "Answer: 3. min(parallelism 3, completions 5) = 3"


def test_number_within_a_tolerance(run):
    ex = Exercise("When does the Job complete (s)?", kind="number", run=run, tolerance=1,
                  answer=lambda r: round(r.trace.final_job.status.completion_time),
                  explanation="Two waves of pods and one 10 s back-off.")
    assert ex.expected == 21
    assert ex.check(20) == Verdict(True, 21, "Correct: you said 20; the run gives 21 (within ±1).")
    assert ex.check(19.5).correct is False


@pytest.mark.parametrize("prediction, message", [
    (None, "Enter a number first."), ("", "Enter a number first."), ("  ", "Enter a number first."),
    ("three", "Enter a number, such as 4 or 2.5 (got 'three')."), (True, "Enter a number (got True)."),
    (float("nan"), "Enter a finite number (got nan)."),
])
def test_an_unreadable_number_reveals_nothing(prediction, message):
    built = []
    ex = Exercise("?", kind="number", run=lambda: built.append(1) or Run(SAMPLE), answer=first_batch,
                  explanation="x")
    assert ex.check(prediction) == Verdict(False, None, message, valid=False)
    assert ex.attempts == 0 and built == [], "the run is not even built for an unreadable prediction"


def test_the_run_is_built_lazily_and_once():
    built = []

    def build() -> Run:
        built.append(1)
        return Run(SAMPLE)

    ex = Exercise("?", kind="number", run=build, answer=first_batch, explanation="x")
    assert built == []
    ex.check(1)
    ex.check(3)
    ex.reveal()
    assert built == [1]


def test_choice(run):
    ex = Exercise("Which condition does the Job end with?", kind="choice",
                  choices=["Complete", "Failed", "Suspended"], run=run,
                  answer=lambda r: r.trace.final_job.status.conditions[-1].type,
                  explanation="The first pod fails once, backoffLimit is 3: it completes.")
    assert ex.check("Complete") == Verdict(True, "Complete", "Correct: Complete.")
    assert ex.check(0).correct, "an index into the choices works too"
    assert ex.check("Failed") == Verdict(False, "Complete", "Not quite: you said Failed; the run gives Complete.")
    assert ex.check("Running") == Verdict(
        False, None, "'Running' is not one of the choices: Complete, Failed, Suspended.", valid=False)


def test_order(run):
    def rule_order(r: Run) -> list[str]:
        firsts = {}
        for c in r.cycles:
            for rule in ("create.plan", "backoff.wait", "condition.complete"):
                if rule in c.rules():
                    firsts.setdefault(rule, c.index)
        return sorted(firsts, key=firsts.get)

    ex = Exercise("Order these decisions as they first happen", kind="order",
                  choices=["condition.complete", "backoff.wait", "create.plan"], run=run, answer=rule_order,
                  explanation="Create, wait out the back-off, create again, complete.")
    assert ex.expected == ["create.plan", "backoff.wait", "condition.complete"]
    assert ex.check(["create.plan", "backoff.wait", "condition.complete"]).correct
    assert ex.check("create.plan, backoff.wait, condition.complete").correct
    v = ex.check(["condition.complete", "backoff.wait", "create.plan"])
    assert v == Verdict(False, ex.expected, "Not quite: you said condition.complete → backoff.wait → create.plan; "
                                            "the run gives create.plan → backoff.wait → condition.complete. "
                                            "1 of 3 in the right place.")
    assert ex.check(["create.plan"]).valid is False


FATES = {"kept": "it keeps running", "deleted": "it is deleted with the Job", "replaced": "it is replaced"}


def test_choices_are_keys_with_labels_and_the_learner_reads_the_labels(run):
    ex = Exercise("Which condition does the Job end with?", kind="choice",
                  choices={"complete": "the Job is Complete", "failed": "the Job Failed"}, run=run,
                  answer=lambda r: r.trace.final_job.status.conditions[-1].type.lower(), explanation="x")
    assert ex.choices == ["complete", "failed"] and ex.labels["complete"] == "the Job is Complete"
    assert ex.check("complete") == Verdict(True, "complete", "Correct: the Job is Complete.")
    assert ex.check("failed") == Verdict(False, "complete", "Not quite: you said the Job Failed; the run gives "
                                                            "the Job is Complete.")
    assert ex.check("the Job is Complete").valid is False, "a label is not a key: translations compare keys"
    assert ex.reveal() == "Answer: the Job is Complete. x"
    assert ex.input.options == (("the Job is Complete", "complete"), ("the Job Failed", "failed"))
    ex.input.value = "complete"
    ex.check_button.click()
    assert "✔ Correct: the Job is Complete." in feedback_html(ex)


def test_an_order_of_keys_is_shown_as_labels(run):
    ex = Exercise("?", kind="order", choices={"b": "second", "a": "first"}, run=None, answer=["a", "b"],
                  explanation="y")
    assert ex.check(["a", "b"]).message == "Correct: first → second."
    assert ex.check("b, a").message == "Not quite: you said second → first; the run gives first → second. " \
                                       "0 of 2 in the right place."
    assert ex.prediction() == ["b", "a"], "the widget offers the keys in the order given"
    ex.input.value = "b"
    ex.down_button.click()
    assert ex.prediction() == ["a", "b"]


@pytest.mark.parametrize("choices, message", [
    ({"a": "same", "b": "same"}, "choices: the labels must be distinct"),
    ({"a": "one", 2: "two"}, "choices: the keys must be non-empty strings"),
    ({"a": "one", "b": ""}, "choices: every label must be a non-empty string"),
    ({"a": "one"}, "choices: a choice exercise needs at least two choices"),
])
def test_bad_choice_tables_are_refused(choices, message):
    with pytest.raises(ValueError, match=message):
        Exercise("?", kind="choice", choices=choices, run=None, answer="a", explanation="x")


def test_confirm_shows_the_answer_when_the_lesson_is_right(run, capsys):
    ex = Exercise("You delete the Job. What happens to its pod?", kind="choice", choices=FATES, run=run,
                  answer="deleted", explanation="The garbage collector deletes what the Job owned.")
    assert ex.confirm("deleted") is None
    assert capsys.readouterr().out == ("Answer: it is deleted with the Job. The garbage collector deletes what "
                                       "the Job owned.\n")
    number = Exercise("?", kind="number", run=run, answer=first_batch, explanation="three", tolerance=1)
    number.confirm(3)
    number.confirm(2)  # within the tolerance the exercise allows


ex_drifted = Exercise("How many pods does the first sync create?", kind="number", run=lambda: Run(SAMPLE),
                      answer=first_batch, explanation="x")


@pytest.mark.parametrize("exercise, answer, message", [
    (ex_drifted, 2, "ex_drifted ('How many pods does the first sync create?'): the lesson's answer is 2, but the "
                    "simulation computes 3"),
    (Exercise("?", kind="choice", choices=FATES, run=None, answer="kept", explanation="x", name="ex_fate"),
     "deleted", "ex_fate: the lesson's answer is 'deleted', but the simulation computes 'kept'"),
    (Exercise("?", kind="choice", choices=FATES, run=None, answer="kept", explanation="x", name="ex_fate"),
     "it keeps running", "ex_fate: the lesson's answer is 'it keeps running'"),
])
def test_confirm_fails_loudly_naming_the_exercise_when_the_answer_drifted(exercise, answer, message, capsys):
    with pytest.raises(AssertionError) as error:
        exercise.confirm(answer)
    assert str(error.value).startswith(message)
    assert capsys.readouterr().out == "", "nothing is revealed by a failed confirmation"


def test_confirm_in_a_notebook_displays_the_answer_as_html(run, monkeypatch):
    shown = []
    import IPython
    import IPython.display

    monkeypatch.setattr(IPython, "get_ipython", lambda: object())
    monkeypatch.setattr(IPython.display, "display", lambda obj, raw=False: shown.append((obj, raw)))
    ex = Exercise("Which fate?\nPick one.", kind="choice", choices=FATES, run=None, answer="replaced",
                  explanation="A <new> pod.")
    ex.confirm("replaced")
    ((bundle, raw),) = shown
    assert raw and bundle["text/plain"] == "Answer: it is replaced. A <new> pod."
    page = bundle["text/html"]
    assert page.startswith("<details") and "<summary" in page, "folded: Run All must not show it by accident"
    assert "<b>Which fate?</b>" in page and "(show the answer)" in page and "A &lt;new&gt; pod." in page


def test_text_ignores_case_and_spacing_and_accepts_alternatives(run):
    ex = Exercise("Reason of the Complete condition?", kind="text", run=run,
                  answer=lambda r: [r.trace.final_job.status.conditions[-1].reason, "completions reached"],
                  explanation="CompletionsReached since Kubernetes 1.33.")
    assert ex.check("  completionsreached ").correct
    assert ex.check("Completions   Reached").correct
    assert ex.check("BackoffLimitExceeded").message == ("Not quite: you said BackoffLimitExceeded; the run gives "
                                                        "CompletionsReached.")
    assert ex.reveal() == "Answer: CompletionsReached. CompletionsReached since Kubernetes 1.33."


@pytest.mark.parametrize("kwargs, message", [
    ({"kind": "essay", "answer": 1}, 'kind: Unsupported value: "essay": supported values: "number", "choice", '
                                     '"order", "text"'),
    ({"kind": "choice", "answer": "a", "choices": ["a"]}, "choices: a choice exercise needs at least two choices"),
    ({"kind": "choice", "answer": "c", "choices": ["a", "b"]}, "answer: 'c' is not one of the choices"),
    ({"kind": "number", "answer": "3"}, "answer: a number exercise needs a number, got '3'"),
    ({"kind": "number", "answer": 3, "tolerance": -1}, "tolerance: must be a number >= 0, got -1"),
    ({"kind": "number", "answer": first_batch, "run": None}, "run: an answer computed from the run needs a run"),
    ({"kind": "number", "answer": 3, "view": "slow_start"}, "view: a view of the run needs a run"),
])
def test_a_lesson_mistake_is_a_clear_error(kwargs, message):
    kwargs = {"run": None, "explanation": "x", **kwargs}
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Exercise("?", **kwargs)


def test_a_computed_answer_that_cannot_match_is_caught_at_check_time(run):
    ex = Exercise("?", kind="choice", choices=["a", "b"], run=run, answer=lambda r: "c", explanation="x")
    with pytest.raises(ValueError, match="answer: 'c' is not one of the choices"):
        ex.check("a")


# ---------------------------------------------------------------------------- the widget


def feedback_html(ex: Exercise) -> str:
    outs = ex.feedback.outputs
    assert all(o["output_type"] == "display_data" for o in outs), "append_display_data, never a print"
    return "".join(o["data"].get("text/html", "") for o in outs)


def test_widget_number_check_shows_the_verdict_and_the_explanation(run):
    ex = Exercise("How many pods does the first sync create?", kind="number", run=run, answer=first_batch,
                  explanation="Slow start: batches 1, 2, 4, ... up to what is wanted.")
    assert ex.check_button.description == "Check" and ex.check_button.tooltip
    ex.input.value = "2"
    ex.check_button.click()
    html = feedback_html(ex)
    assert "✘ Not quite: you said 2; the run gives 3." in html
    assert "Slow start: batches 1, 2, 4, ... up to what is wanted." in html
    assert "k8sjobs-verdict-wrong" in html
    ex.input.value = "3"
    ex.check_button.click()
    html = feedback_html(ex)
    assert "✔ Correct: 3." in html and "✘" not in html, "each check replaces the feedback"


def test_widget_invalid_input_says_what_to_enter_and_reveals_nothing(run):
    ex = Exercise("?", kind="number", run=run, answer=first_batch, explanation="secret explanation")
    ex.input.value = "many"
    ex.check_button.click()
    html = feedback_html(ex)
    assert "Enter a number, such as 4 or 2.5 (got &#x27;many&#x27;)." in html
    assert "secret explanation" not in html and "gives" not in html


def test_widget_choice_and_order_inputs(run):
    ch = Exercise("?", kind="choice", choices=["Complete", "Failed"], run=run,
                  answer=lambda r: r.trace.final_job.status.conditions[-1].type, explanation="x")
    assert ch.input.options == (("Complete", "Complete"), ("Failed", "Failed")) and ch.input.value is None
    ch.check_button.click()
    assert "Pick one of the choices first." in feedback_html(ch)
    ch.input.value = "Complete"
    ch.check_button.click()
    assert "✔ Correct: Complete." in feedback_html(ch)

    order = Exercise("?", kind="order", choices=["c", "a", "b"], run=None, answer=["a", "b", "c"], explanation="y")
    assert order.up_button.description == "Move up" and order.down_button.description == "Move down"
    order.input.value = "c"
    order.down_button.click()
    order.down_button.click()
    order.down_button.click()  # already last: nothing happens
    assert [key for _label, key in order.input.options] == ["a", "b", "c"] and order.input.value == "c"
    order.check_button.click()
    assert "✔ Correct: a → b → c." in feedback_html(order)


def test_widget_text_input(run):
    ex = Exercise("?", kind="text", run=None, answer="Complete", explanation="z")
    ex.input.value = "complete"
    ex.check_button.click()
    assert "✔ Correct: Complete." in feedback_html(ex)


def test_widget_can_show_a_view_of_the_run_after_checking(run):
    ex = Exercise("?", kind="number", run=run, answer=first_batch, explanation="x", view="slow_start",
                  view_cycle=1)
    ex.input.value = "3"
    ex.check_button.click()
    mimes = [set(o["data"]) for o in ex.feedback.outputs]
    assert any("application/vnd.jupyter.widget-view+json" in m for m in mimes), mimes


def test_widget_reports_a_broken_answer_instead_of_raising(run):
    ex = Exercise("?", kind="number", run=run, answer=lambda r: r.cycle(99), explanation="x")
    ex.input.value = "1"
    ex.check_button.click()
    assert "This exercise could not compute its answer: IndexError: cycle 99 does not exist" in feedback_html(ex)


def test_exercise_displays_as_its_widget(run):
    ex = Exercise("?", kind="number", run=run, answer=3, explanation="x")
    bundle = ex._repr_mimebundle_()
    data = bundle[0] if isinstance(bundle, tuple) else bundle
    assert data["application/vnd.jupyter.widget-view+json"]["model_id"] == ex.widget.model_id


def test_the_views_title_above_it_reads_as_the_figures_title_without_its_line_breaks(run):
    """plotly's title comes wrapped into lines (<br>) for an 800 px figure; above the figure the browser
    wraps it, and a <br> escaped as text read "&lt;br&gt;" in the middle of the title."""
    import re

    from k8sjobs import viz
    from k8sjobs.viz._common import figure_title

    ex = Exercise("?", kind="number", run=run, answer=first_batch, explanation="x", view="slow_start")
    head = ex._view_figure().children[0].value
    fig = viz.figure("slow_start", run.trace, len(run))
    assert "<br>" in fig.layout.title.text + fig.layout.title.subtitle.text, "a wrapped title"
    assert "&lt;" not in head and "<br>" not in head
    assert "\n".join(re.findall(r"<div[^>]*>(.*?)</div>", head)) == figure_title(fig)
