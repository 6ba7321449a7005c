"""A dashboard of two Jobs in a real browser (Voila, headless Chromium): the Job picker and the cluster tab.

tests/browser/fixtures/two_jobs.ipynb opens an Explorer on lesson 09's two Jobs (render 4/2, encode
3/3) on one node with 3 pod slots. The test steps, switches the picker to encode, steps again and
reads the status line and the cluster view's title from the page (two views stand side by side).
Screenshots go to artifacts/browser/.
"""

from __future__ import annotations

import re

from harness import Voila

NB = "tests/browser/fixtures/two_jobs.ipynb"
STATUS = ".k8sjobs-status"
PICKER = ".k8sjobs-job select"
CLUSTER_TITLE = ".k8sjobs-view-cluster .k8sjobs-figure-title"


def test_the_job_picker_and_the_cluster_view_in_voila(browser):
    with Voila(NB) as voila:
        probe = browser.new_page("test_many_jobs_voila")
        try:
            voila.open(probe, ready=STATUS)
            probe.expect_text(STATUS, re.compile(r"^cycle 0 of 10 · t=0 s"))
            options = probe.page.locator(f"{PICKER} option").all_inner_texts()
            assert [o.strip() for o in options] == ["render", "encode"], options
            probe.click_button(re.compile("Step$"))
            probe.expect_text(STATUS, re.compile(r"^cycle 1 of 10 · t=0 s · creating 2 pods"))
            probe.shot("1-render-step")
            probe.page.locator(PICKER).select_option("encode")
            # encode's own cycles: its first sync, at t=0, created its 3 pods.
            probe.expect_text(STATUS, re.compile(r"^cycle 1 of 7 · t=0 s · creating 3 pods"))
            probe.click_button(re.compile("Step$"))
            probe.expect_text(STATUS, re.compile(r"^cycle 2 of 7 · t=1 s"))
            # Two views stand side by side (no tabs): the cluster view follows the step.
            # (the title is wrapped for a half-width pane: its line break reads as nothing in the text)
            probe.expect_text(CLUSTER_TITLE, re.compile(r"^Pods of every Job on the nodes, up to cycle 2 ?\(t=1 s\)"))
            probe.shot("2-encode-cluster")
            probe.assert_clean()
        except BaseException:
            probe.shot("failure")
            raise
        finally:
            probe.close()
