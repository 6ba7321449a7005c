"""Every lesson has the same shape, and no committed notebook gives an answer away.

The shape, in this order (DEVELOPERS.md, "Lessons"):

1. the title ``# NN · ...`` (NN from the file name; the start page is ``# 00 · Start here: ...``);
2. a paragraph that starts with ``**You will learn:**``, before any other heading;
3. ``## Why`` as the first section;
4. the lesson's own sections (at least one);
5. ``## Summary``, ``## Words``, ``## Further reading`` and ``## Checking the answers``, in
   this order, as the last four sections.

And:

* "Further reading" links exact sections of the Kubernetes documentation:
  ``https://kubernetes.io/docs/...#anchor`` (and the ``https://kubernetes.io/zh-cn/docs/...``
  page where one exists). Every English docs link there names a section (``#anchor``).
* No ``.check(``, ``.confirm(`` or ``.reveal(`` call before "Checking the answers"; in that
  section every exercise the lesson builds is confirmed with ``.confirm(``, and ``.check(`` /
  ``.reveal(`` are not used at all (their output would be an answer).
* No committed output holds a verdict or an answer (``Verdict(``, ``Answer:``, ``Correct:``,
  ``Not quite:``), and the cells of "Checking the answers" keep no output at all.
* From the first exercise on, no stored output is shown before its cell runs: no code cell after
  the first one that builds an ``Exercise`` has outputs in the notebook (a stored output right
  under an exercise would state its answer; a collapsed one is previewed by its first line). Their
  checked outputs are kept in ``metadata.k8sjobs.outputs``, which nbval compares (the checkout's
  ``conftest.py``) and the verdict check above reads too.
* The first code cell calls ``set_language("<the lesson's language>")``.

The start page (00) follows the same shape: its "Words" section is the course glossary, and its
own sections are the tour of the dashboard and the map of the lessons.

Translated lessons (``notebooks/zh-CN``, ``zh-TW``, ``ru``) have the same shape with the headings
of their language (``HEADINGS``; the zh-TW ones are what the zh-TW generator makes of the zh-CN
ones).
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import jupytext
import nbformat
import pytest

from tools import translations

ROOT = Path(__file__).resolve().parents[1]
EN = ROOT / "notebooks" / "en"

# Every lesson has the shape (each one was converted in its own commit; a new lesson is checked
# from the moment it exists).
LESSON_STEMS = sorted(p.stem for p in EN.glob("[0-9][0-9]-*.ipynb"))

FINAL_SECTIONS = ["Summary", "Words", "Further reading", "Checking the answers"]


def _headings(learn: str, why: str, final: list[str]) -> dict:
    return {"learn": learn, "why": why, "final": final}


# The markers of the shape, per language (l10n conventions, "Headings and markers"). zh-TW: the
# zh-CN ones through the converter that generates the zh-TW lessons, never typed by hand.
HEADINGS = {
    "en": _headings("**You will learn:**", "Why", FINAL_SECTIONS),
    "zh-CN": _headings("**你将学到**：", "为什么", ["小结", "术语", "延伸阅读", "核对答案"]),
    "ru": _headings("**Вы узнаете:**", "Зачем это нужно", ["Итоги", "Термины", "Что почитать", "Проверка ответов"]),
}
HEADINGS["zh-TW"] = {k: (translations.convert_text(v) if isinstance(v, str)
                         else [translations.convert_text(x) for x in v])
                     for k, v in HEADINGS["zh-CN"].items()}
ANSWER_CALLS = (".check(", ".confirm(", ".reveal(")
LEAK = re.compile(r"Verdict\(|\bAnswer: |\bCorrect: |\bNot quite: ")
DOCS_LINK = re.compile(r"https://kubernetes\.io/(?:(?P<lang>zh-cn)/)?docs/[^\s)>\]]*")


# ----------------------------------------------------------------------------- the checker


def _atx_headings(markdown: str) -> list[tuple[int, str]]:
    """(level, title) of every ATX heading outside fenced code blocks."""
    out, fence = [], None
    for line in markdown.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            mark = stripped[:3]
            fence = None if fence == mark else (fence or mark)
            continue
        if fence is None:
            m = re.match(r"(#{1,6}) +(.*?)\s*$", line)
            if m:
                out.append((len(m.group(1)), m.group(2)))
    return out


def _source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _output_text(cell: dict) -> str:
    """The text of a cell's stored outputs, those kept out of sight (metadata.k8sjobs.outputs) too."""
    parts = []
    kept = cell.get("metadata", {}).get("k8sjobs", {}).get("outputs", [])
    for out in [*cell.get("outputs", []), *kept]:
        text = out.get("text", "")
        parts.append("".join(text) if isinstance(text, list) else text)
        for value in out.get("data", {}).values():
            parts.append("".join(value) if isinstance(value, list) else json.dumps(value))
    return "\n".join(parts)


def _calls(code: str) -> list[str]:
    """The answer-giving calls in a code cell (comments and strings ignored)."""
    clean = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith(("%", "!")))
    try:
        tree = ast.parse(clean)
    except SyntaxError:
        return [c for c in ANSWER_CALLS if c in code]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and f".{node.func.attr}(" in ANSWER_CALLS:
            found.append(f".{node.func.attr}(")
    return found


def _exercise_names(code: str) -> set[str]:
    """Names bound to ``Exercise(...)`` in a code cell."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    names = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name) and node.value.func.id == "Exercise"):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def _confirmed_names(code: str) -> set[str]:
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return set()
    return {node.func.value.id for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "confirm"
            and isinstance(node.func.value, ast.Name)}


def _first_line(cell: dict) -> str:
    lines = [line for line in _source(cell).splitlines() if line.strip() and not line.startswith("# NBVAL")]
    return lines[0] if lines else ""


def shape_problems(nb: dict, *, number: str, language: str = "en") -> list[str]:
    """Everything that keeps notebook ``nb`` (lesson ``number``, e.g. "03") from the shared shape."""
    problems: list[str] = []
    marks = HEADINGS[language]
    learn, why, final = marks["learn"], marks["why"], marks["final"]
    checking, reading_title = final[3], final[2]
    cells = nb["cells"]
    # Where each cell sits: the "## " section it belongs to ("" before the first one).
    section, sections, h2_order, title, learn_ok = "", [], [], None, False
    for cell in cells:
        if cell["cell_type"] == "markdown":
            text = _source(cell)
            for level, heading in _atx_headings(text):
                if level == 1 and title is None:
                    title = heading
                elif level == 2:
                    section = heading
                    h2_order.append(heading)
            if title is not None and not h2_order and re.search(rf"^{re.escape(learn)} ?\S", text, re.M):
                learn_ok = True
        sections.append(section)

    if title is None or not re.fullmatch(rf"{number} · \S.*", title):
        problems.append(f"the title must be '# {number} · ...', found {title!r}")
    if not learn_ok:
        problems.append(f"no '{learn}' paragraph between the title and the first section")
    if not h2_order or h2_order[0] != why:
        problems.append(f"the first section must be '## {why}', found {h2_order[:1]}")
    if h2_order[-4:] != final:
        problems.append(f"the last sections must be {final}, found {h2_order[-4:]}")
    if len(h2_order) < 6:
        problems.append(f"no section of the lesson's own between '## {why}' and '## {final[0]}'")
    for heading in [why, *final]:
        if h2_order.count(heading) > 1:
            problems.append(f"'## {heading}' appears {h2_order.count(heading)} times")

    reading = "\n".join(_source(c) for c, s in zip(cells, sections)
                        if c["cell_type"] == "markdown" and s == reading_title)
    links = [m for m in DOCS_LINK.finditer(reading)]
    english = [m.group(0) for m in links if not m.group("lang")]
    if not english:
        problems.append(f"'{reading_title}' links no section of https://kubernetes.io/docs/")
    for link in english:
        if "#" not in link:
            problems.append(f"'{reading_title}' links a whole page, not a section (#anchor): {link}")

    code_cells = [(c, s) for c, s in zip(cells, sections) if c["cell_type"] == "code"]
    if not code_cells or f'set_language("{language}")' not in _source(code_cells[0][0]):
        problems.append(f'the first code cell does not call set_language("{language}")')
    built, confirmed = set(), set()
    for cell, where in code_cells:
        code = _source(cell)
        if built and where != checking and cell.get("outputs"):
            problems.append(f"a code cell in section {where!r}, after the first exercise, shows a stored output "
                            f"before it runs: {_first_line(cell)!r} (tools/build_lessons.py keeps it in "
                            "metadata.k8sjobs.outputs)")
        built |= _exercise_names(code)
        calls = _calls(code)
        if where != checking and calls:
            problems.append(f"section {where!r} calls {calls[0]}: answers belong in '{checking}'")
        if where == checking:
            confirmed |= _confirmed_names(code)
            for call in calls:
                if call != ".confirm(":
                    problems.append(f"'{checking}' calls {call}: use .confirm( (it stores no answer)")
            if cell.get("outputs"):
                problems.append(f"a cell of '{checking}' keeps an output in the committed notebook")
        leak = LEAK.search(_output_text(cell))
        if leak:
            problems.append(f"a committed output in section {where!r} holds a verdict or an answer: "
                            f"{leak.group(0)!r}")
    for name in sorted(built - confirmed):
        problems.append(f"exercise {name} is not confirmed in '{checking}'")
    return problems


def lesson(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


# ----------------------------------------------------------------------------- the lessons


@pytest.mark.parametrize("stem", LESSON_STEMS)
def test_the_lesson_has_the_shared_shape_and_gives_no_answer_away(stem: str) -> None:
    assert shape_problems(lesson(EN / f"{stem}.ipynb"), number=stem[:2]) == []


def test_there_are_lessons_to_check() -> None:
    assert len(LESSON_STEMS) >= 15, LESSON_STEMS


@pytest.mark.parametrize("language", ["zh-CN", "zh-TW", "ru"])
def test_each_translated_lesson_has_the_shared_shape_with_the_headings_of_its_language(language: str) -> None:
    problems = []
    for path in sorted((ROOT / "notebooks" / language).glob("[0-9][0-9]-*.ipynb")):
        problems += [f"{language}/{path.name}: {p}"
                     for p in shape_problems(lesson(path), number=path.stem[:2], language=language)]
    assert problems == [], "\n".join(problems)


# ----------------------------------------------------------------------------- the checker itself

GOOD = '''\
---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

# 07 · A lesson

**You will learn:** something.

+++

## Why

Because.

```{code-cell} ipython3
from k8sjobs import Exercise, set_language

set_language("en")
```

+++

## Its own section

```bash
# a comment in a fence is no heading
kubectl get job x
```

```{code-cell} ipython3
:tags: [exercise]

ex_one = Exercise("?", kind="number", run=None, answer=1, explanation="x")
ex_one
```

+++

## Summary

* one

+++

## Words

| a | b | c |

+++

## Further reading

* [Jobs: parallel execution](https://kubernetes.io/docs/concepts/workloads/controllers/job/#parallel-jobs)
  ([中文](https://kubernetes.io/zh-cn/docs/concepts/workloads/controllers/job/#parallel-jobs))

+++

## Checking the answers

```{code-cell} ipython3
ex_one.confirm(1)
```
'''


def notebook(text: str) -> dict:
    return json.loads(nbformat.writes(jupytext.reads(text, fmt="md:myst")))


def problems_of(text: str) -> list[str]:
    return shape_problems(notebook(text), number="07")


def test_the_checker_accepts_a_lesson_with_the_shape() -> None:
    assert problems_of(GOOD) == []


@pytest.mark.parametrize("change, problem", [
    (("# 07 · A lesson", "# A lesson"), "the title must be '# 07 · ...'"),
    (("**You will learn:** something.", "Something."), "no '**You will learn:**' paragraph"),
    (("## Why\n", "## Motivation\n"), "the first section must be '## Why'"),
    (("## Words\n", "## Glossary\n"), "the last sections must be"),
    (("## Further reading\n", "## Links\n"), "the last sections must be"),
    (("## Summary\n\n* one\n\n+++\n\n", ""), "the last sections must be"),
    (("## Its own section\n", "## Summary\n"), "'## Summary' appears 2 times"),
    (("(https://kubernetes.io/docs/concepts/workloads/controllers/job/#parallel-jobs)",
      "(https://example.com/jobs)"), "'Further reading' links no section of https://kubernetes.io/docs/"),
    (("/controllers/job/#parallel-jobs)\n", "/controllers/job/)\n"), "links a whole page, not a section"),
    (('set_language("en")', 'set_language("ru")'), 'the first code cell does not call set_language("en")'),
    (("ex_one\n```", "ex_one\nprint(ex_one.check(1))\n```"), "section 'Its own section' calls .check("),
    (("ex_one\n```", "ex_one\nex_one.reveal()\n```"), "section 'Its own section' calls .reveal("),
    (("ex_one.confirm(1)", "print(ex_one.check(1))"), "'Checking the answers' calls .check("),
    (("ex_one.confirm(1)", "ex_two = ex_one"), "exercise ex_one is not confirmed"),
])
def test_the_checker_refuses_a_lesson_without_the_shape(change: tuple[str, str], problem: str) -> None:
    old, new = change
    assert old in GOOD, old
    found = problems_of(GOOD.replace(old, new, 1))
    assert any(p.startswith(problem) or problem in p for p in found), found


@pytest.mark.parametrize("nth_code_cell, text", [
    (0, "Verdict(correct=True, expected=1, message='Correct: 1.', valid=True)\n"),
    (1, "Answer: 1. Because.\n"),
    (1, "Not quite: you said 2; the run gives 1.\n"),
])
def test_the_checker_refuses_a_verdict_or_an_answer_in_a_committed_output(nth_code_cell: int, text: str) -> None:
    nb = notebook(GOOD)
    cell = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"][nth_code_cell]
    nb["cells"][cell]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": text}]
    found = shape_problems(nb, number="07")
    assert any("holds a verdict or an answer" in p for p in found), found
    # kept out of sight, it is still committed
    nb["cells"][cell]["metadata"]["k8sjobs"] = {"outputs": nb["cells"][cell].pop("outputs")}
    nb["cells"][cell]["outputs"] = []
    found = shape_problems(nb, number="07")
    assert any("holds a verdict or an answer" in p for p in found), found


def test_the_checker_refuses_a_stored_output_shown_after_the_first_exercise() -> None:
    text = GOOD.replace("ex_one\n```\n", "ex_one\n```\n\n```{code-cell} ipython3\n# NBVAL_CHECK_OUTPUT\nprint(2)\n```\n", 1)
    nb = notebook(text)
    cell = next(c for c in nb["cells"] if "print(2)" in _source(c))
    cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "2\n"}]
    found = shape_problems(nb, number="07")
    assert any("after the first exercise, shows a stored output before it runs: 'print(2)'" in p for p in found), found
    cell["metadata"]["jupyter"] = {"outputs_hidden": True}  # collapsed: JupyterLab previews its first line
    assert shape_problems(nb, number="07") == found
    cell["metadata"]["k8sjobs"], cell["outputs"] = {"outputs": cell["outputs"]}, []
    assert shape_problems(nb, number="07") == []
    # before the first exercise a stored output may show (it answers nothing yet)
    before = notebook(GOOD.replace('set_language("en")\n', 'set_language("en")\nprint(1)\n', 1))
    before["cells"][[c["cell_type"] for c in before["cells"]].index("code")]["outputs"] = [
        {"output_type": "stream", "name": "stdout", "text": "1\n"}]
    assert shape_problems(before, number="07") == []


def test_the_checker_refuses_any_output_kept_in_checking_the_answers() -> None:
    nb = notebook(GOOD)
    last = len(nb["cells"]) - 1
    nb["cells"][last]["outputs"] = [{"output_type": "display_data", "metadata": {},
                                     "data": {"text/plain": "ex_one: 1"}}]
    assert "a cell of 'Checking the answers' keeps an output in the committed notebook" in \
        shape_problems(nb, number="07")


# ----------------------------------------------------------------------------- the checker, in other languages

TRANSLATED_HEADINGS = [
    ("**You will learn:** something.", "{learn} 一些东西。"),
    ("## Why\n", "## {why}\n"),
    ("## Summary\n", "## {final[0]}\n"),
    ("## Words\n", "## {final[1]}\n"),
    ("## Further reading\n", "## {final[2]}\n"),
    ("## Checking the answers\n", "## {final[3]}\n"),
    ("# 07 · A lesson", "# 07 · 一课"),
]


def in_language(language: str, text: str = GOOD) -> str:
    """GOOD with the headings, markers and set_language of ``language``."""
    for old, new in TRANSLATED_HEADINGS:
        assert old in text, old
        text = text.replace(old, new.format(**HEADINGS[language]), 1)
    return text.replace('set_language("en")', f'set_language("{language}")')


@pytest.mark.parametrize("language", ["zh-CN", "ru"])
def test_the_checker_accepts_a_translated_lesson_with_the_headings_of_its_language(language: str) -> None:
    assert shape_problems(notebook(in_language(language)), number="07", language=language) == []


@pytest.mark.parametrize("language", ["zh-CN", "ru"])
def test_the_checker_refuses_a_translated_lesson_with_english_headings(language: str) -> None:
    text = GOOD.replace('set_language("en")', f'set_language("{language}")')
    found = shape_problems(notebook(text), number="07", language=language)
    learn, why = HEADINGS[language]["learn"], HEADINGS[language]["why"]
    assert f"no '{learn}' paragraph between the title and the first section" in found, found
    assert any(p.startswith(f"the first section must be '## {why}'") for p in found), found


def test_the_zh_tw_headings_are_the_zh_cn_ones_as_the_generator_converts_them() -> None:
    tool = translations
    zh_cn = in_language("zh-CN").replace("  name: python3\n---\n", "  name: python3\nk8sjobs:\n  language: zh-CN\n---\n", 1)
    zh_tw = tool.zh_tw_lesson(zh_cn, "07-a-lesson.md")
    assert shape_problems(notebook(zh_tw), number="07", language="zh-TW") == []
    # traditional characters, and not the simplified ones: the zh-TW lesson would fail with those
    assert HEADINGS["zh-TW"]["final"] != HEADINGS["zh-CN"]["final"]
    assert shape_problems(notebook(zh_tw), number="07", language="zh-CN") != []
