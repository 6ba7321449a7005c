"""Update a displayed figure in place from a freshly built one.

A dashboard shows one ``FigureWidget`` per view and must never display a new figure on a
step (that would flicker, lose zoom and pile up outputs). :func:`apply` copies a new
figure's content into the existing one: when the traces line up (same count, same types)
their properties are set one by one, so plotly.js restyles instead of redrawing from
scratch; otherwise the data are replaced. The layout is updated either way. Call it inside
``fw.batch_update()`` to send one message.

A ``FigureWidget`` keeps its traces when a step needs fewer of the same types (the counts view
has 6 traces before the first sync and 10 after it): the ones beyond are emptied and hidden
(:data:`HIDDEN`, ``visible: false``, drawn by nobody, in no legend), and a later step that needs
them again restyles them. Removing and adding traces are plotly messages of their own, each a
full redraw in the browser (three redraws a step instead of one), sent apart from the batched
restyle; a widget that needs more traces than it has gets only the missing ones added.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

from ._common import FigureParts

# Properties a FigureWidget manages itself (uid is a random id it gives each trace).
_KEEP = frozenset({"type", "uid"})
HIDDEN = {"visible": False}
"""What a widget's trace not needed at this step holds (besides its type and uid)."""


def _clear_missing(obj: Any, old: dict[str, Any], new: dict[str, Any], keep: frozenset[str]) -> None:
    for key in old:
        if key not in new and key not in keep:
            obj[key] = None


def apply(target: go.Figure, new: go.Figure | FigureParts) -> go.Figure:
    """Make ``target`` (a Figure or FigureWidget) show what ``new`` shows, in place; returns ``target``.

    ``new`` may be the plain dicts of a figure (:class:`FigureParts`, what a dashboard's redraw
    builds). A widget remembers the dicts it was last given, and the next call compares against
    them instead of reading the widget back through plotly's objects (a deep copy of every trace
    and of the layout, template included, on every step).
    """
    if isinstance(new, FigureParts):
        new_data, new_layout = new.data, new.layout
    else:
        new_data, new_layout = [tr.to_plotly_json() for tr in new.data], new.layout.to_plotly_json()
    last = target.__dict__.get(_LAST)
    if last is not None and len(last[0]) != len(target.data):
        last = None  # traces added or removed since by someone else: read the widget itself
    old_types = [old.type for old in target.data]
    new_types = [nd.get("type") for nd in new_data]
    n = min(len(old_types), len(new_types))
    # a widget keeps (and hides) traces it has beyond the new ones, and adds only those it lacks
    keep = old_types == new_types or (isinstance(target, go.FigureWidget) and old_types[:n] == new_types[:n])
    if keep:
        for i, (old, nd) in enumerate(zip(target.data, new_data)):
            od = last[0][i] if last is not None else old.to_plotly_json()
            _clear_missing(old, od, nd, _KEEP)
            # only what changed: plotly validates every property it is given (most are the same)
            changed = {k: v for k, v in nd.items() if k not in _KEEP and od.get(k) != v}
            if changed:
                old.update(changed, overwrite=True)
        for i, old in enumerate(target.data[n:], n):
            od = last[0][i] if last is not None else old.to_plotly_json()
            if od != _HIDDEN_TRACE:
                _clear_missing(old, od, HIDDEN, _KEEP)
                old.update(HIDDEN)
        if len(new_types) > n:
            target.add_traces(_traces(new)[n:])
    else:
        target.data = ()
        if new_data:
            target.add_traces(_traces(new))
    old_layout = last[1] if last is not None else target.layout.to_plotly_json()
    _clear_missing(target.layout, old_layout, new_layout, frozenset({"template"}))
    changed = {k: v for k, v in new_layout.items() if old_layout.get(k) != v}
    if changed:
        target.update_layout(changed, overwrite=True)
    if isinstance(target, go.FigureWidget):
        # What the widget shows now, as dicts (a hidden trace as HIDDEN): the next call's "old".
        shown_now = list(new_data) + [_HIDDEN_TRACE] * (len(target.data) - len(new_data))
        target.__dict__[_LAST] = (shown_now, dict(new_layout))
    return target


def _traces(new: go.Figure | FigureParts) -> list[Any]:
    """The traces of ``new`` as plotly objects (built from the dicts only when traces are added)."""
    return list((new.figure() if isinstance(new, FigureParts) else new).data)


_LAST = "_k8sjobs_last_applied"
_HIDDEN_TRACE = dict(HIDDEN)


def shown(fig: go.Figure) -> list[dict[str, Any]]:
    """The traces of ``fig`` as plain dicts, without the hidden ones :func:`apply` keeps in a widget."""
    return [d for d in (tr.to_plotly_json() for tr in fig.data) if not is_hidden(d)]


def is_hidden(trace: dict[str, Any]) -> bool:
    """Whether a trace (as a dict) is one :func:`apply` hid: ``visible: false`` and nothing else
    but its type, uid and emptied compound properties."""
    return trace.get("visible") is False and all(
        v in (None, {}, []) for k, v in trace.items() if k not in _KEEP and k != "visible")


__all__ = ["HIDDEN", "apply", "is_hidden", "shown"]
