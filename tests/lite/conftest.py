"""Fixtures of the JupyterLite site tests (the ``lite`` stage of tools/test.sh).

They need a built site: ``sh tools/lite.sh`` builds ``_site/`` (``K8SJOBS_LITE_SITE=DIR`` tests
another). A plain ``pytest`` does not collect this folder (``norecursedirs`` in pyproject.toml):
name it, ``python -m pytest tests/lite``.

* ``site`` (module): the site's folder;
* ``lab`` (module): the site served on 127.0.0.1 and open in Debian's Chromium
  (litepage.LiteTabs), in which the tests open the lessons one after the other; every request
  of the browser (pages, kernel workers, service workers) to a host other than loopback is
  refused and recorded in ``lab.outside``;
* on a failure, ``artifacts/browser/lite-failure-<test>.png``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import litepage  # noqa: E402


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


@pytest.fixture(scope="module")
def site() -> Path:
    path = Path(os.environ.get("K8SJOBS_LITE_SITE", litepage.lite.SITE))
    if not (path / "jupyter-lite.json").is_file():
        pytest.fail(f"no JupyterLite site in {path}: build it first with `sh tools/lite.sh`")
    return path


@pytest.fixture(scope="module")
def lab(site):
    with litepage.Browser() as browser:
        outside = litepage.watch_outside(browser.context)
        tabs = litepage.LiteTabs(browser, site, outside=outside)
        yield tabs
        tabs.close()


@pytest.fixture(autouse=True)
def _failure_shot(request):
    yield
    rep = getattr(request.node, "rep_call", None)
    page = request.node.funcargs.get("lab")
    if rep is not None and rep.failed and page is not None:
        try:
            page.probe.shot(f"failure-{request.node.name}")
        except Exception as exc:  # the page may be gone; the failure itself is what matters
            print(f"(no failure screenshot: {exc})")
