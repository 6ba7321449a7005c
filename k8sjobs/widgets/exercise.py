"""Predict, then reveal: the learner commits to a prediction, the simulation answers.

An :class:`Exercise` holds a question about a run, the way to compute its answer *from
the simulation* (never typed in by hand, so lessons stay true when the model changes) and
an explanation. It works headless (tests, checked notebook cells)::

    ex = Exercise("How many pods does the first sync create?", kind="number",
                  run=lambda: Run(manifest), answer=lambda run: len(run.cycle(1).created),
                  explanation="Slow start: batches 1, 2, 4, ... up to parallelism.")
    ex.check(3)     # Verdict(correct=True, expected=3, message='Correct: 3.')
    ex.reveal()     # 'Answer: 3. Slow start: ...'
    ex.confirm(3)   # shows the answer and the explanation; AssertionError if the run says otherwise

and as a widget (display ``ex``): an input suited to the kind, a "Check" button, then the
verdict with the explanation (and, with ``view=...``, a picture of the run). Feedback is
written with ``Output.append_display_data`` (never ``with out: print()``, which nbval
records in the cell instead of the widget).

Kinds: ``"number"`` (within ``tolerance``), ``"choice"`` (one of ``choices``), ``"order"``
(``choices`` put in order), ``"text"`` (compared ignoring case and spacing; ``answer`` may
be a list of accepted answers).

Choices are stable keys with labels: ``choices={"deleted": "it is deleted with the Job", ...}``.
The learner reads the labels (they are translated with the lesson); ``answer`` returns a
key (a list of keys for ``order``) and ``check``/``confirm`` take keys, so a translated
lesson compares the same keys. A plain list still works: each item is its own key and label.

``confirm(answer)`` is for a lesson's final "Checking the answers" section: it shows the
answer and the explanation (in a notebook, folded under the question: one click opens it), and raises ``AssertionError`` naming the exercise when the
answer written in the lesson is not what the simulation computes (nbval then fails). Its
cell keeps no output in the committed notebook, so no answer is stored there.
"""

from __future__ import annotations

import html
import math
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as W

from ..i18n import _, close_gaps, join_list, join_sentences
from ..trace.run import Run

KINDS = ("number", "choice", "order", "text")


@dataclass(frozen=True, slots=True)
class Verdict:
    """The result of checking a prediction.

    ``correct``: the prediction matches. ``expected``: the answer computed from the run
    (``None`` when the prediction could not be read: then nothing is revealed).
    ``message``: one sentence for the learner. ``valid``: the prediction could be read.
    """

    correct: bool
    expected: Any
    message: str
    valid: bool = True


_ITEM_SEPARATORS = re.compile("[,，、;；]")
"""What may separate the keys of a typed order: ASCII and Chinese commas, the enumeration comma, semicolons."""


def _norm_text(value: Any) -> str:
    return " ".join(str(value).split()).casefold()


def _first_line(prompt: str) -> str:
    """The first line of a prompt (the question, shown above its answer)."""
    return prompt.strip().splitlines()[0] if prompt.strip() else prompt


def _choice_labels(kind: str, choices: Mapping[str, str] | Sequence[Any] | None) -> dict[str, str] | None:
    """``{key: label}`` for a choice or order exercise (a list gives each item as key and label)."""
    if kind not in ("choice", "order"):
        return None
    if isinstance(choices, Mapping):
        if not all(isinstance(k, str) and k for k in choices):
            raise ValueError("choices: the keys must be non-empty strings (they are compared, never shown)")
        if not all(isinstance(v, str) and v.strip() for v in choices.values()):
            raise ValueError("choices: every label must be a non-empty string (the learner reads it)")
        labels = dict(choices)
    else:
        items = list(choices or ())
        labels = {str(c): str(c) for c in items}
        if len(labels) != len(items):
            raise ValueError("choices: must be distinct")
    if len(labels) < 2:
        raise ValueError(f"choices: a {kind} exercise needs at least two choices")
    if len(set(labels.values())) != len(labels):
        raise ValueError("choices: the labels must be distinct (the learner tells them apart by their labels)")
    return labels


def _fmt(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, (list, tuple)):
        return " → ".join(str(v) for v in value)
    return str(value)


class Exercise:
    """A predict-then-reveal question about a run (see the module docstring).

    ``prompt``: the question. ``kind``: ``"number" | "choice" | "order" | "text"``.
    ``answer``: the expected value, or ``callable(run) -> value`` computed from the run.
    ``run``: a :class:`~k8sjobs.trace.Run`, or a zero-argument callable that builds one
    (called once, lazily, on the first check or reveal). ``explanation``: text, or
    ``callable(run, expected) -> str``. ``choices``: the options (``choice``) or the items
    to order (``order``), as a mapping ``{key: label}`` (a list: each item is key and label).
    ``tolerance``: how far a number may be off and still count.
    ``view`` (optional): a view name (see ``k8sjobs.viz.VIEWS``) shown after checking, at
    ``view_cycle`` (default: the last cycle). ``name`` (optional): how errors name the
    exercise (default: the variable that holds it, found when :meth:`confirm` is called).
    """

    def __init__(self, prompt: str, *, kind: str, answer: Any, run: Run | Callable[[], Run] | None,
                 explanation: str | Callable[[Run | None, Any], str],
                 choices: Mapping[str, str] | Sequence[Any] | None = None,
                 tolerance: float = 0, view: str | None = None, view_cycle: int | None = None,
                 name: str | None = None) -> None:
        if kind not in KINDS:
            raise ValueError(f'kind: Unsupported value: "{kind}": supported values: '
                             + ", ".join(f'"{k}"' for k in KINDS))
        labels = _choice_labels(kind, choices)
        if not isinstance(tolerance, (int, float)) or isinstance(tolerance, bool) or tolerance < 0:
            raise ValueError(f"tolerance: must be a number >= 0, got {tolerance!r}")
        if callable(answer) and run is None:
            raise ValueError("run: an answer computed from the run needs a run (or a callable building one)")
        if view is not None and run is None:
            # The view is drawn from the run after a check: without one, Check would fail on the learner's click.
            raise ValueError("view: a view of the run needs a run (or a callable building one)")
        self.prompt = prompt
        self.kind = kind
        self.labels: dict[str, str] | None = labels
        """The label the learner reads for each choice key (``None`` for number and text)."""
        self.choices: list[str] | None = list(labels) if labels is not None else None
        """The choice keys, in the order they are offered."""
        self.name = name
        self.tolerance = tolerance
        self._answer = answer
        self._run_source = run
        self._run: Run | None = run if isinstance(run, Run) else None
        self._explanation = explanation
        self._expected: Any = None
        self._computed = False
        self.view = view
        self.view_cycle = view_cycle
        self.attempts = 0
        self.last: Verdict | None = None
        if not callable(answer):
            self._check_answer(answer)
        self._build()

    # ------------------------------------------------------------------ the model

    @property
    def run(self) -> Run | None:
        """The run the answer is computed from (built on first use)."""
        if self._run is None and callable(self._run_source):
            run = self._run_source()
            if not isinstance(run, Run):
                raise TypeError(f"run: the callable must return a k8sjobs Run, got {type(run).__name__}")
            self._run = run
        return self._run

    @property
    def expected(self) -> Any:
        """The answer, computed from the run (once)."""
        if not self._computed:
            value = self._answer(self.run) if callable(self._answer) else self._answer
            self._check_answer(value)
            self._expected = value
            self._computed = True
        return self._expected

    def _check_answer(self, value: Any) -> None:
        """Catch a lesson whose answer cannot match any prediction (a bug in the lesson)."""
        k = self.kind
        if k == "number" and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise ValueError(f"answer: a number exercise needs a number, got {value!r}")
        if k == "choice" and str(value) not in self.labels:
            raise ValueError(f"answer: {value!r} is not one of the choices {self.choices!r}")
        if k == "order" and (not isinstance(value, (list, tuple))
                             or sorted(map(str, value)) != sorted(self.choices)):
            raise ValueError(f"answer: an order exercise needs the choices in some order, got {value!r}")
        if k == "text" and not (isinstance(value, str) or (isinstance(value, (list, tuple, set, frozenset))
                                                           and value and all(isinstance(v, str) for v in value))):
            raise ValueError(f"answer: a text exercise needs a string or a list of accepted strings, got {value!r}")

    def explanation(self) -> str:
        """The explanation (computed from the run and the answer if it is a callable)."""
        e = self._explanation
        return e(self.run, self.expected) if callable(e) else str(e)

    def _parse(self, prediction: Any) -> tuple[Any, str]:
        """(value, problem): the prediction as the kind needs it, or why it cannot be read."""
        k = self.kind
        if prediction is None or (isinstance(prediction, str) and not prediction.strip()):
            return None, {"number": _("Enter a number first."), "choice": _("Pick one of the choices first."),
                          "order": _("Put the items in order first."), "text": _("Type an answer first.")}[k]
        if k == "number":
            if isinstance(prediction, bool):
                return None, _("Enter a number (got {value!r}).").format(value=prediction)
            if isinstance(prediction, (int, float)):
                value = prediction
            else:
                try:
                    value = float(str(prediction).strip().replace(",", "."))
                except ValueError:
                    return None, _("Enter a number, such as 4 or 2.5 (got {value!r}).").format(value=str(prediction))
            if not math.isfinite(value):
                return None, _("Enter a finite number (got {value!r}).").format(value=prediction)
            return value, ""
        if k == "choice":
            if str(prediction) in self.labels:
                return str(prediction), ""
            if isinstance(prediction, int) and not isinstance(prediction, bool) and 0 <= prediction < len(self.choices):
                return self.choices[prediction], ""
            return None, _("{prediction} is not one of the choices: {choices}.").format(
                prediction=repr(str(prediction)), choices=join_list(self.choices))
        if k == "order":
            # The keys are listed with the language's separator (Chinese "、"): a learner may type it back.
            items = ([s.strip() for s in _ITEM_SEPARATORS.split(prediction)] if isinstance(prediction, str)
                     else list(prediction))
            if sorted(map(str, items)) != sorted(self.choices):
                return None, _("Use each of these exactly once: {choices}.").format(choices=join_list(self.choices))
            return [str(i) for i in items], ""
        return str(prediction), ""

    def _matches(self, value: Any, expected: Any) -> bool:
        k = self.kind
        if k == "number":
            return abs(value - expected) <= self.tolerance + 1e-9
        if k == "choice":
            return str(value) == str(expected)
        if k == "order":
            return list(value) == [str(e) for e in expected]
        accepted = [expected] if isinstance(expected, str) else list(expected)
        return _norm_text(value) in {_norm_text(a) for a in accepted}

    def check(self, prediction: Any) -> Verdict:
        """Check a prediction against the answer computed from the run.

        A prediction that cannot be read (empty, not a number, not a choice) gives
        ``Verdict(valid=False, expected=None)`` with what to enter, and reveals nothing.
        """
        value, problem = self._parse(prediction)
        if problem:
            verdict = Verdict(False, None, problem, valid=False)
            self.last = verdict
            return verdict
        expected = self.expected
        self.attempts += 1
        shown = self._shown(expected)
        if self._matches(value, expected):
            if self.kind == "number" and self.tolerance and value != expected:
                msg = _("Correct: you said {prediction}; the run gives {answer} (within ±{tolerance}).").format(
                    prediction=_fmt(value), answer=shown, tolerance=_fmt(self.tolerance))
            else:
                msg = _("Correct: {answer}.").format(answer=shown)
        else:
            sentences = [_("Not quite: you said {prediction}; the run gives {answer}").format(
                prediction=self._shown(value), answer=shown)]
            if self.kind == "order":
                right = sum(1 for a, b in zip(value, expected) if a == str(b))
                sentences.append(_("{right} of {total} in the right place").format(right=right, total=len(expected)))
            # The language's stop joins them: Chinese has no space after "。".
            msg = join_sentences(sentences, end=True)
        # A Chinese label put where the template spaces a number: no space between Chinese and Chinese.
        verdict = Verdict(self._matches(value, expected), expected, close_gaps(msg))
        self.last = verdict
        return verdict

    def _shown(self, value: Any) -> str:
        """A value as the learner reads it: labels for choice keys, the first accepted text."""
        if self.kind == "choice":
            return self.labels.get(str(value), str(value))
        if self.kind == "order":
            return _fmt([self.labels.get(str(v), str(v)) for v in value])
        if self.kind == "text" and not isinstance(value, str):
            return _fmt(sorted(value)[0])
        return _fmt(value)

    def reveal(self) -> str:
        """The answer and the explanation, as text."""
        return close_gaps(_("Answer: {answer}. {explanation}").format(answer=self._shown(self.expected),
                                                                      explanation=self.explanation()))

    def confirm(self, answer: Any) -> None:
        """Prove the lesson's answer and show it: for the final "Checking the answers" section.

        ``answer`` is what the lesson says the right answer is (a key for ``choice``, a list
        of keys for ``order``). When the simulation agrees, the answer and the explanation
        are shown (the learner who runs the cell reads them). When it does not, this raises
        ``AssertionError`` naming the exercise, so a lesson whose answer drifted from the
        model fails its notebook test instead of teaching a wrong answer.
        """
        value, problem = self._parse(answer)
        expected = self.expected
        if problem or not self._matches(value, expected):
            raise AssertionError(_("{exercise}: the lesson's answer is {given}, but the simulation computes "
                                   "{answer}").format(exercise=self._name_for_errors(), given=repr(answer),
                                                      answer=repr(expected)))
        self._display_answer()

    def _name_for_errors(self) -> str:
        if self.name:
            return self.name
        # A notebook keeps its exercises in its globals: name the variable, as the lesson does.
        frame = sys._getframe(2)
        names = [k for k, v in frame.f_globals.items() if v is self and not k.startswith("_")]
        prompt = " ".join(self.prompt.split())
        prompt = prompt if len(prompt) <= 60 else prompt[:57] + "..."
        return f"{names[0]} ({prompt!r})" if names else repr(prompt)

    def _display_answer(self) -> None:
        text = self.reveal()
        try:
            from IPython import get_ipython
            from IPython.display import display
        except ImportError:  # plain Python: the text is the whole answer
            print(text)
            return
        if get_ipython() is None:
            print(text)
            return
        # Folded under its question: Run All reaches this cell too, and the learner who has not
        # made a prediction yet should not read the answer by accident.
        show = _("(show the answer)")  # outside the f-string, where the extractor finds it
        body = (f"<details class='k8sjobs-answer' style='border-left: 4px solid #1a7f37; padding: 2px 8px; "
                f"margin: 4px 0; line-height: 1.4'><summary style='cursor: pointer'>"
                f"<b>{html.escape(_first_line(self.prompt))}</b> "
                f"<span style='color: #555'>{html.escape(show)}</span></summary>"
                f"<div class='k8sjobs-answer-text'>{html.escape(text)}</div></details>")
        display({"text/plain": text, "text/html": body}, raw=True)

    # ------------------------------------------------------------------ the widget

    def _build(self) -> None:
        # TRANSLATORS: the tooltip of the prediction input; the word in brackets is the kind of answer.
        label = {"number": _("Your prediction (number)"), "choice": _("Your prediction (choice)"),
                 "order": _("Your prediction (order)"), "text": _("Your prediction (text)")}[self.kind]
        self.prompt_html = W.HTML(f"<div class='k8sjobs-exercise-prompt'>"
                                  f"{html.escape(self.prompt).replace(chr(10), '<br>')}</div>")
        k = self.kind
        self.up_button = self.down_button = None
        if k == "number":
            self.input = W.Text(placeholder=_("a number, e.g. 4"), description=_("Prediction"),
                                description_allow_html=False, tooltip=label,
                                layout=W.Layout(width="260px"))
        elif k == "choice":
            self.input = W.RadioButtons(options=[(label, key) for key, label in self.labels.items()], value=None,
                                        description=_("Prediction"), tooltip=label,
                                        layout=W.Layout(width="auto"))
        elif k == "order":
            self.input = W.Select(options=[(label, key) for key, label in self.labels.items()], value=self.choices[0],
                                  rows=min(len(self.choices), 8), description=_("Order"),
                                  tooltip=_("First to last; select an item and move it"),
                                  layout=W.Layout(width="360px"))
            self.up_button = W.Button(description=_("Move up"), icon="arrow-up",
                                      tooltip=_("Move the selected item one place earlier"))
            self.down_button = W.Button(description=_("Move down"), icon="arrow-down",
                                        tooltip=_("Move the selected item one place later"))
            self.up_button.on_click(lambda _b: self._move(-1))
            self.down_button.on_click(lambda _b: self._move(+1))
        else:
            self.input = W.Text(placeholder=_("your answer"), description=_("Prediction"), tooltip=label,
                                layout=W.Layout(width="360px"))
        self.check_button = W.Button(description=_("Check"), button_style="primary",
                                     tooltip=_("Check your prediction against the simulation"))
        self.check_button.on_click(lambda _b: self._on_check())
        self.feedback = W.Output(layout=W.Layout(min_height="1.5em"))
        self.feedback.add_class("k8sjobs-exercise-feedback")
        controls: list[W.Widget] = [self.input]
        if self.up_button is not None:
            controls.append(W.VBox([self.up_button, self.down_button]))
        controls.append(self.check_button)
        self.widget = W.VBox([self.prompt_html, W.HBox(controls, layout=W.Layout(align_items="flex-start",
                                                                               flex_flow="row wrap")),
                              self.feedback])
        self.widget.add_class("k8sjobs-exercise")

    def _move(self, delta: int) -> None:
        opts = list(self.input.options)  # (label, key) pairs
        item = self.input.value
        if item is None:
            return
        i = [key for _label, key in opts].index(item)
        j = i + delta
        if not 0 <= j < len(opts):
            return
        opts[i], opts[j] = opts[j], opts[i]
        self.input.options = opts
        self.input.value = item

    def prediction(self) -> Any:
        """What the widget's input holds now (the order as a list for ``order``)."""
        if self.kind == "order":
            return [key for _label, key in self.input.options]
        return self.input.value

    def _on_check(self) -> Verdict:
        self.feedback.outputs = ()
        try:
            verdict = self.check(self.prediction())
        except Exception as exc:  # a lesson bug (answer or run raised): say so, never a traceback
            verdict = Verdict(False, None, _("This exercise could not compute its answer: {error}").format(
                error=f"{type(exc).__name__}: {exc}"), valid=False)
            self.last = verdict
            self._show(verdict, None)
            return verdict
        self._show(verdict, self.explanation() if verdict.valid else None)
        return verdict

    def _show(self, verdict: Verdict, explanation: str | None) -> None:
        from IPython.display import HTML

        cls = "correct" if verdict.correct else ("wrong" if verdict.valid else "invalid")
        mark = "✔" if verdict.correct else ("✘" if verdict.valid else "!")
        colour = {"correct": "#1a7f37", "wrong": "#b42318", "invalid": "#8a6d00"}[cls]
        body = (f"<div class='k8sjobs-verdict k8sjobs-verdict-{cls}' role='status' "
                f"style='border-left: 4px solid {colour}; padding: 2px 8px; line-height: 1.4'>"
                f"<b>{mark} {html.escape(verdict.message)}</b>")
        if explanation:
            body += f"\n<div class='k8sjobs-explanation-text'>{html.escape(explanation)}</div>"
        body += "</div>"
        self.feedback.append_display_data(HTML(body))
        if verdict.valid and self.view is not None:
            self.feedback.append_display_data(self._view_figure())

    def _view_figure(self) -> Any:
        from .. import viz
        from .figure import LiveFigureWidget

        run = self.run
        k = self.view_cycle if self.view_cycle is not None else len(run)
        parts = viz.figure_parts(self.view, run.trace, k)
        fig = parts.figure()
        # The title and subtitle go above the figure as text: in a narrow output area plotly
        # draws a long subtitle over the title. The figure fits its place (responsive). (The lines
        # plotly's title was wrapped into are joined again: the browser wraps the text.)
        words = viz.outside(parts)[1]
        fig.update_layout(title=None, margin={"t": 30}, autosize=True, width=None)
        fw = LiveFigureWidget(fig)
        fw._config = {**fw._config, "responsive": True, "displaylogo": False}
        head = W.HTML(f"<div style='font-weight:600'>{viz.rich(words.title)}</div>"
                      + (f"<div style='color:#444;font-size:0.9em'>{viz.rich(words.subtitle)}</div>"
                         if words.subtitle else ""))
        return W.VBox([head, fw], layout=W.Layout(width="100%"))

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.widget._repr_mimebundle_(**kwargs)


__all__ = ["KINDS", "Exercise", "Verdict"]
