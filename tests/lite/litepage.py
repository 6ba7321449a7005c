"""Drive the JupyterLite site (``_site/``) in Debian's Chromium: serve it, open lessons, compare outputs.

Used by tests/lite (the ``lite`` stage of tools/test.sh) and benchmarks/bench_lite.py. Builds on
tests/browser/harness.py (Playwright with ``executable_path=/usr/bin/chromium``, a fresh profile,
evidence per page) and adds what a static site needs:

* :func:`serve` -- the site on 127.0.0.1 (tools/lite.py's server, in a thread);
* :func:`watch_outside` -- every request of the browser context to a host other than loopback,
  refused and recorded: the page's, the kernel worker's and JupyterLite's service worker's
  (page-level routing alone does not see the service worker);
* :class:`LiteTabs` -- opens notebooks one after the other, each by its URL in a fresh page (a
  fresh JupyterLab and Pyodide kernel, as a learner opening a lesson's link), and waits until the
  kernel is idle;
* :func:`checked_cells` / :func:`compare_checked` -- the ``# NBVAL_CHECK_OUTPUT`` cells of a
  lesson file against what the page printed, sanitized as nbval does with tests/nbval-sanitize.cfg.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "browser"))

from harness import ARTIFACTS, Browser, Notebook, Probe, _is_loopback  # noqa: E402,F401

from tools import lite  # noqa: E402  (tools/lite.py; the repository root is on sys.path)

SANITIZE = ROOT / "tests" / "nbval-sanitize.cfg"
SKIP_MIME = {"application/vnd.jupyter.widget-view+json", "application/vnd.plotly.v1+json", "image/png",
             "text/html"}
"""Outputs not compared: widget views and figures (ids, pictures) -- their text twins are."""


def serve(site: Path = lite.SITE):
    """The built site on 127.0.0.1, a free port; ``.shutdown()`` stops it."""
    if not (site / "jupyter-lite.json").is_file():
        raise FileNotFoundError(f"no JupyterLite site in {site}: build it with `sh tools/lite.sh`")
    return lite.start_server(site, 0)


def watch_outside(context, refuse: bool = True) -> list[str]:
    """Refuse and record every request of a browser context to a host other than loopback:
    pages, their workers (the Pyodide kernel) and service workers (JupyterLite's) alike.
    Returns the list the requests are recorded in ("METHOD URL").

    ``refuse=False`` only records them: Playwright's routing, which refuses, turns the browser's
    HTTP cache off, so a benchmark of a learner's second lesson (the site's files cached) records
    without refusing (on a machine without internet access they fail anyway)."""
    seen: list[str] = []
    context.on("request", lambda r: None if _is_loopback(r.url) else seen.append(f"{r.method} {r.url}"))
    if refuse:
        context.route(lambda url: not _is_loopback(url), lambda route: route.abort("blockedbyclient"))
    return seen


# The notebook is found by its path among the open documents, not as "the current widget": a
# page that loaded in a background tab may not have made it current yet; it is then activated.
_OPEN_JS = """(path) => {
    const app = window.jupyterapp;
    if (!app || !app.shell) return false;
    const w = Array.from(app.shell.widgets('main')).find((w) => w.context && w.context.path === path);
    if (!(w && w.content && w.content.widgets && w.content.widgets.length > 0)) return false;
    if (app.shell.currentWidget !== w) app.shell.activateById(w.id);
    return app.shell.currentWidget === w;
}"""
_IDLE_JS = """(path) => {
    const app = window.jupyterapp;
    const w = app && Array.from(app.shell.widgets('main')).find((w) => w.context && w.context.path === path);
    const s = w && w.sessionContext;
    return !!(s && s.session && s.session.kernel && s.session.kernel.connectionStatus === 'connected'
              && s.session.kernel.status === 'idle');
}"""
_CLEAN_JS = """() => {
    for (const w of Array.from(window.jupyterapp.shell.widgets('main'))) {
        if (w.context && w.context.model) w.context.model.dirty = false;
    }
}"""



EXECUTE_JS = """async (code) => {
    const w = window.jupyterapp.shell.currentWidget;
    const future = w.sessionContext.session.kernel.requestExecute({code, store_history: false});
    let out = "";
    future.onIOPub = (msg) => {
        if (msg.header.msg_type === "stream") out += msg.content.text;
        if (msg.header.msg_type === "error") out += `ERROR ${msg.content.ename}: ${msg.content.evalue}`;
    };
    await future.done;
    return out;
}"""
"""Runs ``code`` (the argument) in the current notebook's kernel, not as a cell, in JupyterLab or
JupyterLite; returns its printed text and ``ERROR name: value`` if it raised."""

class Tab:
    """One browser tab on a server of the site."""

    def __init__(self, browser: Browser, server, name: str) -> None:
        self.probe = browser.new_page(name)
        self.page = self.probe.page
        self.server = server
        self.path: str | None = None
        self.started = 0.0
        self.marks = (0, 0, 0)

    def load(self, path: str, timeout: float = 180) -> None:
        """Start opening ``path`` (e.g. ``en/03-work-queue.ipynb``) by its URL, as a learner
        opening a lesson's link; returns once the page is there, the kernel starts meanwhile."""
        if self.path is not None:
            self.forget()
        p = self.probe
        self.marks = (len(p.console_errors), len(p.page_errors), len(p.failed_requests))
        self.path, self.started = path, time.perf_counter()
        self.page.goto(lite.start_url(self.server, path), wait_until="domcontentloaded", timeout=timeout * 1000)

    def wait(self, timeout: float = 180) -> tuple[Notebook, dict[str, float]]:
        """Wait until the notebook is shown and its kernel idle; seconds since :meth:`load`."""
        self.page.bring_to_front()
        self.page.wait_for_function(_OPEN_JS, arg=self.path, timeout=timeout * 1000)
        shown = time.perf_counter() - self.started
        self.page.wait_for_function(_IDLE_JS, arg=self.path, timeout=timeout * 1000)
        idle = time.perf_counter() - self.started
        return Notebook(self.probe, self.path), {"shown": round(shown, 2), "kernel_idle": round(idle, 2)}

    def forget(self) -> None:
        """Leave the app and clear what JupyterLite keeps in the browser (workspace, edits), so
        the next page starts as a first visit; the HTTP cache stays, as a learner's would, and so
        do the service worker's registration (never cleared) and JupyterLite's record of its
        version (``<script URL>-version`` in localStorage): without the record, each next page
        unregistered the service worker and registered it again, which sometimes stalled until
        the page was left, and its kernel then started without the site's files."""
        self.page.evaluate(_CLEAN_JS)  # no "changes not saved" question when leaving
        self.page.goto(f"http://127.0.0.1:{self.server.server_address[1]}/jupyter-lite.json")
        self.page.evaluate("""async () => {
            const kept = Object.keys(localStorage).filter((k) => /service-worker[.]js.*-version$/.test(k))
                .map((k) => [k, localStorage.getItem(k)]);
            localStorage.clear(); sessionStorage.clear();
            for (const [k, v] of kept) localStorage.setItem(k, v);
            for (const db of await indexedDB.databases()) {
                await new Promise((done, fail) => {
                    const req = indexedDB.deleteDatabase(db.name);
                    req.onsuccess = done; req.onerror = fail; req.onblocked = fail;
                });
            }
        }""")

    def problems(self) -> list[str]:
        """Widget errors on the page, and console errors, page errors and failed requests since :meth:`load`."""
        p = self.probe
        ce, pe, fr = self.marks
        return ([f"widget: {e}" for e in p.widget_errors()]
                + [f"console: {e}" for e in p.console_errors[ce:]]
                + [f"pageerror: {e}" for e in p.page_errors[pe:]]
                + [f"request failed: {e}" for e in p.failed_requests[fr:]])


class LiteTabs:
    """Opens notebooks one after the other, each by its URL in a fresh page with a fresh kernel.

    One tab, one lesson at a time. (Loading the next lesson in a second tab while one runs saved
    a third of the time, but on 2 busy cores it starved the running page: anywidget gives a
    widget 2 s to initialise, and "[anywidget] Failed to initialize model" followed.)
    """

    def __init__(self, browser: Browser, site: Path, outside: list[str] | None = None) -> None:
        self.server = serve(site)
        self.current = Tab(browser, self.server, "lite")
        self.outside = outside if outside is not None else []

    @property
    def probe(self) -> Probe:
        """The probe of the tab."""
        return self.current.probe

    def open(self, path: str, timeout: float = 180) -> tuple[Notebook, dict[str, float]]:
        """Open ``path`` (e.g. ``en/03-work-queue.ipynb``) and wait until its kernel is idle."""
        self.current.load(path, timeout)
        return self.current.wait(timeout)

    def execute(self, code: str, timeout: float = 60) -> str:
        """Run ``code`` in the open notebook's kernel (not as a cell); its printed text, and
        ``ERROR name: value`` if it raised."""
        return self.current.page.evaluate(EXECUTE_JS, code)

    def problems(self) -> list[str]:
        """The tab's problems since its notebook was loaded (:meth:`Tab.problems`)."""
        return self.current.problems()

    def pyodide_url(self) -> str:
        """The URL the kernel loads Pyodide from, as the running page has it configured."""
        return self.current.page.evaluate(
            """() => new URL(JSON.parse(document.getElementById('jupyter-config-data').textContent)
                 .litePluginSettings['@jupyterlite/pyodide-kernel-extension:kernel'].pyodideUrl,
                 document.baseURI).href""")

    def close(self) -> None:
        self.current.probe.close()
        self.server.shutdown()


# ------------------------------------------------------------------------------ checked outputs


def sanitizers() -> list[tuple[re.Pattern, str]]:
    """The regex/replace pairs of tests/nbval-sanitize.cfg, read as nbval reads them."""
    text = SANITIZE.read_text(encoding="utf-8")
    return [(re.compile(rx), rep) for rx, rep in re.findall(r"^regex: (.*)$\n^replace: (.*)$", text, re.M)]


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def normalized(outputs: list[dict]) -> list[tuple[str, str]]:
    """Outputs as nbval compares them: consecutive streams of one name joined, each data output
    by mimetype (widget views, figures and HTML left out), errors by name; sanitized."""
    subs = sanitizers()
    out: list[tuple[str, str]] = []
    for o in outputs:
        kind = o.get("output_type")
        if kind == "stream":
            name = f"stream:{o.get('name', 'stdout')}"
            if out and out[-1][0] == name:
                out[-1] = (name, out[-1][1] + _text(o.get("text", "")))
            else:
                out.append((name, _text(o.get("text", ""))))
        elif kind in ("execute_result", "display_data"):
            for mime, value in sorted(o.get("data", {}).items()):
                if mime not in SKIP_MIME:
                    out.append((mime, value if isinstance(value, str | list) and _text(value) else json.dumps(value)))
        elif kind == "error":
            out.append(("error", f"{o.get('ename')}: {o.get('evalue')}"))
    cleaned = []
    for kind, value in out:
        value = _text(value)
        for rx, rep in subs:
            value = rx.sub(rep, value)
        cleaned.append((kind, value))
    return cleaned


def checked_cells(notebook: Path) -> dict[int, list[dict]]:
    """{cell index: stored outputs} of the cells marked ``# NBVAL_CHECK_OUTPUT`` in a lesson file:
    the outputs it shows, or those it keeps out of sight after the first exercise
    (``metadata.k8sjobs.outputs``, tools/build_lessons.py)."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    return {i: c.get("outputs") or kept_outputs(c) or [] for i, c in enumerate(nb["cells"])
            if c["cell_type"] == "code" and "# NBVAL_CHECK_OUTPUT" in _text(c["source"])}


def kept_cells(notebook: Path) -> list[int]:
    """Indexes of the cells of a lesson file that keep their outputs out of sight (after the
    first exercise: committed unrun, outputs in ``metadata.k8sjobs.outputs``)."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    return [i for i, c in enumerate(nb["cells"]) if kept_outputs(c) is not None]


def kept_outputs(cell: dict) -> list[dict] | None:
    """The outputs a lesson's cell keeps out of sight (``metadata.k8sjobs.outputs``), or None."""
    return cell.get("metadata", {}).get("k8sjobs", {}).get("outputs")


def compare_checked(notebook: Path, cells: list[dict]) -> tuple[int, list[str]]:
    """Compare the checked cells of ``notebook`` with ``cells`` (harness ``RunResult.cells``):
    (how many were compared, a description of each difference)."""
    got = {c["index"]: c["outputs"] for c in cells}
    diffs = []
    stored = checked_cells(notebook)
    for index, outputs in stored.items():
        want, have = normalized(outputs), normalized(got.get(index, []))
        if want != have:
            diffs.append(f"cell {index}: stored {want!r}\n    the site printed {have!r}")
    return len(stored), diffs
