"""Update a displayed figure in place from a freshly built one.

A dashboard shows one ``FigureWidget`` per view and must never display a new figure on a
step (that would flicker, lose zoom and pile up outputs). :func:`apply` copies a new
figure's content into the existing one: when the traces line up (same count, same types)
their properties are set one by one, so plotly.js restyles instead of redrawing from
scratch; otherwise the data are replaced. The layout is updated either way. Call it inside
``fw.batch_update()`` to send one message.
"""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go

# Properties a FigureWidget manages itself (uid is a random id it gives each trace).
_KEEP = frozenset({"type", "uid"})


def _clear_missing(obj: Any, old: dict[str, Any], new: dict[str, Any], keep: frozenset[str]) -> None:
    for key in old:
        if key not in new and key not in keep:
            obj[key] = None


def apply(target: go.Figure, new: go.Figure) -> go.Figure:
    """Make ``target`` (a Figure or FigureWidget) show what ``new`` shows, in place; returns ``target``."""
    new_data = [tr.to_plotly_json() for tr in new.data]
    same_shape = len(target.data) == len(new_data) and all(
        old.type == nd.get("type") for old, nd in zip(target.data, new_data))
    if same_shape:
        for old, nd in zip(target.data, new_data):
            _clear_missing(old, old.to_plotly_json(), nd, _KEEP)
            old.update({k: v for k, v in nd.items() if k not in _KEEP}, overwrite=True)
    else:
        target.data = ()
        if new_data:
            target.add_traces(list(new.data))
    new_layout = new.layout.to_plotly_json()
    old_layout = target.layout.to_plotly_json()
    _clear_missing(target.layout, old_layout, new_layout, frozenset({"template"}))
    if new_layout.get("template") == old_layout.get("template"):
        new_layout = {k: v for k, v in new_layout.items() if k != "template"}
    target.update_layout(new_layout, overwrite=True)
    return target


__all__ = ["apply"]
