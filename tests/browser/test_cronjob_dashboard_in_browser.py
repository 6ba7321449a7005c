"""The CronJob dashboard in JupyterLab (headless Debian Chromium), in English and in Russian.

tests/browser/fixtures/cronjob.ipynb opens an Explorer on an every-minute CronJob (one 2 s pod per
Job, one node, four hours); its ``set_language("en")`` is made ``set_language(<language>)``. The test
steps the CronJob, jumps to the next schedule, stops the controllers for 3 hours (the faults
panel's default) and jumps again: the status line must then say, in the language, that 179 runs
were missed while the controller was down and only the latest started. The words it expects come
from an ExplorerState driven the same way in the test (the same catalog the kernel reads). The
CronJob's view tabs are the CronJob's views (``viz.views_for("CronJob")``), and the visible view's
title follows the jump (the Schedule view: the CronJob's own views come first). Screenshots: artifacts/browser/test_cronjob_dashboard_in_lab[<language>]-*.png.
"""

from __future__ import annotations

import json
import re

import pytest
from harness import ROOT
from playwright.sync_api import expect
from test_dashboard import EXPLORER, STATUS, expect_status
from test_dashboard_languages import assert_glyphs_render, assert_labels_fit

from k8sjobs import i18n, viz
from k8sjobs.widgets.explorer import Explorer
from k8sjobs.widgets.state import ExplorerState

NB = "tests/browser/fixtures/cronjob.ipynb"
CLOCK = ".k8sjobs-clock"
_MANIFEST = re.compile(r'MANIFEST = """(.*?)"""', re.S)


def walk(s: ExplorerState) -> dict[str, object]:
    """What a CronJob's dashboard says at each move the browser tests make, from ``s`` moved the same
    way: the first status line (``s0``), after a Step (``s1``), after a jump to the next schedule
    (``next``, ``clock``), after kube-controller-manager is stopped for 3 hours (the faults panel's
    default) and another jump (``after_stop``, ``clock_after_stop``); the first view (``view``, its tab
    title ``tab``) and its title as the page holds it (``title``: plotly draws a title's ``<br>`` as a
    line of its own and the title's textContent joins its lines; a long title, as the Russian one, is
    wrapped)."""
    out: dict[str, object] = {"s0": s.status_line()}
    s.step()
    out["s1"] = s.status_line()
    s.next_schedule()
    out["next"], out["clock"] = s.status_line(), s.clock()
    assert s.stop_controllers("3h") == []
    s.next_schedule()
    out["after_stop"], out["clock_after_stop"] = s.status_line(), s.clock()
    view = Explorer._cronjob_views(None)[0]
    out["view"], out["tab"] = view, viz.title(view)
    # the title above the figure, as HTML (viz.outside: the browser wraps it)
    out["title"] = viz.outside(viz.figure_parts(view, s.trace, s.cycle))[1].title
    return out


def _expected(language: str) -> dict[str, object]:
    """What the dashboard says in ``language`` at each move of the test (an ExplorerState moved the same way)."""
    code = "".join(json.loads((ROOT / NB).read_text(encoding="utf-8"))["cells"][0]["source"])
    i18n.set_language(language)
    try:
        s = ExplorerState(_MANIFEST.search(code).group(1), seed=0, nodes=1, max_time=4 * 3600)
        out = walk(s)
        out["picker"] = [label for label, _name in s.picker()[0]]
        out["tabs"] = [viz.title(v) for v in Explorer._cronjob_views(None)]
        out["next_button"] = i18n._("To the next schedule")
        out["stop_button"] = i18n._("Stop")
    finally:
        i18n.set_language("en")
    return out


@pytest.mark.parametrize("language", ["en", "ru"])
def test_cronjob_dashboard_in_lab(lab, probe, language):
    want = _expected(language)
    if language == "en":
        assert "missed 179 runs while the controller was down: started only the latest (03:01)" in want["after_stop"]
    else:
        assert "пропущено 179 запусков, пока контроллер был остановлен: запущен только последний (03:01)" in \
            want["after_stop"]
    nb = lab.open_notebook(probe, NB)
    probe.page.evaluate(
        """lang => { const cell = window.jupyterapp.shell.currentWidget.content.widgets
                         .find(c => c.model.type === 'code');
                     const src = cell.model.sharedModel.getSource();
                     cell.model.sharedModel.setSource(
                         src.replace('set_language("en")', `set_language(${JSON.stringify(lang)})`)); }""",
        language)
    run = nb.run_all(timeout=180)
    assert run.ok, run.errors
    expect_status(probe, want["s0"], timeout=60)
    for title in want["tabs"]:
        expect(probe.page.get_by_role("tab", name=title, exact=True), f"no tab {title!r}").to_have_count(1)
    probe.shot("1-opened", scroll_to=EXPLORER)

    probe.page.locator(f"{EXPLORER} .k8sjobs-step").click()
    expect_status(probe, want["s1"])
    button = probe.page.locator(f"{EXPLORER} .k8sjobs-next-schedule")
    expect(button).to_have_text(re.compile(re.escape(want["next_button"])))
    button.click()
    expect_status(probe, want["next"])
    probe.expect_text(CLOCK, want["clock"])
    probe.shot("2-next-schedule", scroll_to=EXPLORER)

    stop = probe.page.locator(f"{EXPLORER} .k8sjobs-stop-controllers")
    stop.scroll_into_view_if_needed()
    expect(stop).to_have_text(re.compile(re.escape(want["stop_button"])))
    stop.click()
    probe.expect_text(f"{EXPLORER} .k8sjobs-notice", "stop_controllers(seconds=10800.0)")
    button.click()
    expect_status(probe, want["after_stop"], timeout=60)
    probe.expect_text(CLOCK, want["clock_after_stop"])
    # the CronJob's first view follows the jump
    title = f"{EXPLORER} .k8sjobs-view-{want['view']} .k8sjobs-figure-title"
    assert probe.wait_until("([sel, t]) => { const e = document.querySelector(sel); return e && e.textContent === t; }",
                            [title, want["title"]], timeout=60), probe.text(title)
    probe.shot("3-after-3h-stop", scroll_to=EXPLORER)
    # the picker: the CronJob, then the Jobs it made up to now, newest first
    options = [o.replace("\xa0", " ").strip()  # ipywidgets writes the spaces of an option as no-break spaces
               for o in probe.page.locator(f"{EXPLORER} .k8sjobs-job select option").all_inner_texts()]
    assert options == want["picker"], options

    # the CronJob's faults panel: every label fits its button or field, in the language
    faults = f"{EXPLORER} .k8sjobs-cronjob-faults"
    probe.page.locator(faults).scroll_into_view_if_needed()
    labels = assert_labels_fit(probe, faults)
    assert len(labels) == 15, f"the CronJob faults' 7 field labels and 8 buttons, measured: {labels}"
    if language != "en":
        assert_glyphs_render(probe, faults)
        assert_glyphs_render(probe, STATUS)
    probe.shot("4-cronjob-faults", scroll_to=faults)
    probe.assert_clean()
