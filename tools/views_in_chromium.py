"""Draw view figures in Chromium and measure what is cut or overlaps (a measuring tool, not a test).

The fit tests (``tests/viz/test_views_fit.py``) compute where the views' words go from
``text_px``; this draws the same figures with plotly.js in Debian's Chromium (the bundle that
ships with the plotly package, no network) at the widths a notebook gives them and reads
the boxes of the drawn text back, so a change can be measured before and after:

    .venv/bin/python tools/views_in_chromium.py counts backoff ownership timeline
    .venv/bin/python tools/views_in_chromium.py backoff --lang ru --width 380 --shots artifacts/views

For each figure it reports the plot's size, text cut at the figure's edge, trace text cut at
the plot's edge (plotly clips it there), rotated tick labels and the pairs of words drawn over
each other, then a summary per view, language and width. ``--shots DIR`` saves a PNG of each.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "viz")]

import plotly  # noqa: E402

from k8sjobs import set_language, viz  # noqa: E402

CHROMIUM = os.environ.get("K8SJOBS_CHROMIUM", "/usr/bin/chromium")
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"

# Reads every drawn word's box (pixels from the figure's top left) and what kind of word it is.
MEASURE_JS = r"""
(gd) => {
  const root = gd.getBoundingClientRect();
  const fl = gd._fullLayout, sz = fl._size;
  const kind = (el) => {
    const up = (sel) => el.closest(sel) !== null;
    if (up('.g-gtitle')) return el.classList.contains('gtitle-subtitle') ? 'subtitle' : 'title';
    if (up('.g-xtitle')) return 'xtitle';
    if (up('.g-ytitle')) return 'ytitle';
    if (up('.xtick')) return 'xtick';
    if (up('.ytick')) return 'ytick';
    if (up('.legend')) return 'legend';
    if (up('.annotation')) return 'annotation';
    if (up('.textpoint')) return 'point';
    if (el.classList.contains('bartext')) return 'bar';
    return 'other';
  };
  const texts = [];
  for (const el of gd.querySelectorAll('svg text')) {
    if (!el.textContent.trim()) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const rot = /rotate\((-?[\d.]+)/.exec(el.getAttribute('transform') || '');
    let trace = null;
    const g = el.closest('.trace');
    if (g && g.__data__ && g.__data__[0] && g.__data__[0].trace) trace = g.__data__[0].trace.name;
    texts.push({kind: kind(el), text: el.textContent, trace, rot: rot ? +rot[1] : 0,
                l: r.left - root.left, t: r.top - root.top, r: r.right - root.left, b: r.bottom - root.top});
  }
  const m = gd.layout.margin || {};
  const asked = gd.layout.height - (m.t ?? 100) - (m.b ?? 80);
  return {width: fl.width, height: fl.height, plot: {l: sz.l, t: sz.t, w: sz.w, h: sz.h}, asked, texts};
}
"""


def overlap(a: dict, b: dict) -> float:
    """Pixels two boxes share across (0 when apart), if they share more than 1 px down too."""
    w = min(a["r"], b["r"]) - max(a["l"], b["l"])
    h = min(a["b"], b["b"]) - max(a["t"], b["t"])
    return round(w, 1) if w > 1 and h > 1 else 0.0


def findings(m: dict) -> dict:
    """What is wrong in one drawn figure: cut words, rotated ticks, words over words."""
    W, H, p = m["width"], m["height"], m["plot"]
    cut, clipped, over = [], [], []
    for x in m["texts"]:
        past = max(-x["l"], x["r"] - W, -x["t"], x["b"] - H)
        if past > 0.5 and x["kind"] != "legend":
            cut.append((x["kind"], x["text"], round(past, 1)))
        if x["kind"] == "point":  # plotly clips a scatter's text at the plot's edges
            past = max(p["l"] - x["l"], x["r"] - (p["l"] + p["w"]))
            if past > 0.5:
                clipped.append((x["trace"], x["text"], round(past, 1)))
    texts = [x for x in m["texts"] if x["kind"] not in ("bar",)]
    for i, a in enumerate(texts):
        for b in texts[i + 1:]:
            if a["kind"] == b["kind"] == "legend" or {a["kind"], b["kind"]} == {"xtick", "ytick"}:
                continue
            w = overlap(a, b)
            if w:
                over.append((a["kind"], a["text"], b["kind"], b["text"], w))
    rotated = sum(1 for x in m["texts"] if x["kind"] == "xtick" and x["rot"])
    return {"plot_w": round(p["w"]), "plot_h": round(p["h"]), "squeezed": max(0, round(m["asked"] - p["h"])),
            "cut": cut, "clipped": clipped,
            "overlaps": over, "rotated_ticks": rotated}


def draw(cases, shots: Path | None = None):
    """``cases``: (name, figure, width) triples; yields (name, width, findings)."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="k8v-", dir="/tmp") as tmp, sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            Path(tmp) / "p", executable_path=CHROMIUM, headless=True,
            args=["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--disable-background-networking", "--disable-extensions"],
            viewport={"width": 1000, "height": 1200}, locale="en-US")
        ctx.route("**/*", lambda route: route.abort() if not route.request.url.startswith(("about:", "data:"))
                  else route.continue_())
        page = ctx.new_page()
        page.set_content("<html><body style='margin:0'><div id='gd'></div></body></html>")
        page.add_script_tag(path=str(PLOTLY_JS))
        for name, fig, width in cases:
            spec = json.loads(fig.to_json())
            spec["layout"]["width"] = width
            spec["layout"]["autosize"] = False
            page.evaluate("""async ([data, layout]) => {
                const gd = document.getElementById('gd');
                gd.style.width = layout.width + 'px';
                Plotly.purge(gd);
                await Plotly.newPlot(gd, data, layout, {staticPlot: true});
            }""", [spec["data"], spec["layout"]])
            m = page.evaluate(MEASURE_JS, page.query_selector("#gd"))
            if shots is not None:
                shots.mkdir(parents=True, exist_ok=True)
                page.locator("#gd").screenshot(path=str(shots / f"{name}-{width}.png"))
            yield name, width, m
        ctx.close()


def _cycles(n: int) -> list[int]:
    return sorted({1, n // 3, n // 2, 2 * n // 3, n} - {0})


def cases_for(view: str, lang: str, widths: list[int]):
    """The figures each problem was seen in (scenarios of tests/viz/viz_scenarios.py)."""
    import viz_scenarios as S

    set_language(lang)
    if view == "ownership":
        # More than 60 pods (grouped by node and phase: big*), and the few-pod scenarios.
        runs = {"big": S.big().trace, "big3": _big_run(3).trace, "big20": _big_run(20).trace,
                **{n: S.ALL[n]().trace for n in ("scale_down", "quota", "backoff", "indexed", "mixed_scale_down")}}
    elif view == "backoff":
        runs = {n: S.ALL[n]().trace for n in ("backoff", "backoff_cap", "per_index")}
    elif "Job" not in viz.REGISTRY[view].kinds:
        import cron_scenarios as C  # a CronJob's views: the CronJob scenarios of tests/viz

        runs = {n: C.trace(n) for n in C.ALL}
    else:
        runs = {n: S.ALL[n]().trace for n in ("backoff", "backoff_cap", "per_index", "quota", "scale_down",
                                              "indexed", "lag", "elastic", "mixed_scale_down")}
    for run_name, trace in runs.items():
        cycles = _cycles(len(trace.cycles))
        if view == "ownership" and run_name.startswith("big"):
            cycles = [k for k in range(1, len(trace.cycles) + 1, max(1, len(trace.cycles) // 12))
                      if len(trace.state_at(k).pods) > 60][:6]
        for k in cycles:
            for w in widths:
                yield f"{view}-{lang}-{run_name}-{k}", viz.figure(view, trace, k, narrow=w < 800), w


def _big_run(nodes: int):
    import viz_scenarios as S

    from k8sjobs.trace import Run

    return Run(S.big_manifest(200, 100), seed=0, nodes=nodes)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("views", nargs="+")
    ap.add_argument("--lang", action="append", help="en, zh-CN, zh-TW, ru (default: en, zh-CN, ru)")
    ap.add_argument("--width", type=int, action="append", help="figure widths (default: 800 and 380)")
    ap.add_argument("--shots", type=Path, help="save a PNG of every figure here")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every finding")
    args = ap.parse_args()
    langs = args.lang or ["en", "zh-CN", "ru"]
    widths = args.width or [800, 380]
    cases = [c for v in args.views for lang in langs for c in cases_for(v, lang, widths)]
    summary: dict[tuple, Counter] = {}
    for name, width, m in draw(cases, args.shots):
        f = findings(m)
        view, lang = name.split("-")[0], "-".join(name.split("-")[1:-2])
        s = summary.setdefault((view, lang, width), Counter())
        s["figures"] += 1
        s["cut"] += len(f["cut"])
        s["clipped"] += len(f["clipped"])
        s["figures with overlaps"] += bool(f["overlaps"])
        s["overlaps"] += len(f["overlaps"])
        s["figures with rotated ticks"] += bool(f["rotated_ticks"])
        s["figures squeezed"] += f["squeezed"] > 2
        s["most squeezed"] = max(s.get("most squeezed", 0), f["squeezed"])
        s["min plot_h"] = min(s.get("min plot_h", 10**6), f["plot_h"])
        s["min plot_w"] = min(s.get("min plot_w", 10**6), f["plot_w"])
        if args.verbose and (f["cut"] or f["clipped"] or f["overlaps"] or f["rotated_ticks"] or f["squeezed"] > 2):
            print(name, width, json.dumps({k: v for k, v in f.items() if v}, ensure_ascii=False))
    for (view, lang, width), s in sorted(summary.items()):
        print(f"{view:10} {lang:6} {width:4}  " + ", ".join(f"{k} {v}" for k, v in s.items()))


if __name__ == "__main__":
    main()
