"""Views of a trace: plotly (and networkx) pictures of what the Job controller did and why.

Every view is a pure function of a :class:`~k8sjobs.trace.Trace` and a cycle number (1 to
``len(trace.cycles)``; 0 is "before the first cycle") and comes in two forms:

* ``figure(trace, cycle) -> plotly.graph_objects.Figure``: the picture, readable in black and
  white (patterns, symbols and labels, not colour alone), with a title that says in words
  what it shows;
* ``text(trace, cycle) -> str``: its twin, the same facts as stable fixed-width text, for
  screen readers, terminals and checked notebook cells.

The views (:data:`VIEWS`, in lesson order):

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
=============  ===========================================================================

This package never imports ipywidgets: it works in a static notebook, in Voila and under a
widget dashboard alike. A dashboard keeps one ``FigureWidget`` per view and calls
:func:`apply` inside ``fw.batch_update()`` on every step.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import plotly.graph_objects as go

from k8sjobs.i18n import _, join_list
from k8sjobs.trace.recorder import Trace

from . import (
    backoff,
    control_loop,
    counts,
    deletion,
    events,
    expectations,
    ownership,
    slow_start,
    timeline,
)
from ._apply import apply
from ._common import NARROW_FIGURE_PX, OUTCOME_STYLE, OUTCOMES, narrow_titles

VIEWS: tuple[str, ...] = ("timeline", "counts", "slow_start", "backoff", "deletion", "expectations", "ownership",
                          "control_loop", "events")
"""Every view name, in the order the lessons introduce them."""

_MODULES: dict[str, ModuleType] = {
    "timeline": timeline, "counts": counts, "slow_start": slow_start, "backoff": backoff, "deletion": deletion,
    "expectations": expectations, "ownership": ownership, "control_loop": control_loop, "events": events,
}


def _module(view: str) -> ModuleType:
    try:
        return _MODULES[view]
    except (KeyError, TypeError):
        raise ValueError(_("unknown view {view!r}; views: {views}").format(view=view, views=join_list(VIEWS))) from None


def figure(view: str, trace: Trace, cycle: int, *, narrow: bool = False) -> go.Figure:
    """The figure of ``view`` for ``trace`` at ``cycle`` (see :data:`VIEWS`).

    ``narrow``: the titles are wrapped for a half-width pane (two views side by side).
    """
    m = _module(view)
    if narrow and getattr(m, "FITS_WIDTH", False):
        return narrow_titles(m.figure(trace, cycle, width_px=NARROW_FIGURE_PX))
    fig = m.figure(trace, cycle)
    return narrow_titles(fig) if narrow else fig


def text(view: str, trace: Trace, cycle: int) -> str:
    """The text twin of ``view`` for ``trace`` at ``cycle``: the same facts as the figure."""
    return _module(view).text(trace, cycle)


def builders(view: str) -> tuple[Callable[[Trace, int], go.Figure], Callable[[Trace, int], str]]:
    """``(figure, text)`` functions of one view."""
    m = _module(view)
    return m.figure, m.text


__all__ = ["OUTCOMES", "OUTCOME_STYLE", "VIEWS", "apply", "builders", "figure", "text"]
