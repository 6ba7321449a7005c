"""Lesson 16's CronJob dashboard in JupyterLab (headless Debian Chromium), in English and in Russian.

The lesson (notebooks/<language>/16-schedules-and-missed-runs.ipynb) is run whole; its dashboard
(``Explorer(REPORT)``, the hourly report, in "Try it in the dashboard") is stepped, jumped to the
next schedule, its controllers stopped for 3 hours (the faults panel's default) and jumped again:
the status line must say, in the lesson's language, that the runs of 02:00 and 03:00 were missed
while the controller was down and only 04:00's started, and the Schedule view (the CronJob's first
tab) must follow. What it expects comes from the lesson's own REPORT (its code cells run here up
to its definition) in an ExplorerState moved the same way. Screenshots:
artifacts/browser/test_lesson16_dashboard_in_lab[<language>]-*.png.
"""

from __future__ import annotations

import contextlib
import io
import json

import pytest
from harness import ROOT
from playwright.sync_api import expect
from test_cronjob_dashboard_in_browser import CLOCK, walk
from test_dashboard import EXPLORER, expect_status

from k8sjobs import i18n
from k8sjobs.widgets.state import ExplorerState

LESSON = "notebooks/{language}/16-schedules-and-missed-runs.ipynb"


def _report(language: str) -> str:
    """The lesson's REPORT manifest: its code cells run in order until they define it."""
    scope: dict[str, object] = {}
    for cell in json.loads((ROOT / LESSON.format(language=language)).read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "code":
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile("".join(cell["source"]), "lesson 16", "exec"), scope)  # noqa: S102 -- our lesson
            if "REPORT" in scope:
                return scope["REPORT"]
    raise AssertionError("lesson 16 defines no REPORT")


def _expected(language: str) -> dict[str, object]:
    """What lesson 16's dashboard says in ``language`` at each move of the test (:func:`walk`)."""
    report = _report(language)
    i18n.set_language(language)
    try:
        return walk(ExplorerState(report))
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_lesson16_dashboard_in_lab(lab, probe, language):
    want = _expected(language)
    missed = {"en": "missed 2 runs while the controller was down: started only the latest (04:00)",
              "ru": "пропущено 2 запуска, пока контроллер был остановлен: запущен только последний (04:00)"}
    assert missed[language] in want["after_stop"], want["after_stop"]
    nb = lab.open_notebook(probe, LESSON.format(language=language))
    run = nb.run_all(timeout=240)
    assert run.ok, run.errors
    dashboard = probe.page.locator(EXPLORER)
    expect(dashboard).to_have_count(1)
    dashboard.scroll_into_view_if_needed()
    expect_status(probe, want["s0"], timeout=60)
    expect(probe.page.get_by_role("tab", name=want["tab"], exact=True).first).to_be_visible()

    probe.page.locator(f"{EXPLORER} .k8sjobs-step").click()
    expect_status(probe, want["s1"])
    jump = probe.page.locator(f"{EXPLORER} .k8sjobs-next-schedule")
    jump.click()
    expect_status(probe, want["next"])
    probe.shot("1-next-schedule", scroll_to=EXPLORER)

    stop = probe.page.locator(f"{EXPLORER} .k8sjobs-stop-controllers")
    stop.scroll_into_view_if_needed()
    stop.click()
    probe.expect_text(f"{EXPLORER} .k8sjobs-notice", "stop_controllers(seconds=10800.0)")
    jump.click()
    expect_status(probe, want["after_stop"], timeout=60)
    probe.expect_text(f"{EXPLORER} {CLOCK}", want["clock_after_stop"])
    title = f"{EXPLORER} .k8sjobs-view-{want['view']} .k8sjobs-figure-title"
    assert probe.wait_until("([sel, t]) => { const e = document.querySelector(sel); return e && e.textContent === t; }",
                            [title, want["title"]], timeout=60), probe.text(title)
    probe.shot("2-after-3h-stop", scroll_to=EXPLORER)
    probe.assert_clean()
