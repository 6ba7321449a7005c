"""Predict first: a lesson opened in JupyterLab, Notebook 7 or Voilà shows no stored output after
its first exercise until the cell runs, and shows it once run.

tools/build_lessons.py commits the checked cells after a lesson's first exercise unrun, their
outputs kept in ``metadata.k8sjobs.outputs`` (which nbval compares). Here, in Debian's Chromium:

* JupyterLab (lesson 06 in English) and Notebook 7 (lesson 12 in Russian): when the lesson opens,
  no such cell shows an output, and no line of a kept output is anywhere on the page; after Run
  All each of them shows what it keeps (first and last line);
* Voilà (lesson 06): every output it executes is displayed, those cells' included.

Screenshots: artifacts/browser/<test>-{opened,run}.png, the cell right under the first exercise.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from harness import ROOT, JupyterLab, Voila

KEPT = "k8sjobs"


def kept(relpath: str) -> dict[int, list[str]]:
    """{cell index: the non-blank lines of the text outputs it keeps out of sight}."""
    nb = json.loads((ROOT / relpath).read_text(encoding="utf-8"))
    out = {}
    for i, cell in enumerate(nb["cells"]):
        outputs = cell.get("metadata", {}).get(KEPT, {}).get("outputs")
        if outputs is None:
            continue
        lines = []
        for o in outputs:
            text = o.get("text") or o.get("data", {}).get("text/plain") or []
            lines += [line.strip() for line in "".join(text).splitlines() if line.strip()]
        out[i] = lines
    return out


def flat(text: str) -> str:
    return " ".join(text.split())


def scroll_to_cell(probe, index: int) -> None:
    probe.page.evaluate("(i) => window.jupyterapp.shell.currentWidget.content.widgets[i].node.scrollIntoView()", index)
    probe.page.wait_for_timeout(300)  # a frame, for content-visibility: auto to draw it


@pytest.mark.parametrize("app, lesson", [("lab", "notebooks/en/06-expectations.ipynb"),
                                         ("notebook", "notebooks/ru/12-pod-failure-policy.ipynb")])
def test_no_stored_output_shows_after_the_first_exercise_until_the_cell_runs(browser, app, lesson):
    want = kept(lesson)
    assert len(want) >= 4 and all(want.values()), want
    first = min(want)
    with JupyterLab(app=app) as server:
        probe = browser.new_page(f"out-of-sight-{app}-{Path(lesson).parent.name}-{Path(lesson).stem[:2]}")
        try:
            nb = server.open_notebook(probe, lesson)
            cells = {c["index"]: c for c in nb.outputs_shown()}
            shown_early = {i: cells[i] for i in want if cells[i]["outputs"] or cells[i]["shown"]}
            assert not shown_early, f"{lesson}: stored outputs shown before running: {shown_early}"
            page_text = flat(probe.page.locator(".jp-Notebook").first.text_content())
            for i, lines in want.items():
                leaked = [line for line in lines if len(line) > 12 and flat(line) in page_text]
                assert not leaked, f"{lesson} cell {i}: kept output on the page before running: {leaked[:2]}"
            scroll_to_cell(probe, first)
            probe.shot("opened")
            run = nb.run_all(timeout=300)
            assert run.ok, run.errors
            cells = {c["index"]: c for c in nb.outputs_shown()}
            for i, lines in want.items():
                shown = flat(cells[i]["text"])
                assert cells[i]["shown"] and not cells[i]["folded"], f"{lesson} cell {i}: no output after running"
                assert flat(lines[0]) in shown and flat(lines[-1]) in shown, \
                    f"{lesson} cell {i}: shows {shown[:200]!r}, keeps {lines[0]!r} ... {lines[-1]!r}"
            scroll_to_cell(probe, first)
            probe.shot("run")
            probe.assert_clean()
        finally:
            probe.close()


def test_voila_shows_every_output_it_executes(browser):
    lesson = "notebooks/en/06-expectations.ipynb"
    want = kept(lesson)
    with Voila(lesson) as voila:
        probe = browser.new_page("out-of-sight-voila-en-06")
        try:
            voila.open(probe, timeout=300)
            outputs = probe.page.locator(".jp-OutputArea-output")
            hidden = outputs.evaluate_all("els => els.filter((e) => !e.checkVisibility()).length")
            assert outputs.count() > len(want) and hidden == 0, f"{hidden} of {outputs.count()} outputs not displayed"
            text = flat(probe.page.locator("body").inner_text())
            for i, lines in want.items():
                assert flat(lines[0]) in text and flat(lines[-1]) in text, f"cell {i}'s output is not shown: {lines[0]!r}"
            probe.page.get_by_text(re.compile(re.escape(want[min(want)][0].split()[0]))).first.scroll_into_view_if_needed()
            probe.shot("shown")
            # jupyterlab-plotly's renderer of a static figure stores a PNG snapshot into its output
            # model, which Voilà's model cannot take; the figure is drawn all the same.
            probe.assert_clean(allow=(r"^pageerror: TypeError: r\.setData is not a function$",))
        finally:
            probe.close()
