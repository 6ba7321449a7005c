"""The FigureWidget every k8sjobs dashboard and exercise draws into.

Two things plotly's own FigureWidget does not do well enough for a lesson page:

* **Loading.** plotly's widget code (about 5 MB of JavaScript with plotly.js inside) comes as the
  anywidget ``_esm`` of every figure, and anywidget imports it once per figure. Since 0.9 it
  also gives each figure 2 s to initialise; after that, the figure never takes another update.
  One import takes about 1.9 s on a 2-core CI machine, so a page that draws two
  figures at once (most lessons do) can end up with a figure frozen at its first picture. On a slow
  laptop that is what a learner would see. :class:`LiveFigureWidget` ships a small loader as
  its ``_esm`` and plotly's code as an ordinary trait. The loader imports plotly's code once
  per page for all figures, initialises at once (so anywidget's 2 s never run out), keeps the
  updates that arrive while plotly loads and replays them in order when it is ready.
* **Missing anywidget's 2 s anyway.** A figure created just before a long task (plotly's module
  evaluating, a busy laptop) can still miss it; anywidget then drops every message from the
  kernel to it, silently. So the figure's first message carries its first picture (plotly sets
  the data after ipywidgets opens the comm: the comm is opened after ``__init__``), and the
  loader hands the figure's later messages to ipywidgets itself (``keepListening``).
* **Fitting its place.** plotly sizes a figure once, when it is first drawn; a figure drawn
  before its place is laid out keeps plotly's 700 px. In a dashboard, the loader re-fits the
  figures when the dashboard's width changes, a figure appears or the dashboard comes into
  view. This used to be a helper anywidget of its own; under load (plotly's module evaluating
  for many seconds right after the figures are created) that helper missed anywidget's 2 s and
  the page logged "[anywidget] Failed to initialize model" (half the runs of lesson 15 with the
  page's CPU throttled 4x). A dashboard's only anywidgets are now its figures, whose loader
  initialises at once.
* **anywidget's 2 s itself.** :data:`ANYWIDGET_DEADLINE_JS`, in front of the loader's code, makes
  anywidget's own 2 s deadline 60 s for every widget created on the page after the first figure's
  code has run, so a figure created while the page is busy is not declared dead (no page error).
* **Quiet clicks.** :data:`QUIET_CLICKS_JS` keeps a mouse-down on a dashboard's button or tab
  from JupyterLab's notebook, which would make the dashboard's cell active and move the focus to
  the notebook: that restyled the whole notebook (about 1,700 elements) on a Step, 25-50 ms of the
  click. The button takes the focus, as a button does. And when Back (at cycle 0) or Step (at the
  last cycle) is disabled with the focus on it, the focus goes to the other one, not to the page.
* **Title and legend beside the plot.** A dashboard's figure carries its title and legend as HTML in
  ``layout.meta`` (:func:`k8sjobs.viz.outside`: plotly.js redrew them on every step); the loader
  writes them above and below the plot, on an update in the same task as plotly's redraw, and makes a
  click on a legend entry what a click on plotly's own legend is: the trace hidden (``legendonly``) or
  shown again, told to the kernel (which redraws it and keeps it so on later steps).
* **Current state.** plotly refreshes ``_widget_data``/``_widget_layout`` only on creation and
  on direct display; later updates travel as one-off messages. A front end that connects later
  (Voila after its execution pass, a reloaded page) asks for the full state, so it is refreshed
  then.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from copy import deepcopy

import plotly
import plotly.graph_objects as go
import traitlets

from ..viz import LEGEND_META, TITLE_META

_PLOTLY_ESM = str(go.FigureWidget._esm)
_PLOTLY_ESM_KEY = f"plotly-{plotly.__version__}-{hashlib.sha256(_PLOTLY_ESM.encode()).hexdigest()[:16]}"
_IDS = itertools.count(1)

# The Python side sends an update by setting one of these traits to the message and then
# back to None (plotly's protocol); plotly's own listeners read them in FigureModel.initialize.
_MESSAGES = ("_py2js_addTraces", "_py2js_deleteTraces", "_py2js_moveTraces", "_py2js_restyle", "_py2js_relayout",
             "_py2js_update", "_py2js_animate", "_py2js_removeLayoutProps", "_py2js_removeTraceProps")

ANYWIDGET_DEADLINE_JS = """
// anywidget (0.11) gives every widget 2 s of wall-clock time, from the creation of its model, to
// load its code and initialise (AbortSignal.timeout(2000) in its Runtime). A widget that misses it
// is dead for good: "[anywidget] Failed to initialize model.", its view is not drawn and it never
// takes another update from the kernel. On a busy page (plotly's 5 MB of code being evaluated, a
// slow laptop, a loaded 2-core machine) the 2 s run out while the widget's code is ready. Once the
// first k8sjobs widget's code has run, anywidget's own 2 s deadline (only anywidget's: its code is
// on the stack) becomes 60 s, for every widget created after it on the page.
if (!globalThis.__k8sjobsAnywidgetDeadline) {
  globalThis.__k8sjobsAnywidgetDeadline = true;
  const timeout = AbortSignal.timeout.bind(AbortSignal);
  AbortSignal.timeout = (ms) => timeout(ms === 2000 && /anywidget/.test(new Error().stack ?? "") ? 60000 : ms);
}
"""

QUIET_CLICKS_JS = """
// JupyterLab's notebook takes every mouse-down in a cell (capture phase) to select that cell and
// move the focus to the notebook. On a dashboard's buttons that restyled the whole notebook twice
// per click (its :focus and active-cell rules: about 1,700 elements, 25-50 ms in a trace of the
// start page's Step) before the kernel was even asked. A button (or tab) of a dashboard keeps the
// mouse-down to itself: it takes the focus as any button does, and the notebook does not take it first.
if (!globalThis.__k8sjobsQuietClicks) {
  globalThis.__k8sjobsQuietClicks = true;
  window.addEventListener("mousedown", (event) => {
    const t = event.target;
    if (t instanceof Element && t.closest(".k8sjobs-explorer button, .k8sjobs-explorer .lm-TabBar-tab")) event.stopPropagation();
  }, true);
  // Back at cycle 0 and Step at the last cycle are disabled, and a disabled button drops the focus
  // to the page: a keyboard learner lost their place. The focus goes to the other one.
  document.addEventListener("focusout", (event) => {
    const t = event.target;
    if (event.relatedTarget || !(t instanceof Element) || !t.matches(".k8sjobs-back, .k8sjobs-step")) return;
    requestAnimationFrame(() => {
      const active = document.activeElement;
      if (!t.disabled || !t.isConnected || (active && active !== document.body)) return;
      const other = t.closest(".k8sjobs-explorer")?.querySelector(t.matches(".k8sjobs-back") ? ".k8sjobs-step" : ".k8sjobs-back");
      if (other && !other.disabled) other.focus();
    });
  }, true);
}
"""

LOADER_ESM = ANYWIDGET_DEADLINE_JS + QUIET_CLICKS_JS + """
const MESSAGES = __MESSAGES__;
const TITLE_META = __TITLE_META__, LEGEND_META = __LEGEND_META__;
const pages = (globalThis.__k8sjobsPlotly ??= { modules: new Map(), figures: new Map() });

// A dashboard's figure carries its title and legend as HTML in layout.meta (viz.outside: plotly.js
// redrew them on every step). They are written above and below the plot when the figure is drawn
// and, on an update that changes them, in the same task as plotly's redraw (this listener runs first).
// A click on a legend entry hides or shows its trace as plotly's legend does ("legendonly"), through
// the kernel, which keeps it so on later steps.
function heads(model, el) {
  const head = document.createElement("div"), plot = document.createElement("div"), foot = document.createElement("div");
  head.className = "k8sjobs-figure-head"; foot.className = "k8sjobs-figure-legend";
  el.append(head, plot, foot);
  const pressed = () => {
    for (const b of foot.querySelectorAll(".k8sjobs-legend-item"))
      b.setAttribute("aria-pressed", String(plot.data?.[Number(b.dataset.trace)]?.visible !== "legendonly"));
  };
  const show = (layout) => {
    const meta = layout?.meta;
    if (!meta || !(TITLE_META in meta)) return;
    if (head.innerHTML !== meta[TITLE_META]) head.innerHTML = meta[TITLE_META];
    if (foot.dataset.html !== meta[LEGEND_META]) { foot.innerHTML = foot.dataset.html = meta[LEGEND_META] ?? ""; pressed(); }
  };
  show(model.get("_widget_layout"));
  const on = { "change:_py2js_update": () => show(model.get("_py2js_update")?.layout_data),
               "change:_py2js_relayout": () => show(model.get("_py2js_relayout")?.relayout_data) };
  for (const [name, fn] of Object.entries(on)) model.on(name, fn);
  foot.addEventListener("click", (event) => {
    const item = event.target instanceof Element ? event.target.closest(".k8sjobs-legend-item") : null;
    if (!item) return;
    const show = item.getAttribute("aria-pressed") === "false";
    item.setAttribute("aria-pressed", String(show));
    model.set("_js2py_restyle", { style_data: { visible: [show ? true : "legendonly"] },
      style_traces: [Number(item.dataset.trace)], source_view_id: null });
    model.save_changes();
  });
  return { plot, pressed, stop: () => { for (const [name, fn] of Object.entries(on)) model.off(name, fn); } };
}

// plotly's view answers every update from the kernel with the figure's whole computed layout
// and data, diffed against what the kernel sent (two messages back, which the kernel's figure
// uses only for plotly's computed defaults). The diffs ran before the browser could paint the
// update (about a tenth of a step's redraw); they now run after the next frame, in order.
function deferDeltas(View) {
  const proto = View && View.prototype;
  if (!proto || proto.__k8sjobsDeferred) return;
  for (const name of ["_sendLayoutDelta", "_sendTraceDeltas"]) {
    const send = proto[name];
    if (typeof send !== "function") continue;
    proto[name] = function (...args) { requestAnimationFrame(() => setTimeout(() => send.apply(this, args), 0)); };
  }
  proto.__k8sjobsDeferred = true;
  pages.deltasDeferred = true;
}

// plotly's widget module: imported once per page (per plotly version) for every figure; its
// default export is called once per figure, as anywidget would (it keeps per-figure state).
async function plotlyWidget(model) {
  const key = model.get("_k8sjobs_esm_key");
  if (!pages.modules.has(key)) {
    const url = URL.createObjectURL(new Blob([model.get("_k8sjobs_esm")], { type: "text/javascript" }));
    // Evaluating plotly's module blocks the page for about a second: first let the widgets
    // that are starting now finish (each has anywidget's 2 s), then import.
    const idle = new Promise((go) => (globalThis.requestIdleCallback ?? ((f) => setTimeout(f, 100)))(go, { timeout: 1000 }));
    pages.modules.set(key, idle.then(() => import(/* webpackIgnore: true */ url))
      .then((mod) => { deferDeltas(mod.FigureView); return mod; }).finally(() => URL.revokeObjectURL(url)));
  }
  const def = (await pages.modules.get(key)).default;
  return typeof def === "function" ? await def() : def;
}

// Fit: plotly sizes a figure once, when first drawn; drawn before its place is laid out (Voila
// renders progressively, a hidden tab is drawn when opened) it keeps plotly's 700 px. Figures
// are drawn with plotly's "responsive" config (re-fit on a window resize), so a dashboard
// (.k8sjobs-explorer) gets a resize event when its width changes or a figure appears, and at
// once when it comes into view (JupyterLab skips drawing off-screen cells). One watcher per
// dashboard, shared by its figures' views. (Not a widget of its own: every anywidget model has
// 2 s to load its module, and a busy page ran that out.)
const fits = new WeakMap();
function watchFit(el) {
  let root = null, frames = 0, stopped = false;
  const find = () => {
    if (stopped) return;
    root = el.closest(".k8sjobs-explorer");
    if (!root) { if (frames++ < 600) requestAnimationFrame(find); return; }
    let fit = fits.get(root);
    if (!fit) {
      let timers = [], last = -1;
      const resize = () => window.dispatchEvent(new Event("resize"));
      const soon = () => { timers.forEach(clearTimeout); timers = [200, 1000].map((ms) => setTimeout(resize, ms)); };
      const isPlot = (n) => n.nodeType === 1 && (n.classList.contains("js-plotly-plot") || !!n.querySelector(".js-plotly-plot"));
      const watchers = [
        new ResizeObserver((e) => { const w = Math.round(e[0].contentRect.width); if (w !== last) { last = w; soon(); } }),
        new MutationObserver((r) => { if (r.some((x) => Array.from(x.addedNodes).some(isPlot))) soon(); }),
        new IntersectionObserver((e) => { if (e.some((x) => x.isIntersecting)) requestAnimationFrame(resize); }),
      ];
      watchers[0].observe(root);
      watchers[1].observe(root, { childList: true, subtree: true });
      watchers[2].observe(root);
      fit = { views: 0, stop: () => { watchers.forEach((w) => w.disconnect()); timers.forEach(clearTimeout); } };
      fits.set(root, fit);
    }
    fit.views += 1;
  };
  find();
  return () => {
    stopped = true;
    const fit = root && fits.get(root);
    if (fit && --fit.views === 0) { fit.stop(); fits.delete(root); }
  };
}

// anywidget 0.11 gives a model 2 s to load its module; after that it drops every message from
// the kernel (awaiting a rejected promise): the figure would freeze. On a busy page a figure can
// miss it (created just before a long task), so its comm hands messages to ipywidgets directly.
function keepListening(model) {
  const id = model.get("_k8sjobs_id");
  for (const m of Object.values(model.widget_manager?._models ?? {})) {
    Promise.resolve(m).then((m) => {
      const base = m && m.comm && m.get("_k8sjobs_id") === id && Object.getPrototypeOf(Object.getPrototypeOf(m));
      if (base && typeof base._handle_comm_msg === "function") m.comm.on_msg((msg) => base._handle_comm_msg.call(m, msg));
    }, () => {});
  }
}

export default {
  initialize(ctx) {
    const { model } = ctx;
    keepListening(model);
    // plotly.js turns autosize off when it first draws a figure in a place without a size yet (an
    // off-screen cell, a hidden tab: its 700 px stay); every update asks for it again. Registered
    // before plotly's own listeners, so they read the update with it.
    model.on("change:_py2js_update", () => {
      const update = model.get("_py2js_update");
      if (update && update.layout_data) update.layout_data.autosize = true;
    });
    // Updates that arrive before plotly's listeners exist are kept, in order, and replayed.
    const early = [];
    const keep = MESSAGES.map((name) => {
      const fn = () => { const value = model.get(name); if (value !== null && value !== undefined) early.push([name, value]); };
      model.on("change:" + name, fn);
      return [name, fn];
    });
    const ready = plotlyWidget(model).then(async (widget) => {
      for (const [name, fn] of keep) model.off("change:" + name, fn);
      const cleanup = widget.initialize ? await widget.initialize(ctx) : undefined;
      for (const [name, value] of early) { model.set(name, value); model.set(name, null); }
      return { widget, cleanup };
    });
    pages.figures.set(model.get("_k8sjobs_id"), ready);
    // Not awaited: anywidget counts this widget as initialised now, plotly loads meanwhile.
    return () => { ready.then(({ cleanup }) => { if (typeof cleanup === "function") cleanup(); }); };
  },
  async render(ctx) {
    const unfit = watchFit(ctx.el);
    const box = heads(ctx.model, ctx.el);
    const ready = pages.figures.get(ctx.model.get("_k8sjobs_id")) ?? plotlyWidget(ctx.model).then((widget) => ({ widget }));
    const { widget } = await ready;
    const cleanup = widget.render ? await widget.render({ ...ctx, el: box.plot }) : undefined;
    box.plot.on?.("plotly_restyle", box.pressed);
    return () => { unfit(); box.stop(); if (typeof cleanup === "function") cleanup(); };
  },
};
""".replace("__MESSAGES__", json.dumps(list(_MESSAGES))).replace(
    "__TITLE_META__", json.dumps(TITLE_META)).replace("__LEGEND_META__", json.dumps(LEGEND_META))


class LiveFigureWidget(go.FigureWidget):
    """A plotly FigureWidget that loads plotly's code once per page and whose full state is current.

    Use it as ``go.FigureWidget``; see the module docstring for why it exists.
    """

    _esm = LOADER_ESM
    _k8sjobs_esm = traitlets.Unicode(_PLOTLY_ESM).tag(sync=True)
    _k8sjobs_esm_key = traitlets.Unicode(_PLOTLY_ESM_KEY).tag(sync=True)
    _k8sjobs_id = traitlets.Unicode().tag(sync=True)

    _k8sjobs_defer_open = False

    def __init__(self, *args, **kwargs) -> None:
        # plotly sets the figure's data after ipywidgets opened the comm, so the front end gets an
        # empty figure and the data in a second message. A figure model that misses anywidget's
        # 2 s drops that message and stays empty; opened after __init__, its first message is the picture.
        self._k8sjobs_defer_open = True
        try:
            super().__init__(*args, **kwargs)
        finally:
            self._k8sjobs_defer_open = False
        self.open()

    def open(self) -> None:  # noqa: D102 -- ipywidgets API
        if not self._k8sjobs_defer_open:
            super().open()

    @traitlets.default("_k8sjobs_id")
    def _first_id(self) -> str:
        # Drawn when the state is first sent, so the front end has it from the start.
        return f"k8sjobs-figure-{next(_IDS)}"

    def get_state(self, key=None, drop_defaults=False):  # noqa: D102 -- ipywidgets API
        if key is None and "_data" in self.__dict__ and "_layout_obj" in self.__dict__:  # not during __init__
            self._trait_values["_widget_data"] = deepcopy(self._data)
            self._trait_values["_widget_layout"] = deepcopy(self._layout_obj._props)
        return super().get_state(key=key, drop_defaults=drop_defaults)
