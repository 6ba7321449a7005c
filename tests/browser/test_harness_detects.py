"""The harness's detectors fire: a raising cell (JupyterLab and Voila) and a widget whose front end
is missing are reported, not passed over. Without these, a green browser test would prove little."""

from __future__ import annotations

import pytest
from harness import JupyterLab, Voila

SMOKE = "tests/browser/fixtures/widget_smoke.ipynb"
RAISES = "tests/browser/fixtures/cell_error.ipynb"


def test_run_all_reports_a_failing_cell(lab, probe):
    nb = lab.open_notebook(probe, RAISES)
    run = nb.run_all()
    assert not run.ok
    assert run.errors == ["cell 2: ValueError: boom from the fixture"]
    counts = [c["execution_count"] for c in run.cells]
    assert counts[0] and counts[1] and not counts[2], "run-all stops at the failing cell"
    assert "before" in run.text() and "after" not in run.text()
    probe.shot("error", scroll_to=".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")


def test_voila_reports_a_failing_cell(browser):
    with Voila(RAISES) as voila:
        probe = browser.new_page("test_voila_reports_a_failing_cell")
        try:
            with pytest.raises(AssertionError, match="boom from the fixture"):
                voila.open(probe)
            probe.shot("error")
        finally:
            probe.close()


def test_widget_error_is_detected(browser):
    """Disable the anywidget front end (plotly's FigureWidget is an anywidget): Lab shows an error
    box instead of the figure, and the harness must say so."""
    with JupyterLab(disabled_extensions=("anywidget",)) as server:
        probe = browser.new_page("test_widget_error_is_detected")
        try:
            nb = server.open_notebook(probe, SMOKE)
            assert nb.run_all().ok, "the kernel side is fine; only the browser side is broken"
            probe.page.locator(".jupyter-widgets-error-widget").first.wait_for()
            found = probe.widget_errors()
            assert "1 x .jupyter-widgets-error-widget" in found
            assert "Click to show javascript error" in found
            problems = probe.problems()
            assert any("No version of module anywidget is registered" in p for p in problems), problems
            with pytest.raises(AssertionError, match="browser problems"):
                probe.assert_clean()
            probe.shot("error", scroll_to=".jupyter-widgets-error-widget")
        finally:
            probe.close()
