"""The lesson dashboard: step through a Job's reconcile cycles and watch every view follow.

:class:`Explorer` is a thin view over :class:`~k8sjobs.widgets.state.ExplorerState`: its
buttons call the state's methods; the state tells the view it changed; the view redraws.

* **Stepping**: "Back", "Step", "Play / Pause", "Reset", an interval control for the speed
  and the cycle slider to seek. Play is an ipywidgets ``Play`` linked in the browser to the
  slider with ``jslink``, so the animation runs where the kernel cannot sleep; its own
  buttons carry only icons, so it is hidden and driven by a labelled toggle (also linked in
  the browser, to its ``playing``). The status line (an HTML widget with the CSS class
  ``k8sjobs-status``) always reads ``cycle N of M · t=T s · <why>``.
* **Layout**: a ``GridspecLayout`` (controls; views | why; faults and editing), in reading and
  keyboard order; when the dashboard is narrower than 1100 px (a notebook column) the "why"
  panel goes under the views.
* **Views**: one plotly ``FigureWidget`` per view (tabs when there are more than two), each
  updated in place inside ``batch_update()`` with :func:`k8sjobs.viz.apply`, never displayed
  again; a view in a hidden tab is built when its tab is first opened and redrawn when it is
  shown. Its title is HTML above it and its legend HTML below it (:func:`k8sjobs.viz.outside`:
  plotly.js redrew them on every step), carried in the figure's ``layout.meta`` and drawn by its loader. Each view has a text twin (a toggle shows it) for screen readers.
* **Why**: a panel with the current cycle's decisions in words, each with its rule id.
* **Editing**: the Job's YAML with "Apply" (create the Job again and re-run) and "Apply to
  the running Job" (``kubectl apply`` right after this cycle); errors as the API server
  phrases them; nothing is lost on error.
* **Faults**: fail a pod with an exit code, evict or delete a pod, lose or add a node, fail the
  next N creations, set a pod quota, change the informer lag, suspend, resume, scale. Acting
  at a past cycle forks the run there (the panel says so). Above ``MENU_LIVE_LIMIT`` pods the
  pod menu is refreshed on request rather than on every step (it would dominate a step).

* **A CronJob** (a manifest with one): the picker lists the CronJob, then the Jobs it made up to
  the time shown, newest first (``PICKER_JOBS`` of them, "and N older Jobs"); on the CronJob the
  tabs are its views (``viz.views_for("CronJob")``, its own first: Schedule, History), on a Job
  the Job views, the same pane and FigureWidget for a view in either. Step goes to the next sync
  of the controller shown; "To the next schedule" jumps over quiet syncs to the CronJob
  controller's next sync with a schedule time due; beside the slider, the time on the CronJob's
  wall clock (``day 2 09:05``). The status line says what the CronJob controller decided and why
  (:mod:`k8sjobs.trace.cron_status`). Its faults: stop the controllers for a duration, suspend,
  resume or suspend for a while, set the schedule or the time zone (the API server's errors,
  the text kept), fail or stretch a running Job of the CronJob; each forks the run.

Voila note: plotly's FigureWidget builds a *new* view (a Voila page, a reloaded Lab page) from
state it refreshes only when it is created or displayed on its own. Figures here are a
subclass that refreshes that state whenever a front end asks for the full state, so a page
opened after any number of steps shows the current picture.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any

import ipywidgets as W
import plotly.graph_objects as go

from .. import viz
from ..i18n import N_, _, join_list, ngettext, speaking, speech
from .figure import LiveFigureWidget
from .state import ExplorerState, format_seconds

VIEW_TITLES = {name: v.title for name, v in viz.REGISTRY.items()}
"""Each view's tab title, marked for translation (from :data:`k8sjobs.viz.REGISTRY`)."""


def view_title(view: str) -> str:
    """The tab title of a view in the current language."""
    return viz.title(view)


CSS = """
<style>
.k8sjobs-explorer { font-family: var(--jp-ui-font-family, sans-serif); container-type: inline-size; }
/* Narrow (a notebook column): the "why" panel goes under the views, which get the full width. */
@container (max-width: 1099px) {
  .k8sjobs-explorer .k8sjobs-grid { grid-template-columns: minmax(0, 1fr) !important;
    grid-template-areas: none !important; }
  .k8sjobs-explorer .k8sjobs-grid > * { grid-area: auto !important; }
}
.k8sjobs-explorer .k8sjobs-status { box-sizing: border-box; font-size: 14px; font-weight: 600; padding: 2px 4px;
  border-left: 4px solid #1f77b4; background: var(--jp-layout-color2, #f3f3f3); }
.k8sjobs-explorer .k8sjobs-status .widget-html-content { white-space: normal; line-height: 1.4; }
.k8sjobs-explorer .k8sjobs-error .widget-html-content { white-space: pre-wrap; overflow-wrap: anywhere;
  color: #8b0000; background: #fff0f0; border: 1px solid #d9a0a0; padding: 4px 6px; line-height: 1.35;
  max-height: 12em; overflow-y: auto; font-family: var(--jp-code-font-family, monospace); font-size: 12px; }
.k8sjobs-explorer .k8sjobs-notice .widget-html-content { white-space: normal; color: #23416b; line-height: 1.35; }
.k8sjobs-explorer .k8sjobs-fork-note .widget-html-content { white-space: normal; line-height: 1.35; font-size: 12px; }
.k8sjobs-explorer .k8sjobs-explanation .widget-html-content { white-space: normal; line-height: 1.4;
  font-size: 13px; max-height: 400px; overflow-y: auto; overflow-wrap: anywhere; }
.k8sjobs-explorer .k8sjobs-explanation ol { padding-left: 1.4em; margin: 4px 0; }
.k8sjobs-explorer .k8sjobs-explanation li { margin-bottom: 3px; }
.k8sjobs-explorer .k8sjobs-explanation code { font-size: 11px; background: var(--jp-layout-color2, #eee);
  padding: 0 2px; }
.k8sjobs-explorer .k8sjobs-twin pre { white-space: pre; overflow: auto; max-height: 320px; font-size: 12px;
  margin: 0; padding: 4px; background: var(--jp-layout-color2, #f7f7f7); }
.k8sjobs-explorer .k8sjobs-yaml textarea { font-family: var(--jp-code-font-family, monospace);
  font-size: 12px; }
/* A figure's title and legend, drawn beside it as HTML by its loader (viz.outside, widgets/figure.py) */
.k8sjobs-explorer .k8sjobs-figure-head, .k8sjobs-explorer .k8sjobs-figure-legend { white-space: normal;
  line-height: 1.3; }
.k8sjobs-explorer .k8sjobs-figure-head { margin: 4px 0 0 0; }
.k8sjobs-explorer .k8sjobs-figure-title { font: 15px "DejaVu Sans", Arial, sans-serif; color: #222222; padding: 0 4px; }
.k8sjobs-explorer .k8sjobs-figure-subtitle { font: 12px "DejaVu Sans", Arial, sans-serif; color: #444444;
  padding: 2px 4px 0 4px; }
.k8sjobs-explorer .k8sjobs-legend { display: flex; flex-wrap: wrap; gap: 2px 14px; padding: 0 4px 4px 4px; }
.k8sjobs-explorer .k8sjobs-legend-item { display: inline-flex; align-items: center; gap: 5px; border: none;
  background: none; padding: 1px 2px; margin: 0; cursor: pointer; color: #222222;
  font: 12px "DejaVu Sans", Arial, sans-serif; }
.k8sjobs-explorer .k8sjobs-legend-item[aria-pressed="false"] { opacity: 0.4; }
.k8sjobs-explorer .k8sjobs-swatch { flex: none; }
.k8sjobs-explorer .k8sjobs-swatch-bar { display: inline-block; box-sizing: border-box; width: 22px; height: 12px; }
.k8sjobs-explorer .widget-tab > .lm-TabBar .lm-TabBar-content,
.k8sjobs-explorer .widget-tab > .p-TabBar .p-TabBar-content { flex-wrap: wrap; }
.k8sjobs-explorer .widget-tab > .lm-TabBar .lm-TabBar-tab,
.k8sjobs-explorer .widget-tab > .p-TabBar .p-TabBar-tab { flex: 0 0 auto; min-width: 0; max-width: none; }
.k8sjobs-explorer .widget-tab > .lm-TabBar .lm-TabBar-tabLabel { overflow: visible; }
</style>
"""


_LiveFigureWidget = LiveFigureWidget  # the name the tests and older code use


def _guard(method: Callable) -> Callable:
    """Widget callbacks never raise into the front end: a failure is shown in the error area."""

    @wraps(method)
    def wrapper(self: Explorer, *args: Any, **kwargs: Any) -> Any:
        try:
            # The dashboard speaks the language it was built in, whatever set_language said since.
            with speaking(self.language):
                return method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 -- shown to the learner instead of a traceback
            # TRANSLATORS: {what} is the dashboard's internal step (e.g. "on slider"); {error} Python's error.
            self._show_error([_("{what} failed: {error}").format(what=method.__name__.strip("_").replace("_", " "),
                                                                 error=f"{type(exc).__name__}: {exc}")])
            return None

    return wrapper


def _button(description: str, tooltip: str, **kw: Any) -> W.Button:
    return W.Button(description=description, tooltip=tooltip, layout=W.Layout(width="auto"), **kw)


_WIDE = {"description_width": "initial"}

SLIDER_TOOLTIP = N_("Seek: the reconcile cycle shown (0 = before the first sync)")
SLIDER_TOOLTIP_CRONJOB = N_("Seek: the CronJob controller's sync shown (0 = before the first); the time is beside")
SLIDER_TOOLTIP_SO_FAR = N_("Seek: the reconcile cycle shown (0 = before the first sync); more cycles are "
                           "simulated as you step (the status line says 'of M+' until the last one)")

MENU_LIVE_LIMIT = 100
"""Above this many pods the pod menu is refreshed on request, not on every step (see _refresh_menus)."""


class Explorer:
    """An interactive lesson surface for one Job manifest (see the module docstring).

    ``manifest``: YAML text, a path to a YAML file, a dict or a Job. ``seed``, ``nodes``,
    ``informer_lag`` (and other :class:`~k8sjobs.sim.SimConfig` fields as keywords): the
    simulation. ``views``: view names from ``k8sjobs.viz.VIEWS`` (default: all), in tab
    order; one or two views are shown side by side instead of in tabs. ``start_cycle``: the
    cycle shown first and after Reset (negative counts from the end). ``play_interval``: the
    milliseconds between two cycles when playing (the speed control's starting value).

    Display it (last expression of a cell, or ``display(explorer)``). Drive it from code
    with the same methods the buttons use: :meth:`step`, :meth:`back`, :meth:`seek`,
    :meth:`reset`, :meth:`act`, :meth:`apply_yaml`; read :attr:`state`.
    """

    def __init__(self, manifest: Any, *, seed: int = 0, nodes: int = 3, informer_lag: float = 0.0,
                 views: Sequence[str] | str | None = None, start_cycle: int = 0, play_interval: int = 800,
                 **settings: Any) -> None:
        if isinstance(play_interval, bool) or not isinstance(play_interval, int) or not 100 <= play_interval <= 3000:
            raise ValueError(_("play_interval: must be a whole number of milliseconds between 100 and 3000, "
                               "got {value!r}").format(value=play_interval))
        self._interval = play_interval
        self.language = speech()
        """The language the dashboard speaks (name and catalog): the one in force when it was built; it stays."""
        self.state = ExplorerState(manifest, seed=seed, nodes=nodes, informer_lag=informer_lag,
                                   start_cycle=start_cycle, **settings)
        self.views = self._check_views(views, several_jobs=len(self.state.jobs) > 1)
        """The views of a Job, in tab order (the tabs when the picker shows a Job)."""
        self.cronjob_views = self._cronjob_views(views) if self.state.cronjob is not None else ()
        """The views of a CronJob, in tab order (the tabs when the picker shows a CronJob; empty without one)."""
        self._syncing = False
        self._slider_driven = False
        self._run_id = 0
        self._drawn: dict[str, tuple[int, int]] = {}
        self._twin_drawn: dict[str, tuple[int, int]] = {}
        self._heads: dict[str, viz.Outside] = {}
        self.figures: dict[str, go.FigureWidget] = {}
        """The FigureWidget of each view built so far (a view in a hidden tab is built when opened)."""
        self._build()
        self.state.on_change(self._on_state_change)
        self._refresh_all()

    @classmethod
    def from_snapshot(cls, snapshot: Any, *, job: str | None = None, now: str | None = None,
                      assume_duration: float | None = None, **kwargs: Any) -> Explorer:
        """The dashboard opened at a real Job's snapshot (what ``kubectl get job,pods -o yaml`` printed).

        ``snapshot``: that text (YAML or JSON), a path to the file, its document, or a
        :class:`~k8sjobs.api.snapshot.Snapshot`. ``job`` chooses the Job when there are
        several; ``now`` (RFC 3339) is when the next sync happens (default: the latest time
        in the snapshot); ``assume_duration`` is how long a pod runs when its sim annotations
        do not say (seconds; default: the median run time of the snapshot's succeeded pods,
        else 60 s). Other keywords as for :class:`Explorer`. Cycle 0 is the snapshot, cycle 1
        the controller's next sync on it; every view, fork and fault works from there.
        """
        from .state import assume, load_snapshot

        return cls(assume(load_snapshot(snapshot, job=job, now=now), assume_duration), **kwargs)

    @staticmethod
    def _cronjob_views(views: Sequence[str] | str | None) -> tuple[str, ...]:
        """The views given that show a CronJob (all of them when none given, or none of those given does: the
        CronJob's own first)."""
        names = () if views is None else ((views,) if isinstance(views, str) else tuple(views))
        given = tuple(v for v in names if "CronJob" in viz.REGISTRY[v].kinds)
        if given:
            return given
        # A CronJob's own views (its schedule, its history) first, then those it shares with a Job's.
        every = viz.views_for("CronJob")
        return tuple(sorted(every, key=lambda v: (viz.REGISTRY[v].kinds != ("CronJob",), every.index(v))))

    @staticmethod
    def _check_views(views: Sequence[str] | str | None, *, several_jobs: bool = False) -> tuple[str, ...]:
        if views is None:
            return tuple(v for v in viz.views_for("Job") if several_jobs or v not in viz.MANY_JOBS_VIEWS)
        names = (views,) if isinstance(views, str) else tuple(views)
        unknown = [v for v in names if v not in viz.VIEWS]
        if unknown or not names:
            raise ValueError(ngettext("views: unknown view {unknown}; views: {views}",
                                      "views: unknown views {unknown}; views: {views}", max(len(unknown), 1)).format(
                unknown=join_list(map(repr, unknown)) or _("(none given)"), views=join_list(viz.VIEWS)))
        if len(set(names)) != len(names):
            raise ValueError(_("views: each view at most once, got {names}").format(names=list(names)))
        jobs = tuple(v for v in names if "Job" in viz.REGISTRY[v].kinds)
        return jobs or viz.views_for("Job")

    # ------------------------------------------------------------------ building

    def _build(self) -> None:
        s = self.state
        self._narrow = False  # set below when two views share the width
        n = s.n_cycles
        # -- stepping
        self.back_button = _button(_("Back"), _("Go back one reconcile cycle"), icon="step-backward")
        self.step_button = _button(_("Step"), _("Go forward one reconcile cycle"), icon="step-forward",
                                   button_style="primary")
        self.reset_button = _button(_("Reset"), _("Start over: the original manifest and settings, no faults"))
        # stable hooks for browser tests, whatever language the labels are in
        self.back_button.add_class("k8sjobs-back")
        self.step_button.add_class("k8sjobs-step")
        # Play runs its timer in the browser. Its own buttons carry only icons (no name, no tooltip),
        # so it is hidden and driven by a labelled toggle linked to its `playing` in the browser.
        self.play = W.Play(value=s.cycle, min=0, max=n, step=1, interval=self._interval, repeat=False, show_repeat=False,
                           description=_("Play"), tooltip=_("Play / pause: step through the cycles automatically"),
                           layout=W.Layout(display="none"))
        self.play_button = W.ToggleButton(value=False, description=_("Play / Pause"), icon="play",
                                          tooltip=_("Play / pause: step through the cycles automatically, in "
                                                    "the browser (pressed while playing)"),
                                          layout=W.Layout(width="auto"))
        self.speed = W.IntSlider(value=self._interval, min=100, max=3000, step=100, description=_("ms per cycle"),
                                 tooltip=_("Speed of Play: milliseconds between two cycles"),
                                 continuous_update=True, style=_WIDE, layout=W.Layout(width="250px"))
        # The label's own width (ipywidgets gives labels 80 px: "Cycle (so far)" is 87 px, cut).
        self.slider = W.IntSlider(value=s.cycle, min=0, max=n, step=1, description=_("Cycle"),
                                  tooltip=_(SLIDER_TOOLTIP), style=_WIDE,
                                  continuous_update=False, layout=W.Layout(width="100%", max_width="720px"))
        self.slider.add_class("k8sjobs-cycle")
        cron = s.cronjob is not None
        if cron:
            self.slider.readout = False  # the time beside says where it is
        self.clock_label = W.HTML(layout=W.Layout(display="flex" if cron else "none"))
        self.clock_label.add_class("k8sjobs-clock")
        self.next_schedule_button = _button(_("To the next schedule"),
                                            _("Jump over quiet time to the CronJob controller's next sync at which a "
                                              "schedule time has come"))
        self.next_schedule_button.add_class("k8sjobs-next-schedule")
        self.next_schedule_button.layout.display = "inline-flex" if cron else "none"
        self.next_schedule_button.on_click(lambda _b: self.next_schedule())
        # Browser-side links: Play moves the slider without the kernel sleeping.
        self._links = [W.jslink((self.play, "value"), (self.slider, "value")),
                       W.jslink((self.speed, "value"), (self.play, "interval")),
                       W.jslink((self.play_button, "value"), (self.play, "playing"))]
        self.back_button.on_click(lambda _b: self.back())
        self.step_button.on_click(lambda _b: self.step())
        self.reset_button.on_click(lambda _b: self.reset())
        self.slider.observe(self._on_slider, names="value")
        self.status = W.HTML()
        self.status.add_class("k8sjobs-status")
        self.error = W.HTML(layout=W.Layout(width="100%", display="none"))
        self.error.add_class("k8sjobs-error")
        self.notice = W.HTML(layout=W.Layout(width="100%", display="none"))
        self.notice.add_class("k8sjobs-notice")
        # The Job picker: shown only when the run has several Jobs.
        jobs = s.jobs
        options, more = s.picker()
        self.job_menu = W.Dropdown(options=self._menu_options(options), value=s.job, description=_("Job"),
                                   tooltip=_("The Job the views, the status line and the faults are about"),
                                   style=_WIDE, layout=W.Layout(width="auto",
                                                                display="flex" if len(jobs) > 1 else "none"))
        self.job_menu.add_class("k8sjobs-job")
        self.job_menu.observe(self._on_job_menu, names="value")
        self.picker_more = W.HTML(layout=W.Layout(display="none"))
        self.picker_more.add_class("k8sjobs-picker-more")
        transport = W.HBox([self.job_menu, self.picker_more, self.back_button, self.step_button,
                            self.next_schedule_button, self.play_button, self.play, self.reset_button, self.speed],
                           layout=W.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 8px"))
        seek = W.HBox([self.slider, self.clock_label], layout=W.Layout(align_items="center", grid_gap="8px",
                                                                      width="100%"))
        header = W.VBox([transport, seek, self.status, self.error, self.notice],
                        layout=W.Layout(grid_gap="4px"))

        # -- views
        self._view_boxes: dict[str, W.Box] = {}
        self._twin_toggles: dict[str, W.ToggleButton] = {}
        self._twins: dict[str, W.HTML] = {}
        panes = []
        self._panes: dict[str, W.Box] = {}
        for v in dict.fromkeys([*self.views, *self.cronjob_views]):
            box = W.VBox(layout=W.Layout(width="100%", min_height="260px"))
            toggle = W.ToggleButton(value=False, description=_("Text version: {view}").format(view=view_title(v)),
                                    tooltip=_("Show the same facts as text (for screen readers and copying)"),
                                    icon="align-left", layout=W.Layout(width="auto", align_self="flex-start"))
            twin = W.HTML(layout=W.Layout(display="none", width="100%"))
            twin.add_class("k8sjobs-twin")
            toggle.observe(lambda ch, v=v: self._on_twin_toggle(v, ch["new"]), names="value")
            self._view_boxes[v], self._twin_toggles[v], self._twins[v] = box, toggle, twin
            pane = W.VBox([box, toggle, twin], layout=W.Layout(width="100%"))
            pane.add_class(f"k8sjobs-view-{v}")
            panes.append(pane)
            self._panes[v] = pane
        self._tab_views = self._views_now()
        if len(self.views) > 2 or self.cronjob_views:
            # A CronJob's views and a Job's are different tabs: the tab bar follows what the picker shows,
            # with the same pane (and FigureWidget) for a view in either.
            self.tabs: W.Tab | None = W.Tab(children=[self._panes[v] for v in self._tab_views],
                                            titles=[view_title(v) for v in self._tab_views],
                                            selected_index=0, layout=W.Layout(width="100%"))
            self.tabs.observe(self._on_tab, names="selected_index")
            views_area: W.Widget = self.tabs
        else:
            self.tabs = None
            # Two views side by side: each gets half the width, so titles wrap shorter.
            self._narrow = len(self.views) > 1
            grid = W.GridspecLayout(1, len(self.views), width="100%", grid_gap="8px")
            for i, pane in enumerate(panes):
                grid[0, i] = pane
            views_area = grid
        views_area.add_class("k8sjobs-views")
        for v in self.visible_views():
            self.figure_widget(v)

        # -- why this cycle
        self.explanation = W.HTML()
        self.explanation.add_class("k8sjobs-explanation")
        self.why_title = W.HTML("<b>" + _("Why this cycle") + "</b>")
        why = W.VBox([self.why_title, self.explanation],
                     layout=W.Layout(padding="0 0 0 4px", min_width="0"))

        # -- faults and actions, editing
        self.fork_note = W.HTML(layout=W.Layout(width="100%"))
        self.fork_note.add_class("k8sjobs-fork-note")
        self.pod_menu = W.Dropdown(options=[], description=_("Pod"), tooltip=_("A pod of the Job at this cycle"),
                                   layout=W.Layout(width="330px"))
        self.refresh_menus_button = _button(_("Refresh pod list"), _("List the pods and nodes of the cycle shown"),
                                            icon="refresh")
        self.refresh_menus_button.layout.display = "none"
        self.refresh_menus_button.on_click(lambda _b: self._refresh_menus(force=True))
        self.menus_note = W.HTML(layout=W.Layout(display="none"))
        self.menus_note.add_class("k8sjobs-fork-note")
        self.exit_code = W.IntText(value=1, description=_("Exit code"), style=_WIDE,
                                   tooltip=_("The exit code the pod's container fails with (0-255)"),
                                   layout=W.Layout(width="180px"))  # ru "Код завершения" and a 3-digit box
        self.fail_pod_button = _button(_("Fail pod"), _("The pod's container exits now with this exit code"),
                                       button_style="danger")
        self.evict_pod_button = _button(_("Evict pod"), _("Evict through the Eviction API: DisruptionTarget, then a "
                                                       "graceful delete"))
        self.delete_pod_button = _button(_("Delete pod"), _("kubectl delete pod (graceful)"))
        self.node_menu = W.Dropdown(options=[], description=_("Node"), tooltip=_("A node of the cluster at this cycle"),
                                    layout=W.Layout(width="220px"))
        self.lose_node_button = _button(_("Lose node"), _("The node disappears; pod GC fails and deletes its pods "
                                                       "40 to 60 s later"), button_style="danger")
        self.add_node_button = _button(_("Add node"), _("Add a Ready node to the cluster"))
        self.fail_creates = W.IntText(value=2, description=_("Creations"), tooltip=_("How many pod creations fail"),
                                      style=_WIDE, layout=W.Layout(width="190px"))  # ru "Число созданий" is 100 px
        self.fail_creates_button = _button(_("Fail next creations"), _("The next N pod creations fail with an API "
                                                                    "error"))
        self.quota = W.IntText(value=2, description=_("Pod quota"), style=_WIDE,
                               tooltip=_("A ResourceQuota on pods in the namespace"), layout=W.Layout(width="160px"))
        self.quota_button = _button(_("Set pod quota"), _("Creations beyond this many pods are forbidden"))
        self.remove_quota_button = _button(_("Remove quota"), _("Remove the pod quota"))
        self.lag = W.FloatText(value=float(s.config.informer_lag), description=_("Informer lag (s)"), style=_WIDE,
                               tooltip=_("How late watch events reach the controller's caches"),
                               layout=W.Layout(width="200px"))
        self.lag_button = _button(_("Set informer lag"), _("From now on, the controller sees changes this late"))
        self.suspend_button = _button(_("Suspend"), _("Set spec.suspend=true: active pods are deleted"))
        self._build_cronjob_faults()
        self.resume_button = _button(_("Resume"), _("Set spec.suspend=false: pods are created again"))
        spec = s.run.manifest.spec
        self.parallelism = W.IntText(value=spec.parallelism if spec.parallelism is not None else 1,
                                     description=_("Parallelism"), style=_WIDE,
                                     tooltip=_("The new spec.parallelism"), layout=W.Layout(width="170px"))
        self.scale_button = _button(_("Scale"), _("Set spec.parallelism (kubectl patch job NAME -p {json})").format(
            json='{"spec":{"parallelism":N}}'))
        self.fail_pod_button.on_click(lambda _b: self._act_on_pod("fail_pod"))
        self.evict_pod_button.on_click(lambda _b: self._act_on_pod("evict_pod"))
        self.delete_pod_button.on_click(lambda _b: self._act_on_pod("delete_pod"))
        self.lose_node_button.on_click(lambda _b: self._lose_node())
        self.add_node_button.on_click(lambda _b: self.act("add_node"))
        self.fail_creates_button.on_click(lambda _b: self.act("fail_next_creates", n=self.fail_creates.value))
        self.quota_button.on_click(lambda _b: self.act("set_pod_quota", pods=self.quota.value))
        self.remove_quota_button.on_click(lambda _b: self.act("set_pod_quota", pods=None))
        self.lag_button.on_click(lambda _b: self.act("set_informer_lag", seconds=self.lag.value))
        self.suspend_button.on_click(lambda _b: self.act("suspend"))
        self.resume_button.on_click(lambda _b: self.act("resume"))
        self.scale_button.on_click(lambda _b: self.act("scale", parallelism=self.parallelism.value))
        row = W.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px 8px")
        together = W.Layout(flex_flow="row nowrap", align_items="center", grid_gap="4px 8px")

        def group(*ws: W.Widget) -> W.HBox:
            # A field and the buttons that act on it: a narrow row (or a longer language) wraps between
            # groups, never between a field and its button.
            return W.HBox(list(ws), layout=together)

        self.job_faults = W.VBox([
            self.menus_note,
            W.HBox([group(self.pod_menu, self.refresh_menus_button), group(self.exit_code, self.fail_pod_button),
                    group(self.evict_pod_button, self.delete_pod_button)], layout=row),
            W.HBox([group(self.node_menu, self.lose_node_button, self.add_node_button)], layout=row),
            W.HBox([group(self.fail_creates, self.fail_creates_button),
                    group(self.quota, self.quota_button, self.remove_quota_button)], layout=row),
            W.HBox([group(self.lag, self.lag_button), group(self.suspend_button, self.resume_button),
                    group(self.parallelism, self.scale_button)], layout=row),
        ], layout=W.Layout(grid_gap="6px"))
        self.job_faults.add_class("k8sjobs-job-faults")
        self.cronjob_faults = W.VBox([
            W.HBox([group(self.stop_for, self.stop_button),
                    group(self.suspend_cronjob_button, self.resume_cronjob_button),
                    group(self.suspend_for, self.suspend_for_button)], layout=row),
            W.HBox([group(self.schedule_text, self.schedule_button),
                    group(self.time_zone_text, self.time_zone_button)], layout=row),
            W.HBox([group(self.cron_job_menu, self.cron_exit_code, self.fail_job_button),
                    group(self.stretch_minutes, self.stretch_job_button)], layout=row),
        ], layout=W.Layout(grid_gap="6px", display="flex" if s.cronjob is not None else "none"))
        self.cronjob_faults.add_class("k8sjobs-cronjob-faults")
        faults = W.VBox([self.fork_note, self.job_faults, self.cronjob_faults], layout=W.Layout(grid_gap="6px"))
        faults.add_class("k8sjobs-faults")

        self.yaml = W.Textarea(value=s.manifest_text, description="", rows=18,
                               tooltip=_("The Job manifest (YAML); Apply to run it"),
                               layout=W.Layout(width="100%"))
        self.yaml.add_class("k8sjobs-yaml")
        self.apply_button = _button(_("Apply"), _("Create the Job again from this YAML and simulate it from the "
                                               "start (if the API server refuses it, nothing changes)"),
                                    button_style="primary")
        self.apply_edit_button = _button(_("Apply to the running Job"), _("kubectl apply right after this cycle: "
                                                                       "forks the run here; immutable fields "
                                                                       "are refused"))
        self.revert_button = _button(_("Revert text"), _("Put back the manifest of the current run"))
        self.apply_button.on_click(lambda _b: self.apply_yaml(self.yaml.value))
        self.apply_edit_button.on_click(lambda _b: self.apply_yaml(self.yaml.value, mode="edit"))
        self.revert_button.on_click(lambda _b: self._revert_text())
        edit = W.VBox([self.yaml, W.HBox([self.apply_button, self.apply_edit_button, self.revert_button],
                                         layout=row)])
        edit.add_class("k8sjobs-edit")
        if s.cronjob is not None:
            # A CronJob is edited live with the faults (schedule, time zone, suspend); Apply creates it again.
            self.apply_edit_button.layout.display = "none"
            self.yaml.tooltip = _("The CronJob manifest (YAML); Apply to run it")
            self.apply_button.tooltip = _("Create the CronJob again from this YAML and simulate it from the start "
                                          "(if the API server refuses it, nothing changes)")
        self.tools = W.Tab(children=[faults, edit],
                           titles=[_("Faults and actions"),
                                   _("Edit the CronJob (YAML)") if s.cronjob is not None else _("Edit the Job (YAML)")],
                           selected_index=0)
        self.tools.observe(lambda _ch: self._refresh_menus(), names="selected_index")

        # A grid keeps the keyboard (DOM) order: controls, views, why, faults and editing.
        self.widget = W.GridspecLayout(3, 4, width="100%", grid_gap="8px")
        self.widget[0, :] = header
        self.widget[1, :3] = views_area
        self.widget[1, 3] = why
        self.widget[2, :] = self.tools
        # Rows sized by their content; columns may shrink below their content (no overflow).
        self.widget.layout.grid_template_rows = "auto auto auto"
        self.widget.layout.grid_template_columns = "repeat(4, minmax(0, 1fr))"
        self.widget.add_class("k8sjobs-grid")
        # (the figures' own front-end code re-fits them to their place: figure.py, watchFit)
        self.root = W.VBox([W.HTML(CSS), self.widget], layout=W.Layout(width="100%"))
        self.root.add_class("k8sjobs-explorer")

    # ------------------------------------------------------------------ views

    def _views_now(self) -> tuple[str, ...]:
        """The views of what the picker shows: a CronJob's or a Job's."""
        return self.cronjob_views if self.state.kind == "CronJob" and self.cronjob_views else self.views

    def _sync_tabs(self) -> None:
        """Make the tab bar the views of what the picker shows (the same panes and figures, never new ones)."""
        wanted = self._views_now()
        if self.tabs is None or wanted == self._tab_views:
            return
        i = self.tabs.selected_index
        was = self._tab_views[i] if i is not None and 0 <= i < len(self._tab_views) else None
        self._tab_views = wanted
        with self.tabs.hold_sync():
            self.tabs.children = [self._panes[v] for v in wanted]
            self.tabs.titles = [view_title(v) for v in wanted]
            self.tabs.selected_index = wanted.index(was) if was in wanted else 0

    def visible_views(self) -> list[str]:
        """The views on screen now (the selected tab, or all when they are side by side)."""
        if self.tabs is None:
            return list(self.views)
        i = self.tabs.selected_index
        views = self._tab_views
        return [views[i]] if i is not None and 0 <= i < len(views) else []

    def figure_widget(self, view: str) -> go.FigureWidget:
        """The FigureWidget of ``view`` (built now if its tab was never shown), up to date."""
        with speaking(self.language):
            if view not in self._panes:
                raise ValueError(_("unknown view {view!r}; this explorer shows: {views}").format(
                    view=view, views=join_list(self._panes)))
            fw = self.figures.get(view)
            if fw is None:
                trace, cycle = self.state.trace, self.state.cycle
                # (a view draws before its first cycle the traces that cycle draws: viz NO_POINT, so the
                # first Step adds none, which would be a full redraw of its own in the browser)
                parts, head = viz.outside(viz.figure_parts(view, trace, cycle, narrow=self._narrow))
                fw = _LiveFigureWidget(parts.figure())
                viz.remember(fw, parts)
                # responsive: plotly re-fits the figure to its element on a window resize (figure.py: watchFit)
                fw._config = {**fw._config, "responsive": True, "displaylogo": False}
                self.figures[view] = fw
                self._drawn[view] = self._key()
                self._heads[view] = head
                self._view_boxes[view].children = (fw,)
            else:
                self._redraw(view)
            return fw

    def text_twin(self, view: str) -> str:
        """The text twin of ``view`` at the current cycle (what the "Text version" toggle shows)."""
        with speaking(self.language):
            return viz.text(view, self.state.trace, self.state.cycle)

    def _key(self) -> tuple[int, int]:
        return (self._run_id, self.state.cycle)

    def _redraw(self, view: str) -> None:
        fw = self.figures.get(view)
        if fw is None or self._drawn.get(view) == self._key():
            return
        new, head = viz.outside(viz.figure_parts(view, self.state.trace, self.state.cycle, narrow=self._narrow))
        # plotly.js turns autosize off when it first draws a figure in a place without a size yet
        # (an off-screen cell: its default 700 px stays); the figure's loader asks for it again in
        # every update (figure.py), and the widget keeps it on from the first step
        new.layout["autosize"] = True
        self._heads[view] = head
        with fw.batch_update():
            viz.apply(fw, new)
        self._drawn[view] = self._key()

    def figure_title(self, view: str) -> str:
        """The title and subtitle shown above ``view``'s figure, as plain text (a line each)."""
        return self._heads[view].text if view in self._heads else ""

    def _redraw_twin(self, view: str) -> None:
        if not self._twin_toggles[view].value or self._twin_drawn.get(view) == self._key():
            return
        self._twins[view].value = f"<pre>{html.escape(self.text_twin(view))}</pre>"
        self._twin_drawn[view] = self._key()

    def _redraw_visible(self, report: bool = True) -> list[str]:
        """Bring the visible views to the cycle; returns the error line of a view that could not be
        drawn (shown in the error area too, unless ``report`` is false)."""
        errors: list[str] = []
        for v in self.visible_views():
            try:
                if v in self.figures:
                    self._redraw(v)
                else:
                    self.figure_widget(v)
                self._redraw_twin(v)
            except Exception as exc:  # noqa: BLE001 -- a broken view must not break the dashboard
                errors = [_("the {view} view could not be drawn at cycle {cycle}: {error}").format(
                    view=v, cycle=self.state.cycle, error=f"{type(exc).__name__}: {exc}")]
        if errors and report:
            self._show_error(errors)
        return errors

    @_guard
    def _on_tab(self, _change: dict) -> None:
        self._redraw_visible()

    @_guard
    def _on_twin_toggle(self, view: str, shown: bool) -> None:
        self._twins[view].layout.display = "block" if shown else "none"
        if shown:
            self._redraw_twin(view)

    # ------------------------------------------------------------------ state -> widgets

    def _on_state_change(self, kind: str) -> None:
        if kind == "error":
            self._show_error(self.state.last_error)
            return
        if kind == "run":
            self._run_id += 1
        self._refresh_all()

    @_guard
    def _on_job_menu(self, change: dict) -> None:
        if self._syncing or change["new"] is None:
            return
        self.select_job(change["new"])

    @_guard
    def select_job(self, name: str) -> list[str]:
        """Show the Job called ``name`` (as the Job picker does); returns error lines ([] if done)."""
        return self.state.select_job(name)

    def _refresh_all(self) -> None:
        s = self.state
        # The status line, then the pictures, then the rest: each widget's change is a message of its
        # own, handled in the browser in the order sent, and the figures are what the learner
        # watches (the slider's readout alone makes the browser lay out the whole page).
        self._syncing = True
        try:
            self._sync_tabs()  # which views are on screen (a CronJob's or a Job's)
        finally:
            self._syncing = False
        self.status.value = f"<span role='status' aria-live='polite'>{html.escape(s.status_line())}</span>"
        view_errors = self._redraw_visible(report=False)
        self._syncing = True
        try:
            jobs = s.jobs
            options, more = s.picker()
            options = self._menu_options(options)
            if list(self.job_menu.options) != options:
                self.job_menu.options = options
            if self.job_menu.value != s.job:
                self.job_menu.value = s.job
            self.job_menu.layout.display = "flex" if len(jobs) > 1 else "none"
            self.picker_more.value = html.escape(ngettext(
                "and {n} older Job (go back in time to pick it)",
                "and {n} older Jobs (go back in time to pick them)", more).format(n=more)) if more else ""
            self.picker_more.layout.display = "flex" if more else "none"
            n = s.n_cycles
            # order matters: widen before moving, so no value is ever out of range
            if self.slider.max != n:
                if n > self.slider.max:
                    self.slider.max = self.play.max = n
                    self.slider.value = self.play.value = s.cycle
                else:
                    self.slider.value = self.play.value = s.cycle
                    self.slider.max = self.play.max = n
            if self.slider.value != s.cycle:
                self.slider.value = s.cycle
            # When the slider moved in the browser (dragged, or driven by Play through jslink), the
            # browser already holds Play's value; echoing a value from here could pull a running
            # Play back by a tick when the kernel is slower than the interval.
            if self.play.value != s.cycle and not self._slider_driven:
                self.play.value = s.cycle
        finally:
            self._syncing = False
        self.back_button.disabled = s.at_start
        self.step_button.disabled = s.at_end
        # A forked run's later cycles are simulated as the learner steps: the slider says so.
        if s.kind == "CronJob":
            self.slider.description = _("Sync") if s.final else _("Sync (so far)")
            self.slider.tooltip = _(SLIDER_TOOLTIP_CRONJOB)
        else:
            self.slider.description = _("Cycle") if s.final else _("Cycle (so far)")
            self.slider.tooltip = _(SLIDER_TOOLTIP) if s.final else _(SLIDER_TOOLTIP_SO_FAR)
        if s.cronjob is not None:
            self.clock_label.value = html.escape(s.clock())
            self.job_faults.layout.display = "flex" if s.kind == "Job" else "none"
        self._show_error(view_errors or s.last_error)
        self.notice.value = html.escape(s.notice)
        self.notice.layout.display = "block" if s.notice else "none"
        self.explanation.value = self._explanation_html()
        self.why_title.value = "<b>" + (_("Why this sync") if s.kind == "CronJob" else _("Why this cycle")) + "</b>"
        self.fork_note.value = self._fork_note_html()
        self._refresh_menus()

    def _show_error(self, lines: Sequence[str]) -> None:
        self.error.value = html.escape("\n".join(lines)) if lines else ""
        self.error.layout.display = "block" if lines else "none"

    def _explanation_html(self) -> str:
        s = self.state
        c = s.current
        esc = html.escape
        cron = s.kind == "CronJob"
        if c is None and cron:
            parts = ["<p>" + _("<b>Sync 0 of {n}</b>, {clock}: {reason}.").format(
                         n=s.of_cycles, clock=esc(s.clock()), reason=esc(s.reason())) + "</p>",
                     "<p>" + _("Press <b>Step</b> to see the CronJob controller's first sync of this CronJob.")
                     + "</p>"]
        elif c is None:
            next_step = (_("Press <b>Step</b> to see the Job controller's first sync of this Job.")
                         if s.snapshot is None else
                         _("Press <b>Step</b> to see the Job controller's next sync on this snapshot, as "
                           "<code>explain</code> predicts it."))
            parts = ["<p>" + _("<b>Cycle 0 of {n}</b>, t={t} s: {reason}.").format(
                         n=s.of_cycles, t=format_seconds(s.t), reason=esc(s.reason())) + "</p>",
                     "<p>" + next_step + "</p>"]
        else:
            head = c.headline
            if cron:
                # TRANSLATORS: {clock} is the time shown, e.g. day 1 00:02.
                when = _("<b>Sync {cycle} of {n}</b>, {clock}:").format(cycle=c.index, n=s.of_cycles,
                                                                         clock=esc(s.clock()))
            else:
                when = _("<b>Cycle {cycle} of {n}</b>, t={t} s:").format(cycle=c.index, n=s.of_cycles,
                                                                          t=format_seconds(c.t))
            parts = ["<p>" + when + f"<br>{esc(' '.join(head.reason.split()))} <code>{esc(head.rule)}</code></p>"]
            if c.decisions:
                parts.append("<p>" + _("What the sync did, in order:") + "</p><ol>")
                parts += [f"<li>{esc(' '.join(d.reason.split()))} <code>{esc(d.rule)}</code></li>"
                          for d in c.decisions]
                parts.append("</ol>")
            if c.error:
                parts.append("<p>" + _("The sync returned an error and will be retried: {error}").format(
                    error=esc(c.error)) + "</p>")
            elif c.requeue_after is not None:
                parts.append("<p>" + _("It asked to be synced again in {seconds} s.").format(
                    seconds=format_seconds(c.requeue_after)) + "</p>")
            if c.events:
                parts.append("<p>" + _("Events recorded:") + "</p><ul>")
                parts += [f"<li>{esc(e.type)} <b>{esc(e.reason)}</b>: {esc(e.message)}</li>" for e in c.events]
                parts.append("</ul>")
        acts = s.actions_at()
        if acts:
            parts.append("<p>" + _("Your action right after this cycle: {actions}").format(
                actions=join_list(f"<code>{esc(a.describe())}</code>" for a in acts)) + "</p>")
        return "".join(parts)

    def _fork_note_html(self) -> str:
        s = self.state
        if s.kind == "CronJob":
            # TRANSLATORS: {clock} is the time shown, e.g. day 1 00:02.
            return _("Actions apply right after the sync shown (sync {cycle}, {clock}). <b>Acting at a past sync forks "
                     "the run</b>: what comes after is simulated again and actions you took later are dropped.").format(
                cycle=s.cycle, clock=html.escape(s.clock()))
        if s.at_end:
            return _("Actions apply right after the cycle shown (cycle {cycle}, the last one): "
                     "the run continues from there.").format(cycle=s.cycle)
        return _("Actions apply right after the cycle shown (cycle {cycle} of {n}). "
                 "<b>Acting at a past cycle forks the run</b>: cycles after {cycle} are simulated again "
                 "and actions you took later are dropped.").format(cycle=s.cycle, n=s.of_cycles)

    def _refresh_menus(self, force: bool = False) -> None:
        """The pod and node menus, for the cycle shown.

        Only while the faults tab is open. Sending a menu of every pod on every step is the
        costly part of a step in a big run, so above :data:`MENU_LIVE_LIMIT` pods the menus are
        refreshed only on request (the "Refresh pod list" button), and say which cycle they show.
        """
        if self.tools.selected_index != 0:
            return
        key = self._key()
        if getattr(self, "_menus_key", None) == key:
            return
        if self.state.cronjob is not None:
            jobs = self.state.active_jobs()
            keep_job = self.cron_job_menu.value if self.cron_job_menu.value in jobs else (jobs[0] if jobs else None)
            self.cron_job_menu.options = jobs
            self.cron_job_menu.value = keep_job
        if not force and len(self.pod_menu.options) > MENU_LIVE_LIMIT:
            self._menus_note(stale=True)
            return
        phases = self.state.pod_phases()
        options = [(f"{name} · {phase}", name) for name, phase in phases.items()]
        keep = self.pod_menu.value if self.pod_menu.value in phases else None
        if keep is None:
            keep = next((name for name, phase in phases.items() if phase == "Running"),
                        next(iter(phases), None))
        self.pod_menu.options = options
        self.pod_menu.value = keep
        nodes = self.state.nodes()
        keep_node = self.node_menu.value if self.node_menu.value in nodes else (nodes[0] if nodes else None)
        self.node_menu.options = nodes
        self.node_menu.value = keep_node
        self._menus_key = key
        self._menus_cycle = self.state.cycle
        self._menus_note(stale=False)

    def _menus_note(self, stale: bool) -> None:
        big = len(self.pod_menu.options) > MENU_LIVE_LIMIT
        self.refresh_menus_button.layout.display = "inline-flex" if big else "none"
        if stale:
            shown = getattr(self, "_menus_cycle", 0)
            self.menus_note.value = ngettext(
                "The pod and node lists show cycle {shown} ({n} pod); press Refresh pod list for cycle {cycle}.",
                "The pod and node lists show cycle {shown} ({n} pods); press Refresh pod list for cycle {cycle}.",
                len(self.pod_menu.options)).format(shown=shown, n=len(self.pod_menu.options), cycle=self.state.cycle)
        elif big:
            self.menus_note.value = ngettext(
                "The pod and node lists show cycle {cycle} ({n} pod: refreshed on request in a run this big).",
                "The pod and node lists show cycle {cycle} ({n} pods: refreshed on request in a run this big).",
                len(self.pod_menu.options)).format(cycle=self.state.cycle, n=len(self.pod_menu.options))
        else:
            self.menus_note.value = ""
        self.menus_note.layout.display = "block" if self.menus_note.value else "none"

    # ------------------------------------------------------------------ widgets -> state

    @_guard
    def _on_slider(self, change: dict) -> None:
        if self._syncing or change["new"] == self.state.cycle:
            return
        self._slider_driven = True
        try:
            self.state.seek(change["new"])
        finally:
            self._slider_driven = False

    def _act_on_pod(self, action: str) -> list[str]:
        self._refresh_menus()
        pod = self.pod_menu.value
        if not pod:
            # TRANSLATORS: {action} is the action's name in code (fail_pod, evict_pod, delete_pod).
            return self.state._refuse([_("{action}: choose a pod first (this cycle has no pods of the Job; step "
                                         "forward until the controller has created some)").format(action=action)])
        if action == "fail_pod":
            return self.act("fail_pod", name=pod, exit_code=self.exit_code.value)
        return self.act(action, name=pod)

    def _lose_node(self) -> list[str]:
        self._refresh_menus()
        node = self.node_menu.value
        if not node:
            return self.state._refuse([_("lose_node: choose a node first (no node is left at this cycle)")])
        return self.act("lose_node", name=node)

    def _revert_text(self) -> None:
        self.yaml.value = self.state.manifest_text

    @staticmethod
    def _menu_options(options: list[tuple[str, str]]) -> list[str] | list[tuple[str, str]]:
        # A run of Jobs lists plain names (label = name); a CronJob's picker has labels of its own.
        return [v for _l, v in options] if all(lab == v for lab, v in options) else options

    def _build_cronjob_faults(self) -> None:
        """The faults and actions of a CronJob: stop the controllers, suspend, schedule, time zone, its Jobs."""
        cj = self.state._cronjob_manifest()
        self.stop_for = W.Text(value="3h", description=_("Stop the controllers for"), placeholder="3h",
                               tooltip=_("How long kube-controller-manager is down: 90m, 3h, 1d12h"), style=_WIDE,
                               layout=W.Layout(width="260px"))
        self.stop_button = _button(_("Stop"), _("Stop kube-controller-manager: no controller syncs anything until "
                                                "then; the kubelets and the API server go on"), button_style="danger")
        self.stop_button.add_class("k8sjobs-stop-controllers")
        self.suspend_cronjob_button = _button(_("Suspend CronJob"), _("Set the CronJob's spec.suspend=true: no new "
                                                                      "Jobs; running ones go on"))
        self.resume_cronjob_button = _button(_("Resume CronJob"), _("Set the CronJob's spec.suspend=false"))
        self.suspend_for = W.Text(value="30m", description=_("Suspend the CronJob for"), placeholder="30m",
                                  tooltip=_("Suspend now and resume this much later: 90m, 3h, 1d12h"), style=_WIDE,
                                  layout=W.Layout(width="260px"))
        self.suspend_for_button = _button(_("Suspend for a while"), _("Set spec.suspend=true now and false again "
                                                                      "after this long"))
        self.suspend_for_button.on_click(lambda _b: self.suspend_cronjob_for(self.suspend_for.value))
        self.schedule_text = W.Text(value=cj.spec.schedule if cj is not None else "", description=_("Schedule"),
                                    tooltip=_("The new spec.schedule (cron: minute hour day-of-month month "
                                              "day-of-week)"), style=_WIDE, layout=W.Layout(width="260px"))
        self.schedule_button = _button(_("Set schedule"), _("Change spec.schedule (the API server validates it)"))
        self.time_zone_text = W.Text(value=(cj.spec.time_zone or "") if cj is not None else "",
                                     description=_("Time zone"), placeholder="Europe/Berlin",
                                     tooltip=_("The new spec.timeZone, an IANA name (empty: the controller's own "
                                               "zone)"), style=_WIDE, layout=W.Layout(width="260px"))
        self.time_zone_button = _button(_("Set time zone"), _("Change spec.timeZone (the API server validates it)"))
        self.cron_job_menu = W.Dropdown(options=[], description=_("Job"),
                                        tooltip=_("A Job of the CronJob that is running at this time"),
                                        style=_WIDE, layout=W.Layout(width="260px"))
        self.cron_exit_code = W.IntText(value=1, description=_("Exit code"), style=_WIDE,
                                        tooltip=_("The exit code the pod's container fails with (0-255)"),
                                        layout=W.Layout(width="180px"))
        self.fail_job_button = _button(_("Fail the Job's pod"), _("The Job's running pod exits now with this exit "
                                                                   "code"), button_style="danger")
        self.stretch_minutes = W.IntText(value=10, description=_("Minutes"), style=_WIDE,
                                                tooltip=_("How much longer the Job's pod runs"),
                                                layout=W.Layout(width="160px"))
        self.stretch_job_button = _button(_("Make the Job run longer"), _("The Job's running pod runs this many "
                                                                          "minutes more before it exits as planned"))
        self.stop_button.on_click(lambda _b: self.stop_controllers(self.stop_for.value))
        self.suspend_cronjob_button.on_click(lambda _b: self.act("suspend_cronjob"))
        self.resume_cronjob_button.on_click(lambda _b: self.act("resume_cronjob"))
        self.schedule_button.on_click(lambda _b: self.act("set_schedule", schedule=self.schedule_text.value))
        self.time_zone_button.on_click(lambda _b: self.act("set_time_zone",
                                                           time_zone=self.time_zone_text.value.strip() or None))
        self.fail_job_button.on_click(lambda _b: self._act_on_cron_job("fail_pod"))
        self.stretch_job_button.on_click(lambda _b: self._act_on_cron_job("stretch_pod"))

    def _act_on_cron_job(self, action: str) -> list[str]:
        self._refresh_menus()
        job = self.cron_job_menu.value
        if not job:
            return self.state._refuse([_("{action}: no Job of the CronJob is running at this time (go to the next "
                                         "schedule)").format(action=action)])
        if action == "fail_pod":
            return self.act_on_job("fail_pod", job, exit_code=self.cron_exit_code.value)
        return self.act_on_job("stretch_pod", job, seconds=self.stretch_minutes.value * 60)

    # ------------------------------------------------------------------ the API the buttons use

    @_guard
    def step(self) -> bool:
        """Next cycle (the Step button); False at the last one."""
        return self.state.step()

    @_guard
    def back(self) -> bool:
        """Previous cycle (the Back button); False at cycle 0."""
        return self.state.back()

    @_guard
    def next_schedule(self) -> bool:
        """The CronJob controller's next sync at which a schedule time has come (the "To the next schedule"
        button); False when none comes in the rest of the run."""
        return self.state.next_schedule()

    @_guard
    def stop_controllers(self, duration: str) -> list[str]:
        """Stop kube-controller-manager for ``duration`` (``90m``, ``3h``, ``1d12h``) right after this sync."""
        return self.state.stop_controllers(duration)

    @_guard
    def suspend_cronjob_for(self, duration: str) -> list[str]:
        """Suspend the CronJob right after this sync and resume it ``duration`` (``30m``, ``2h``) later."""
        return self.state.suspend_cronjob_for(duration)

    @_guard
    def act_on_job(self, action: str, job: str, **kwargs: Any) -> list[str]:
        """``fail_pod`` or ``stretch_pod`` on the running pod of a Job of the CronJob (forks the run)."""
        return self.state.act_on_job(action, job, **kwargs)

    @_guard
    def seek(self, cycle: int) -> list[str]:
        """Go to a cycle (the slider); error lines if it does not exist."""
        return self.state.seek(cycle)

    @_guard
    def reset(self) -> None:
        """Start over (the Reset button): original manifest and settings, no actions."""
        self.state.reset()
        self.yaml.value = self.state.manifest_text
        spec = self.state.run.manifest.spec
        self.parallelism.value = spec.parallelism if spec.parallelism is not None else 1
        self.lag.value = float(self.state.config.informer_lag)
        cj = self.state._cronjob_manifest()
        if cj is not None:
            self.schedule_text.value = cj.spec.schedule
            self.time_zone_text.value = cj.spec.time_zone or ""

    @_guard
    def act(self, action: str, **kwargs: Any) -> list[str]:
        """Apply a fault or action right after the current cycle (forks the run); error lines if refused."""
        return self.state.act(action, **kwargs)

    @_guard
    def apply_yaml(self, text: str, *, mode: str = "recreate") -> list[str]:
        """Apply edited YAML (the Apply buttons); the API server's error lines if refused."""
        errors = self.state.apply_yaml(text, mode=mode)
        if not errors and self.yaml.value != text:
            self.yaml.value = text
        return errors

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.root._repr_mimebundle_(**kwargs)


__all__ = ["Explorer", "VIEW_TITLES"]
