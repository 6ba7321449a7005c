"""Prove the browser harness on a fixture notebook: JupyterLab, Notebook 7 and Voila, each one
running the notebook, clicking the button, and checking the status line, the figure (bars drawn
and data in the plotly graph div) and that no widget, console or page error appeared."""

from __future__ import annotations

import re

import pytest
from harness import JupyterLab, Voila

NB = "tests/browser/fixtures/widget_smoke.ipynb"
STATUS = ".k8sjobs-status"


def _check_initial(probe):
    probe.expect_text(STATUS, "clicks=0 bars=3")
    # the status line can be there before plotly has loaded and drawn the figure beside it
    probe.expect_text(".js-plotly-plot .gtitle", re.compile("^clicks=0$"))
    probe.wait_until("n => document.querySelectorAll('.js-plotly-plot .barlayer .point').length === n", 3)
    assert probe.count(".js-plotly-plot") == 1
    traces = probe.plotly_traces()
    assert [t["type"] for t in traces] == ["bar", "scatter"]
    assert traces[0]["y"] == [3, 1, 2]
    assert probe.plotly_bar_count() == 3
    assert probe.plotly_trace_count() == 2
    assert probe.plotly_layout()["title"]["text"] == "clicks=0"


def _click_and_check(probe, clicks):
    probe.click_button("Add bar")
    bars = 3 + clicks
    probe.expect_text(STATUS, f"clicks={clicks} bars={bars}")
    probe.page.wait_for_function(
        "n => document.querySelectorAll('.js-plotly-plot .barlayer .point').length === n", arg=bars)
    traces = probe.plotly_traces()
    assert len(traces) == 2
    assert traces[0]["x"] == [f"pod-{c}" for c in "abcdef"[:bars]]
    assert traces[0]["y"] == [(i * 7 + 3) % 5 + 1 for i in range(bars)]
    assert traces[1]["y"] == [2] * bars
    assert probe.plotly_bar_count() == bars
    assert probe.plotly_layout()["title"]["text"] == f"clicks={clicks}"
    probe.expect_text(".js-plotly-plot .gtitle", re.compile(f"^clicks={clicks}$"))  # drawn, maybe a frame later
    assert probe.text(".js-plotly-plot .gtitle") == f"clicks={clicks}"


def _run_in(server, probe, app):
    nb = server.open_notebook(probe, NB)
    probe.shot("1-opened")
    run = nb.run_all()
    assert run.ok, run.errors
    assert "traces 2 bars 3" in run.text()
    _check_initial(probe)
    probe.shot("2-rendered", scroll_to=".widget-vbox")
    _click_and_check(probe, 1)
    _click_and_check(probe, 2)
    probe.shot("3-clicked", scroll_to=".widget-vbox")
    probe.shot("3-clicked-widget", probe.page.locator(".widget-vbox").first)
    nb.wait_idle()
    assert nb.settled_kernel_status() == "idle"
    probe.assert_clean()
    assert probe.blocked_requests == [], f"{app} tried to reach the internet"


def test_lab(lab, probe):
    _run_in(lab, probe, "JupyterLab")


def test_notebook7(browser):
    with JupyterLab(app="notebook") as server:
        probe = browser.new_page("test_notebook7")
        try:
            _run_in(server, probe, "Notebook 7")
            # the one known upstream start-up error (harness.KNOWN_UPSTREAM_PROBLEMS) did occur
            # and is the only thing ignored
            assert all("reading 'schema'" in e for e in probe.page_errors), probe.page_errors
        except BaseException:
            probe.shot("failure")
            raise
        finally:
            probe.close()
        kernels = server.children()
    assert server.leftover == [] and kernels, "kernel processes must be stopped by PID"


def test_voila(browser):
    with Voila(NB) as voila:
        probe = browser.new_page("test_voila")
        try:
            voila.open(probe, ready=STATUS)
            probe.shot("2-rendered")
            _check_initial(probe)
            _click_and_check(probe, 1)
            _click_and_check(probe, 2)
            probe.shot("3-clicked")
            # Voila's template asks a CDN for FontAwesome; offline that is blocked (icons only)
            assert {re.sub(r"^https?://([^/]+)/.*", r"\1", u) for u in probe.blocked_requests} <= {
                "cdn.jsdelivr.net"}
            probe.assert_clean()
        except BaseException:
            probe.shot("failure")
            raise
        finally:
            probe.close()


@pytest.mark.parametrize("locale, menu", [("zh_CN", "文件"), ("ru_RU", "Файл")])
def test_language_packs(browser, locale, menu):
    """The pinned language packs load: the File menu is translated."""
    with JupyterLab(locale=locale) as server:
        probe = browser.new_page(f"test_language_{locale}")
        try:
            server.open_notebook(probe, NB)
            probe.page.get_by_role("menuitem", name=menu).first.wait_for()
            probe.shot("menu")
            probe.assert_clean()
        finally:
            probe.close()
