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

A ``FigureWidget`` that knows what it shows (given dicts by the last call) takes a step without
plotly.py's property objects: :func:`_send_edits` writes the changes into the widget's own dicts,
as plotly.py's ``plotly_update`` does after validating them, and sends the same ``Plotly.update``
message. plotly.py validated every property of every changed trace on every step (with its
objects, about 60 % of a dashboard step's kernel time); the dicts come from the views, which build
them as plotly's own JSON (``figure_parts`` equals the figure; tests compare both paths' messages).
"""

from __future__ import annotations

from copy import deepcopy
from typing import Any

import plotly.graph_objects as go
from _plotly_utils.basevalidators import CompoundArrayValidator, CompoundValidator
from plotly.basedatatypes import Undefined

from ._common import FigureParts

# Properties a FigureWidget manages itself (uid is a random id it gives each trace), and the layout's
# template, which plotly.py fills in and the views never set.
_KEEP = frozenset({"type", "uid"})
_LAYOUT_KEEP = frozenset({"template"})
HIDDEN = {"visible": False}
"""What a widget's trace not needed at this step holds (besides its type and uid)."""


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
    # the widget shows what it was last given and needs no new trace: edit its dicts, one message
    fast = keep and last is not None and len(new_types) <= len(old_types) and _FAST and _no_listeners(target)
    if fast:
        _send_edits(target, _trace_edits(last[0], new_data, len(old_types)), _edits(last[1], new_layout, _LAYOUT_KEEP))
    elif keep:
        # only what changed, through plotly.py's objects (which validate every property they are given)
        olds = last[0] if last is not None else [tr.to_plotly_json() for tr in target.data]
        for i, edits in _trace_edits(olds, new_data, len(olds)).items():
            target.data[i].update(edits, overwrite=True)
        if len(new_types) > n:
            target.add_traces(_traces(new)[n:])
    else:
        target.data = ()
        if new_data:
            target.add_traces(_traces(new))
    if not fast:
        _apply_layout(target, last, new_layout)
    if isinstance(target, go.FigureWidget):
        # What the widget shows now, as dicts (a hidden trace as HIDDEN): the next call's "old".
        shown_now = list(new_data) + [_HIDDEN_TRACE] * (len(target.data) - len(new_data))
        target.__dict__[_LAST] = (shown_now, dict(new_layout))
    return target


def _apply_layout(target: go.Figure, last: Any, new_layout: dict[str, Any]) -> None:
    edits = _edits(last[1] if last is not None else target.layout.to_plotly_json(), new_layout, _LAYOUT_KEEP)
    if edits:
        target.update_layout(edits, overwrite=True)


# Off only in the tests that compare this path's messages with plotly.py's own.
_FAST = True


def _no_listeners(fw: go.Figure) -> bool:
    """Whether nobody registered plotly.py change callbacks (``on_change``) on the layout or a trace:
    the path without plotly.py's objects does not call them."""
    return not fw.layout._change_callbacks and not any(tr._change_callbacks for tr in fw.data)


def _edits(old: dict[str, Any], new: dict[str, Any], keep: frozenset[str]) -> dict[str, Any]:
    """What turns ``old`` into ``new`` at the top level: the changed values, and None (clear) for
    what ``new`` no longer sets."""
    edits = {k: None for k in old if k not in new and k not in keep}
    edits.update((k, v) for k, v in new.items() if k not in keep and old.get(k) != v)
    return edits


def _trace_edits(last: list[dict[str, Any]], new_data: list[dict[str, Any]], count: int) -> dict[int, dict]:
    """{trace index: edits} for a widget of ``count`` traces showing ``last``; traces beyond the new
    ones are emptied and hidden (HIDDEN)."""
    out = {}
    for i in range(count):
        edits = _edits(last[i], new_data[i] if i < len(new_data) else _HIDDEN_TRACE, _KEEP)
        if edits:
            out[i] = edits
    return out


def _send_edits(fw: go.FigureWidget, trace_edits: dict[int, dict], layout_edits: dict[str, Any]) -> None:
    """Write the edits into the widget's dicts and send one ``Plotly.update``, as plotly.py's
    ``batch_update`` does (mirrors BaseFigure._build_update_params_from_batch, _perform_plotly_update
    and the widget's _send_update_msg in plotly.py 7), without validating the values again."""
    if not trace_edits and not layout_edits:
        return
    if fw._in_batch_mode and (fw._batch_trace_edits or fw._batch_layout_edits):
        raise RuntimeError("viz.apply: the widget has batched edits of its own; apply them first")
    indexes = sorted(trace_edits)
    for i in indexes:
        _write(fw._data[i], fw.data[i], trace_edits[i])
    _write(fw._layout, fw.layout, layout_edits)
    props = sorted({k for edits in trace_edits.values() for k in edits})
    restyle = {k: [trace_edits[i].get(k, Undefined) for i in indexes] for k in props}
    fw._send_update_msg(restyle_data=restyle, relayout_data=layout_edits, trace_indexes=indexes)


def _write(props: dict[str, Any], obj: Any, edits: dict[str, Any]) -> None:
    """Write ``edits`` into ``obj``'s dict ``props``; a cleared compound property becomes what
    plotly.py makes of None ({} or [], kept and sent), a cleared plain one goes."""
    for k, v in edits.items():
        if v is None:
            validator = obj._get_validator(k)
            if isinstance(validator, CompoundArrayValidator):
                edits[k] = props[k] = []
            elif isinstance(validator, CompoundValidator):
                edits[k] = props[k] = {}
            else:
                props.pop(k, None)
        else:
            # compound values are copied (a learner's later edit of the widget must not reach the
            # dicts apply remembers); data arrays are replaced, never edited in place, and shared
            props[k] = deepcopy(v) if isinstance(v, dict) or (isinstance(v, list) and v and isinstance(v[0], dict)) else v
        # plotly.py's objects for this property are rebuilt from the dicts when next read
        obj._compound_props.pop(k, None)
        obj._compound_array_props.pop(k, None)


def remember(widget: go.FigureWidget, parts: FigureParts) -> None:
    """Note that ``widget`` was built from ``parts``, so the next :func:`apply` compares with them
    (and takes the path without plotly.py's objects) instead of reading the widget back."""
    if len(parts.data) != len(widget.data):
        raise ValueError(f"the widget has {len(widget.data)} traces, the parts {len(parts.data)}")
    shown_now = [_HIDDEN_TRACE if is_hidden(t) else t for t in parts.data]
    widget.__dict__[_LAST] = (shown_now, dict(parts.layout))


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


__all__ = ["HIDDEN", "apply", "is_hidden", "remember", "shown"]
