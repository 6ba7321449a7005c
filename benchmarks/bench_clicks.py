"""From a click to the repainted figure, in Chromium: JupyterLab and the JupyterLite site.

    .venv/bin/python benchmarks/bench_clicks.py [--apps lab,lite] [--clicks 12] [--json FILE]
        [--code CHECKOUT] [--site SITE]     # to compare: another checkout's k8sjobs, another built site

(The ``lite`` part needs a built site: ``sh tools/lite.sh``.) What a learner feels on a click is
not the kernel's time alone: it is the click's message to the kernel, the kernel's step, the
widget messages back (their size), and plotly redrawing the figure. Each measurement is timed
in the page with ``performance.now()``: from the pointer going down on the control to the frame
after the last change of the dashboard's figures (a MutationObserver on the views; a change is
final when nothing more changed for 400 ms, which is not counted).

Scenarios, each for JupyterLab (the browser tests' harness: tests/browser/harness.py) and for
JupyterLite (tests/lite/litepage.py), on the start page (``notebooks/en/00-start-here.ipynb``,
its dashboard: timeline and counts side by side) after "run all":

* **start page: Step**, **Back** (alternating, from cycle 0: the first Step draws the first pod
  and the counts' lines into figures that had none);
* **start page: Step/Back, cycles 1-N**: Step from cycle 1 to the pi Job's last cycle and Back
  again (the kernel's time: Step, Step, Back, Back from cycle 1);
* **1,000 pods: Step** (alternating with Back): a dashboard of every view (tabs), added in a cell
  of its own, on a Job of 2,000 completions at parallelism 1,000 (10 nodes), at the first
  cycle with 1,000 active pods (as benchmarks/bench_widgets.py);
* **1,000 pods: fault (fork)**: *Add node* at that cycle (the run forks there), then *Back*. The
  forked run is the same up to this cycle, so no figure changes (the dashboard sends none since
  it compares with what it drew): the click's answer is the status line, and the time printed;
* **1,000 pods: slider drag**: the slider's handle dragged across 100 cycles (100 mouse moves)
  and let go: time from letting go, the seeks the kernel did, and the figure repaints counted
  from the drag's start (stale ones: figures of positions other than the last);
* **1,000 pods: switch tab**: after a Step, the Counts tab opened (or the Timeline), its figure
  brought to the cycle.

For each: median and p95 (ms) of the click to the repainted figure, and where it went: to the
status line changing (the kernel's first answer), to the figure's first change, the kernel's
own time (the same action run in the kernel, ``perf_counter``) and the bytes of widget messages
it sends. Prints ``uptime`` before and after (the machine is shared). Not a timed test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "lite"), str(ROOT / "tests" / "browser"), str(ROOT)]

from litepage import EXECUTE_JS  # noqa: E402  (tests/lite/litepage.py)

from tests.manifests import DURATION, job_manifest  # noqa: E402

START_PAGE = "notebooks/en/00-start-here.ipynb"
BIG = job_manifest("wide", completions=2000, parallelism=1000, annotations={DURATION: "30s..60s"}, container="worker")
SETTLE_MS = 400

BIG_CELL = f"""
from k8sjobs import Explorer, Run
BIG = {BIG!r}
_busy = [c.index for c in Run(BIG, seed=0, nodes=10).cycles if c.after.active >= 1000]
big = Explorer(BIG, seed=0, nodes=10, start_cycle=_busy[0])
big
"""

# In the page: arm(root) watches the dashboard number `root` (.k8sjobs-explorer), notes the time
# the pointer goes down (capture phase, before any widget sees it) and every change of its status
# line and of its views; done() resolves once the views have changed and then stayed still.
ARM_JS = """([root, settle]) => {
  const ex = document.querySelectorAll('.k8sjobs-explorer')[root];
  const views = ex.querySelector('.k8sjobs-views');
  const status = ex.querySelector('.k8sjobs-status');
  const m = { t0: null, status: null, first: null, last: null, painted: null, changes: 0, titles: [] };
  // a figure's title: HTML above it (viz.outside), or inside plotly (.gtitle) in a checkout before that
  const title = () => Array.from(views.querySelectorAll('.k8sjobs-figure-title, .js-plotly-plot .gtitle'))
      .filter((el) => (el.closest('.js-plotly-plot') ?? el).offsetParent !== null).map((el) => el.textContent).join(' | ');
  const obs = new MutationObserver((records) => {
    const t = performance.now();
    for (const r of records) {
      if (status.contains(r.target)) { if (m.status === null) m.status = t; continue; }
      if (!views.contains(r.target)) continue;
      if (m.first === null) m.first = t;
      m.last = t; m.changes += 1;
    }
    if (m.last === t) {
      const now = title();
      if (m.titles[m.titles.length - 1] !== now) m.titles.push(now);
      requestAnimationFrame(() => { if (m.last === t) m.painted = performance.now(); });
    }
  });
  obs.observe(ex, { subtree: true, childList: true, attributes: true, characterData: true });
  const down = () => { if (m.t0 === null) m.t0 = performance.now(); };
  document.addEventListener('pointerdown', down, { capture: true });
  window.__k8sjobsClick = { m, stop: () => { obs.disconnect(); document.removeEventListener('pointerdown', down, { capture: true }); } };
  window.__k8sjobsClick.done = (timeoutMs, from) => new Promise((resolve) => {
    const start = performance.now();
    const tick = () => {
      const now = performance.now();
      // done: the views changed and then stayed still, or (a click that changes nothing drawn, such
      // as a fault whose effect comes at the next cycle) the status line answered and no view changed
      const still = (m.last !== null && m.painted !== null && now - m.last >= settle)
          || (m.last === null && m.status !== null && now - m.status >= settle);
      if (still || now - start > timeoutMs) {
        window.__k8sjobsClick.stop();
        const t0 = from === 'up' ? m.up : m.t0;
        const rel = (x) => (x === null || t0 === null || t0 === undefined ? null : Math.round((x - t0) * 10) / 10);
        resolve({ painted: rel(m.painted), status: rel(m.status), first: rel(m.first), last: rel(m.last),
                  changes: m.changes, titles: m.titles, timedOut: !still, unchanged: m.last === null });
      } else setTimeout(tick, 50);
    };
    tick();
  });
}"""

ADD_CELL_JS = """async (code) => {
    const app = window.jupyterapp;
    const panel = app.shell.currentWidget;
    const nb = panel.content;
    nb.model.sharedModel.insertCell(nb.model.cells.length, {cell_type: 'code', source: code});
    nb.activeCellIndex = nb.model.cells.length - 1;
    await app.commands.execute('notebook:run-cell');
}"""

# The kernel's side of the same clicks: perf_counter around the dashboard's own methods, and the
# bytes of the widget messages they send (ipywidgets' Widget._send, as serialised to JSON).
KERNEL_METER = """
import json as _json, statistics as _st, time as _time
import ipywidgets as _W
if not hasattr(_W.Widget, "_k8sjobs_meter"):
    _W.Widget._k8sjobs_meter = [0, 0]
    _orig_send = _W.Widget._send
    def _metered_send(self, msg, buffers=None):
        _W.Widget._k8sjobs_meter[0] += len(_json.dumps(msg, separators=(",", ":"), default=str))
        _W.Widget._k8sjobs_meter[0] += sum(len(b) for b in (buffers or ()))
        _W.Widget._k8sjobs_meter[1] += 1
        return _orig_send(self, msg, buffers)
    _W.Widget._send = _metered_send
def _kernel_clicks(actions, n):
    times, sizes, msgs = [], [], []
    for i in range(n):
        f = actions[i % len(actions)]
        _W.Widget._k8sjobs_meter[:] = [0, 0]
        t = _time.perf_counter()
        f()
        times.append((_time.perf_counter() - t) * 1000)
        sizes.append(_W.Widget._k8sjobs_meter[0] / 1024)
        msgs.append(_W.Widget._k8sjobs_meter[1])
    print(_json.dumps({"ms": _st.median(times), "kib": _st.median(sizes), "msgs": _st.median(msgs)}))
"""


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


class Clicks:
    """Measures clicks on one open notebook page (JupyterLab or JupyterLite)."""

    def __init__(self, page) -> None:
        self.page = page

    def execute(self, code: str) -> str:
        out = self.page.evaluate(EXECUTE_JS, code)
        if "ERROR" in out:
            raise RuntimeError(out)
        return out

    def explorer_count(self) -> int:
        return self.page.evaluate("() => document.querySelectorAll('.k8sjobs-explorer').length")

    def scroll_to(self, root: int) -> None:
        self.page.evaluate("(i) => document.querySelectorAll('.k8sjobs-explorer')[i].scrollIntoView()", root)
        self.page.wait_for_timeout(500)

    def measure(self, root: int, act, from_: str = "down", timeout_ms: float = 60_000) -> dict:
        self.page.evaluate(ARM_JS, [root, SETTLE_MS])
        act()
        return self.page.evaluate("([t, f]) => window.__k8sjobsClick.done(t, f)", [timeout_ms, from_])

    def button(self, root: int, css: str):
        return self.page.locator(".k8sjobs-explorer").nth(root).locator(css).first

    def click(self, root: int, css: str) -> dict:
        loc = self.button(root, css)
        return self.measure(root, lambda: loc.click())

    def kernel(self, actions: str, n: int) -> dict:
        out = self.execute(f"_kernel_clicks([{actions}], {n})")
        return json.loads(out.strip().splitlines()[-1])

    def drag_slider(self, root: int, cycles: int) -> dict:
        """Drag the cycle slider's handle ``cycles`` cycles to the right in 100 moves and let go."""
        ex = self.page.locator(".k8sjobs-explorer").nth(root)
        track = ex.locator(".k8sjobs-cycle .noUi-base, .k8sjobs-cycle .slider-container").first.bounding_box()
        handle = ex.locator(".k8sjobs-cycle .noUi-handle").first.bounding_box()
        lo, hi = (int(float(x)) for x in self.page.evaluate(
            "(i) => { const s = document.querySelectorAll('.k8sjobs-explorer')[i].querySelector('.k8sjobs-cycle .noUi-handle');"
            " return [s.getAttribute('aria-valuemin'), s.getAttribute('aria-valuemax')]; }", root))
        x0, y = handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2
        dx = track["width"] * cycles / max(1, hi - lo)
        mouse = self.page.mouse
        self.page.evaluate("() => { window.__k8sjobsUp = null; document.addEventListener('pointerup', "
                           "() => { window.__k8sjobsUp = performance.now(); }, { capture: true, once: true }); }")

        def act():
            mouse.move(x0, y)
            mouse.down()
            for i in range(1, 101):
                mouse.move(x0 + dx * i / 100, y)
            mouse.up()

        self.page.evaluate(ARM_JS, [root, SETTLE_MS])
        act()
        self.page.evaluate("() => { window.__k8sjobsClick.m.up = window.__k8sjobsUp; }")
        return self.page.evaluate("([t, f]) => window.__k8sjobsClick.done(t, f)", [60_000, "up"])

    def tab(self, root: int, index: int) -> dict:
        loc = self.page.locator(".k8sjobs-explorer").nth(root).locator(".k8sjobs-views .lm-TabBar-tab").nth(index)
        return self.measure(root, lambda: loc.click())


def scenarios(c: Clicks, clicks: int, start_only: bool = False) -> dict[str, dict]:
    """Every scenario on the open start page (run all done); {name: figures}."""
    out: dict[str, dict] = {}
    c.execute(KERNEL_METER)
    # -- the start page's dashboard (the first on the page)
    c.scroll_to(0)
    rows = [c.click(0, ".k8sjobs-step" if i % 2 == 0 else ".k8sjobs-back") for i in range(clicks)]
    out["start page: Step"] = {"clicks": rows[0::2]}
    out["start page: Back"] = {"clicks": rows[1::2]}
    k = c.kernel("dashboard.step, dashboard.back", clicks)
    out["start page: Step"]["kernel"] = out["start page: Back"]["kernel"] = k
    # the pi Job's later cycles: Step from cycle 1 to its last and Back again, twice (each figure has
    # its pod bar and the counts their lines on both sides of the click)
    c.execute("dashboard.seek(1); _last = len(dashboard.state.trace.cycles)")
    c.page.wait_for_timeout(800)
    last = int(c.execute("print(_last)").strip())
    later = []
    for _ in range(max(1, clicks // (2 * (last - 1)))):
        later += [c.click(0, ".k8sjobs-step") for _ in range(1, last)]
        later += [c.click(0, ".k8sjobs-back") for _ in range(1, last)]
    out[f"start page: Step/Back, cycles 1-{last}"] = {
        "clicks": later, "kernel": c.kernel("dashboard.step, dashboard.step, dashboard.back, dashboard.back", clicks)}
    c.execute("dashboard.seek(0)")
    if start_only:
        return out

    # -- a dashboard with 1,000 active pods, in a cell of its own
    c.page.evaluate(ADD_CELL_JS, BIG_CELL)
    c.page.wait_for_function("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'",
                             timeout=300_000)
    last = c.page.evaluate("() => { const cells = window.jupyterapp.shell.currentWidget.content.model.cells;"
                           " return JSON.stringify(cells.get(cells.length - 1).toJSON().outputs).slice(0, 2000); }")
    if '"error"' in last:
        raise SystemExit(f"the 1,000-pod dashboard failed: {last}")
    big = c.explorer_count() - 1
    c.scroll_to(big)
    c.page.wait_for_function("(i) => !!document.querySelectorAll('.k8sjobs-explorer')[i]?.querySelector('.js-plotly-plot .main-svg')",
                             arg=big, timeout=120_000)
    c.scroll_to(big)
    c.page.wait_for_timeout(1500)
    rows = [c.click(big, ".k8sjobs-step" if i % 2 == 0 else ".k8sjobs-back") for i in range(clicks)]
    out["1,000 pods: Step"] = {"clicks": rows[0::2], "kernel": c.kernel("big.step, big.back", clicks)}

    # fault: Add node (forks the run at this cycle), then Reset and back to that cycle (not timed)
    forks = []
    for _ in range(max(3, clicks // 3)):
        forks.append(c.click(big, "button:has-text('Add node')"))
        c.execute("big.reset(); big.seek(_busy[0])")
        c.page.wait_for_timeout(800)
    out["1,000 pods: fault (fork)"] = {"clicks": forks,
                                       "kernel": c.kernel("lambda: big.act('add_node'), lambda: (big.reset(), big.seek(_busy[0]))", 6)}

    # slider: dragged across 100 cycles, then back (each measured from letting go)
    drags = []
    for _ in range(3):
        c.execute("big.seek(_busy[0])")
        c.scroll_to(big)
        c.page.wait_for_timeout(800)
        drags.append(c.drag_slider(big, 100))
    seeks = c.execute("print(big.state.cycle, _busy[0])").split()
    out["1,000 pods: slider drag (100 cycles)"] = {"clicks": drags, "landed": seeks}

    # tabs: Step on the timeline, then open Counts; Step, back to the Timeline...
    c.execute("big.seek(_busy[0])")
    c.scroll_to(big)
    c.page.wait_for_timeout(800)
    tabs = []
    for i in range(max(4, clicks // 2)):
        c.click(big, ".k8sjobs-step" if i % 2 == 0 else ".k8sjobs-back")
        tabs.append(c.tab(big, 1 if i % 2 == 0 else 0))
    out["1,000 pods: switch tab"] = {"clicks": tabs[1:], "first_open": tabs[0]}
    return out


def run_lab(clicks: int, code: Path, start_only: bool = False) -> dict:
    from harness import Browser, JupyterLab

    # the kernels import this checkout's k8sjobs (or --code's), not the one the venv has installed
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(code), os.environ.get("PYTHONPATH")]))
    with JupyterLab() as lab, Browser() as browser:
        probe = browser.new_page("bench-clicks-lab")
        nb = lab.open_notebook(probe, START_PAGE)
        result = nb.run_all(timeout=300)
        if not result.ok:
            raise SystemExit(f"the start page failed in JupyterLab: {result.errors}")
        try:
            where = Clicks(probe.page).execute("import k8sjobs; print(k8sjobs.__file__)").strip()
            if not where.startswith(str(code)):
                raise SystemExit(f"the kernel imports {where}, not {code}'s k8sjobs")
            return scenarios(Clicks(probe.page), clicks, start_only)
        finally:
            probe.close()


def run_lite(clicks: int, site: Path, start_only: bool = False) -> dict:
    import litepage

    with litepage.Browser() as browser:
        tabs = litepage.LiteTabs(browser, site, outside=litepage.watch_outside(browser.context))
        try:
            notebook, _ = tabs.open(litepage.lite.START)
            result = notebook.run_all(timeout=300)
            if not result.ok:
                raise SystemExit(f"the start page failed in JupyterLite: {result.errors}")
            return scenarios(Clicks(tabs.current.page), clicks, start_only)
        finally:
            tabs.close()


def report(app: str, res: dict) -> list[str]:
    lines = [f"\n{app}: click -> repainted figure, ms (median / p95 over n); where it went (medians)",
             f"  {'scenario':<38} {'median':>7} {'p95':>7} {'n':>3}   {'status':>7} {'1st fig':>7}"
             f"   kernel ms  KiB sent  msgs"]
    for name, r in res.items():
        rows = [x for x in r["clicks"] if x["painted"] is not None and not x["timedOut"]]
        painted = [x["painted"] for x in rows]
        answered = [x["status"] for x in r["clicks"] if x.get("unchanged") and not x["timedOut"] and x["status"] is not None]
        if answered and not painted:
            lines.append(f"  {name:<38} {statistics.median(answered):7.0f} {percentile(answered, 0.95):7.0f} "
                         f"{len(answered):3d}   (no figure changes: the click's answer is the status line)")
            continue
        if not painted:
            lines.append(f"  {name:<38} no repaint seen: {r['clicks'][:1]}")
            continue
        st = [x["status"] for x in rows if x["status"] is not None]
        first = [x["first"] for x in rows if x["first"] is not None]
        k = r.get("kernel")
        kern = f"{k['ms']:10.1f} {k['kib']:9.1f} {k['msgs']:5.0f}" if k else ""
        lines.append(f"  {name:<38} {statistics.median(painted):7.0f} {percentile(painted, 0.95):7.0f} "
                     f"{len(painted):3d}   {statistics.median(st) if st else float('nan'):7.0f} "
                     f"{statistics.median(first) if first else float('nan'):7.0f}   {kern}")
        if "landed" in r:
            frames = [len(x["titles"]) for x in r["clicks"]]
            lines.append(f"    slider: kernel at cycle {r['landed'][0]} after the drags (from {r['landed'][1]}); "
                         f"distinct figure pictures painted per drag: {frames}; last titles: "
                         f"{[x['titles'][-1:] for x in r['clicks']][:1]}")
        if "first_open" in r and r["first_open"]["painted"] is not None:
            lines.append(f"    the tab's first opening (figure built): {r['first_open']['painted']:.0f} ms")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--apps", default="lab,lite", help="lab, lite, lab,lite or both (default: both)")
    parser.add_argument("--clicks", type=int, default=12, help="clicks per scenario pair (default 12)")
    parser.add_argument("--start-only", action="store_true", help="only the start page's scenarios")
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout whose k8sjobs JupyterLab's kernel imports")
    parser.add_argument("--site", type=Path, default=ROOT / "_site", help="the JupyterLite site (default: _site/)")
    args = parser.parse_args()
    apps = ["lab", "lite"] if args.apps == "both" else [a for a in args.apps.split(",") if a]
    unknown = sorted(set(apps) - {"lab", "lite"})
    if unknown or not apps:
        parser.error(f"--apps: {', '.join(unknown) or 'nothing'} is not an app; give lab, lite, lab,lite or both")
    print(f"uptime before: {uptime()}", flush=True)
    figures: dict = {}
    for app in apps:
        t0 = time.perf_counter()
        figures[app] = (run_lab(args.clicks, args.code.resolve(), args.start_only) if app == "lab"
                        else run_lite(args.clicks, args.site.resolve(), args.start_only))
        print("\n".join(report({"lab": "JupyterLab", "lite": "JupyterLite"}[app], figures[app])), flush=True)
        print(f"  ({time.perf_counter() - t0:.0f} s; uptime: {uptime()})", flush=True)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
