"""Views of a trace: plotly (and networkx) pictures of what the Job controller did and why.

Every view is a pure function of a :class:`~k8sjobs.trace.Trace` and a cycle number (1 to
``len(trace.cycles)``; 0 is "before the first cycle") and comes in two forms:

* ``figure(trace, cycle) -> plotly.graph_objects.Figure``: the picture, readable in black and
  white (patterns, symbols and labels, not colour alone), with a title that says in words
  what it shows;
* ``text(trace, cycle) -> str``: its twin, the same facts as stable fixed-width text, for
  screen readers, terminals and checked notebook cells.

The views (:data:`REGISTRY`, in lesson order; a view of a run of several Jobs shows the Job of
the trace it is given, and the cluster view shows them all):

=============  ===========================================================================
timeline       one bar per pod from creation to end, by outcome; the current cycle marked
counts         active, ready, succeeded, failed, terminating against parallelism/completions
slow_start     the create batches 1, 2, 4, ... of a cycle, the failed batch, skipped pods
backoff        each failure, the delay it causes (10 s * 2^(n-1), capped), the next start
deletion       the deletion ranking of a scale-down, one column per rule, deciding cells lit
expectations   creations and deletions expected vs observed; unsatisfied syncs; the expiry
ownership      Job -> Pods -> Nodes at the cycle (networkx graph, layered layout)
control_loop   informer -> work queue -> sync -> API server -> kubelet, the cycle's steps lit
events         the Job's events as ``kubectl describe`` shows them
cluster        every Job's pods on the nodes' pod slots over time, and who waited for a slot
schedule       a CronJob's schedule times and what became of each: Jobs, skipped and missed runs
history        a CronJob's Jobs: kept, or deleted by the history limits, ttlSecondsAfterFinished, Replace
=============  ===========================================================================

This package never imports ipywidgets: it works in a static notebook, in Voila and under a
widget dashboard alike. A dashboard keeps one ``FigureWidget`` per view and calls
:func:`apply` inside ``fw.batch_update()`` on every step, with the figure's title and legend
taken out by :func:`outside` and shown beside it as HTML (:func:`title_html`, :func:`legend_html`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

import plotly.graph_objects as go

from k8sjobs.i18n import N_, _, join_list
from k8sjobs.trace.recorder import Trace

from . import (
    backoff,
    cluster,
    control_loop,
    counts,
    deletion,
    events,
    expectations,
    history,
    ownership,
    schedule,
    slow_start,
    timeline,
)
from ._apply import apply, remember
from ._common import NARROW_FIGURE_PX, OUTCOME_STYLE, OUTCOMES, FigureParts, narrow_titles, parts_only
from ._outside import LEGEND_META, TITLE_META, LegendEntry, Outside, legend_html, outside, rich, title_html


@dataclass(frozen=True, slots=True)
class View:
    """One view: its name, its tab title (marked for translation: show it with :func:`title`), its module
    (``figure(trace, cycle)`` and ``text(trace, cycle)``), and whether its figure lays itself out for a
    given width (``figure(..., width_px=...)``) rather than only wrapping its titles."""

    name: str
    title: str
    module: ModuleType
    fits_width: bool
    kinds: tuple[str, ...] = ("Job",)
    """The kinds of object whose trace the view shows (``Trace.kind``): a Job's views, a CronJob's, or both."""


def _view(module: ModuleType, title: str) -> View:
    return View(module.VIEW, title, module, module.FITS_WIDTH, getattr(module, "KINDS", ("Job",)))


REGISTRY: dict[str, View] = {v.name: v for v in (
    # TRANSLATORS: tab titles of the views in the dashboard.
    _view(timeline, N_("Timeline")), _view(counts, N_("Counts")), _view(slow_start, N_("Slow start")),
    _view(backoff, N_("Back-off")), _view(deletion, N_("Deletion order")), _view(expectations, N_("Expectations")),
    _view(ownership, N_("Ownership")), _view(control_loop, N_("Control loop")), _view(events, N_("Events")),
    _view(cluster, N_("Cluster")), _view(schedule, N_("Schedule")), _view(history, N_("History")),
)}
"""Every view, in the order the lessons introduce them: the one list of views."""

VIEWS: tuple[str, ...] = tuple(REGISTRY)
"""Every view name, in the order the lessons introduce them."""

MANY_JOBS_VIEWS = frozenset({"cluster"})
"""Views about every Job of a run: a dashboard shows them by default only when the run has several Jobs."""


def views_for(kind: str) -> tuple[str, ...]:
    """The names of the views that show a trace of ``kind`` (``"Job"`` or ``"CronJob"``), in lesson order."""
    return tuple(v.name for v in REGISTRY.values() if kind in v.kinds)


def _module(view: str) -> ModuleType:
    try:
        return REGISTRY[view].module
    except (KeyError, TypeError):
        raise ValueError(_("unknown view {view!r}; views: {views}").format(view=view, views=join_list(VIEWS))) from None


def title(view: str) -> str:
    """The view's tab title in the current language."""
    return _(REGISTRY[view].title) if view in REGISTRY else view


def figure(view: str, trace: Trace, cycle: int, *, narrow: bool = False) -> go.Figure:
    """The figure of ``view`` for ``trace`` at ``cycle`` (see :data:`VIEWS`).

    ``narrow``: the titles are wrapped for a half-width pane (two views side by side).
    """
    return figure_parts(view, trace, cycle, narrow=narrow).figure()


def figure_parts(view: str, trace: Trace, cycle: int, *, narrow: bool = False) -> FigureParts:
    """:func:`figure` as the plain dicts plotly is given (what a dashboard's redraw hands to :func:`apply`)."""
    m = _module(view)
    with parts_only():
        if narrow and REGISTRY[view].fits_width:
            parts = m.figure(trace, cycle, width_px=NARROW_FIGURE_PX)
        else:
            parts = m.figure(trace, cycle)
    return narrow_titles(parts) if narrow else parts


def text(view: str, trace: Trace, cycle: int) -> str:
    """The text twin of ``view`` for ``trace`` at ``cycle``: the same facts as the figure."""
    return _module(view).text(trace, cycle)


def builders(view: str) -> tuple[Callable[[Trace, int], go.Figure], Callable[[Trace, int], str]]:
    """``(figure, text)`` functions of one view."""
    m = _module(view)
    return m.figure, m.text


__all__ = ["LEGEND_META", "MANY_JOBS_VIEWS", "OUTCOMES", "OUTCOME_STYLE", "REGISTRY", "VIEWS", "FigureParts", "LegendEntry", "Outside",
           "View", "apply", "builders", "figure", "figure_parts", "legend_html", "outside", "remember", "rich", "text",
           "TITLE_META", "title", "title_html", "views_for"]
