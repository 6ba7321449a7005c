"""The JupyterLite site as a learner uses it: nothing installed, nothing fetched from outside.

In one JupyterLab page of the built site (``sh tools/lite.sh``), in Debian's Chromium: the
start page (run all, step the dashboard, answer an exercise), then every English lesson
(``notebooks/en/NN-*.ipynb``, by glob), then the start page of every other language that has
one (``notebooks/<lang>/00-start-here.ipynb``). Each lesson opens with a fresh Pyodide kernel,
runs every cell, and must:

* raise in no cell, show no widget error, log no console or page error;
* print, in every ``# NBVAL_CHECK_OUTPUT`` cell, what the lesson file stores (sanitized as
  nbval does);
* step its first dashboard once (the kernel answers: the status line moves on);
* make no request to a host other than 127.0.0.1 (page, kernel worker, service worker).

Screenshots: artifacts/browser/lite-*.png. Timings (kernel idle, run all) per lesson:
artifacts/browser/lite-timings.json; benchmarks/bench_lite.py measures them properly.
"""

from __future__ import annotations

import hashlib
import json
import re
import zipfile
from pathlib import Path

import litepage
import pytest
from playwright.sync_api import expect

ROOT = litepage.ROOT
lite = litepage.lite
NOTEBOOKS = ROOT / "notebooks"
START = NOTEBOOKS / "en" / "00-start-here.ipynb"
LESSONS = sorted(p for p in (NOTEBOOKS / "en").glob("[0-9][0-9]-*.ipynb") if p != START)
OTHER_STARTS = sorted(p for p in NOTEBOOKS.glob("*/00-start-here.ipynb") if p.parent.name != "en")
STATUS = re.compile(r"^cycle (\d+) of (\d+) · t=")
TIMINGS: dict[str, dict[str, float]] = {}


def site_path(notebook: Path) -> str:
    """Where a lesson of the checkout is in the site: ``<lang>/<file>``."""
    return notebook.relative_to(NOTEBOOKS).as_posix()


PLAN = [site_path(p) for p in (START, *LESSONS, *OTHER_STARTS)]
"""The order the tests open the notebooks in (the ``lab`` fixture loads the next one ahead)."""


def assert_clean(lab, outside_before: int) -> None:
    """No widget, console or page error in the lesson's page, no request to outside 127.0.0.1."""
    problems = lab.problems() + [f"request to outside 127.0.0.1: {r}" for r in lab.outside[outside_before:]]
    assert not problems, f"{lab.current.path}:\n  " + "\n  ".join(problems)


def run_lesson(lab, notebook: Path, name: str) -> dict:
    """Open ``notebook`` in the site with a fresh kernel, run all, compare the checked outputs."""
    nb, times = lab.open(site_path(notebook))
    run = nb.run_all(timeout=300)
    assert run.ok, f"{notebook.name}: " + "; ".join(run.errors)
    compared, diffs = litepage.compare_checked(notebook, run.cells)
    assert not diffs, f"{notebook.name}: checked outputs differ from the stored ones:\n  " + "\n  ".join(diffs)
    TIMINGS[name] = {**times, "run_all": run.seconds, "checked_cells": compared}
    return TIMINGS[name]


def step_dashboard(lab, name: str) -> bool:
    """Step the first dashboard of the open lesson once (Back at its last cycle); False if it has none."""
    probe = lab.probe
    if probe.page.locator(".k8sjobs-explorer").count() == 0:
        return False
    explorer = probe.page.locator(".k8sjobs-explorer").first
    explorer.scroll_into_view_if_needed()
    status = explorer.locator(".k8sjobs-status")
    expect(status).to_have_text(STATUS, timeout=60_000)  # drawn by the widget once its view renders
    text = status.text_content()
    m = STATUS.search(text)
    assert m, f"the status line reads {text!r}"
    shown, last = int(m.group(1)), int(m.group(2))
    button, want = ("step", shown + 1) if shown < last else ("back", shown - 1)
    explorer.locator(f"button.k8sjobs-{button}").first.click()
    expect(status).to_have_text(re.compile(rf"^cycle {want} of {last} · t="), timeout=60_000)
    probe.shot(f"{name}-stepped", scroll_to=explorer)
    return True


def test_the_site_is_complete_and_loads_everything_from_itself(site):
    figures = lite.check_site(site)  # the kernel's Pyodide URL is local; the lock names only local wheels
    config = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"][lite.KERNEL_PLUGIN]
    assert kernel["pyodideUrl"] == "./static/pyodide/pyodide.mjs"
    assert kernel["disablePyPIFallback"] is True
    lock = json.loads((site / "static/pyodide/pyodide-lock.json").read_text())
    assert not [e for e in lock["packages"].values() if re.search(r"^[a-z]+:|/", e["file_name"])]
    # the wheels are the pinned ones (requirements/lite-browser.txt), plus the project's own
    version, _, pins = lite.browser_pins()
    assert json.loads((site / "static/pyodide/package.json").read_text())["version"] == version
    pinned = {key: v for key, _, _, v, _ in pins}
    assert {k: e["version"] for k, e in lock["packages"].items() if k != "k8sjobs"} == pinned
    assert "numpy" not in lock["packages"], "numpy cannot be had offline in the browser"
    # the project's wheel carries its data: API schemas and every compiled catalog of the checkout
    wheel = site / "static/pyodide" / lock["packages"]["k8sjobs"]["file_name"]
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == lock["packages"]["k8sjobs"]["sha256"]
    names = set(zipfile.ZipFile(wheel).namelist())
    assert set(lite.package_data_expected()) <= names
    # every lesson of every language is a file of the site
    for notebook in NOTEBOOKS.glob("*/*.ipynb"):
        assert (site / "files" / site_path(notebook)).is_file(), f"{site_path(notebook)} is not in the site"
    assert figures["bytes"] < 90e6, f"the site grew to {figures['bytes'] / 1e6:.1f} MB"


def test_the_start_page_runs_steps_and_answers_an_exercise(lab):
    outside = len(lab.outside)
    run_lesson(lab, START, "start")
    assert lab.pyodide_url() == f"http://127.0.0.1:{lab.server.server_address[1]}/static/pyodide/pyodide.mjs"
    assert step_dashboard(lab, "start"), "the start page has a dashboard"
    probe = lab.probe
    box = probe.page.locator(".k8sjobs-exercise").first
    box.scroll_into_view_if_needed()
    box.locator("input[type=text]").first.fill("16")
    box.get_by_role("button", name="Check").first.click()
    probe.expect_text(".k8sjobs-exercise-feedback", re.compile(r"^✔ Correct"), timeout=60)
    feedback = probe.page.locator(".k8sjobs-exercise-feedback").first
    feedback.locator(".js-plotly-plot").first.wait_for(timeout=60_000)  # the run's picture, drawn
    probe.shot("start-exercise", scroll_to=feedback)
    assert_clean(lab, outside)


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_english_lesson_runs_in_the_site_with_the_stored_answers(lab, lesson):
    outside = len(lab.outside)
    run_lesson(lab, lesson, lesson.stem)
    step_dashboard(lab, lesson.stem)
    assert_clean(lab, outside)


def test_the_start_page_of_every_other_language_runs_in_the_site(lab):
    # Every notebooks/<lang>/00-start-here.ipynb the translators add is picked up here.
    for start in OTHER_STARTS:
        outside = len(lab.outside)
        name = f"start-{start.parent.name}"
        run_lesson(lab, start, name)
        assert step_dashboard(lab, name), f"{site_path(start)} has a dashboard"
        assert_clean(lab, outside)
    print(f"start pages of other languages: {[site_path(p) for p in OTHER_STARTS] or 'none yet'}")


def test_nothing_left_127_0_0_1_and_the_timings_are_written(lab):
    assert not lab.outside, "requests to outside 127.0.0.1:\n" + "\n".join(lab.outside)
    out = litepage.ARTIFACTS / "lite-timings.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(TIMINGS, indent=2))
    print(json.dumps(TIMINGS, indent=1))
