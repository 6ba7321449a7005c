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

# Properties a FigureWidget manages itself (uid is a random id it gives each trace).
_KEEP = frozenset({"type", "uid"})
HIDDEN = {"visible": False}
"""What a widget's trace not needed at this step holds (besides its type and uid)."""


def _clear_missing(obj: Any, old: dict[str, Any], new: dict[str, Any], keep: frozenset[str]) -> None:
    for key in old:
        if key not in new and key not in keep:
            obj[key] = None


def apply(target: go.Figure, new: go.Figure) -> go.Figure:
    """Make ``target`` (a Figure or FigureWidget) show what ``new`` shows, in place; returns ``target``."""
    new_data = [tr.to_plotly_json() for tr in new.data]
    old_types = [old.type for old in target.data]
    new_types = [nd.get("type") for nd in new_data]
    n = min(len(old_types), len(new_types))
    # a widget keeps (and hides) traces it has beyond the new ones, and adds only those it lacks
    keep = old_types == new_types or (isinstance(target, go.FigureWidget) and old_types[:n] == new_types[:n])
    if keep:
        for old, nd in zip(target.data, new_data):
            od = old.to_plotly_json()
            _clear_missing(old, od, nd, _KEEP)
            # only what changed: plotly validates every property it is given (most are the same)
            changed = {k: v for k, v in nd.items() if k not in _KEEP and od.get(k) != v}
            if changed:
                old.update(changed, overwrite=True)
        for old in target.data[n:]:
            _clear_missing(old, old.to_plotly_json(), HIDDEN, _KEEP)
            old.update(HIDDEN)
        if len(new_types) > n:
            target.add_traces(list(new.data[n:]))
    else:
        target.data = ()
        if new_data:
            target.add_traces(list(new.data))
    new_layout = new.layout.to_plotly_json()
    old_layout = target.layout.to_plotly_json()
    _clear_missing(target.layout, old_layout, new_layout, frozenset({"template"}))
    changed = {k: v for k, v in new_layout.items() if old_layout.get(k) != v}
    if changed:
        target.update_layout(changed, overwrite=True)
    return target


def shown(fig: go.Figure) -> list[dict[str, Any]]:
    """The traces of ``fig`` as plain dicts, without the hidden ones :func:`apply` keeps in a widget."""
    return [d for d in (tr.to_plotly_json() for tr in fig.data) if not is_hidden(d)]


def is_hidden(trace: dict[str, Any]) -> bool:
    """Whether a trace (as a dict) is one :func:`apply` hid: ``visible: false`` and nothing else
    but its type, uid and emptied compound properties."""
    return trace.get("visible") is False and all(
        v in (None, {}, []) for k, v in trace.items() if k not in _KEEP and k != "visible")


__all__ = ["HIDDEN", "apply", "is_hidden", "shown"]
