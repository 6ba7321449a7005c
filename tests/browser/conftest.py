"""Fixtures for the real-browser tests (see harness.py for the API).

* ``browser`` (session): one headless Debian Chromium with a fresh profile.
* ``lab`` (session): one JupyterLab server on loopback; notebooks are copied into its workspace
  when opened, and every kernel is shut down after each test.
* ``probe`` (function): a new page named after the test; on failure a screenshot
  ``artifacts/browser/<test>-failure.png`` is saved; a JSON summary is always written.
"""

from __future__ import annotations

import pytest
from harness import Browser, JupyterLab


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture(scope="session")
def browser():
    with Browser() as b:
        yield b


@pytest.fixture(scope="session")
def lab():
    with JupyterLab() as server:
        yield server


@pytest.fixture
def probe(browser, request):
    p = browser.new_page(request.node.name)
    yield p
    rep = getattr(request.node, "rep_call", None)
    if rep is not None and rep.failed:
        try:
            p.shot("failure")
        except Exception as exc:  # the page may be gone; the failure itself is what matters
            print(f"(no failure screenshot: {exc})")
    p.close()
    server = p.server
    if isinstance(server, JupyterLab) and server.proc is not None:
        server.shutdown_kernels()
