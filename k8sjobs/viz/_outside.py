"""A figure's title and legend as HTML beside it, for a dashboard that redraws the figure on every step.

plotly.js redraws a whole figure on any change of its data (every step of a dashboard), its title
and legend included: on the start page's two figures, a quarter to a third of plotly's time in a
step (measured in Chromium on the updates a step sends: 44-50 ms for both figures with them, 30-39
without). A dashboard shows them as HTML instead, above and below the figure. :func:`outside`
takes them out of a figure's dicts, gives the plot the same size, and puts their HTML
(:func:`title_html`, :func:`legend_html`) into the layout's ``meta`` (:data:`TITLE_META`,
:data:`LEGEND_META`), so that they travel in the figure's own update, one message a step; the
dashboard's figure loader (``k8sjobs/widgets/figure.py``) writes them beside the plot in the same
task as plotly's redraw (an HTML widget of their own cost a message, a view update and a layout of
its own each step, about as much as it saved).

Only a dashboard does this (:mod:`k8sjobs.widgets`): a figure displayed on its own, a stored
notebook output and the text twins keep their titles and legends inside the figure. Pure
functions of the figure's dicts, no ipywidgets.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from ._common import FigureParts, join_lines

BARE_TOP = 24
"""The top margin of a figure without its title: room for a current-cycle label above the plot
(:func:`~k8sjobs.viz._common.now_line`, about 17 px)."""
LEGEND_BAND = 30
"""Pixels a one-row legend at the bottom of a figure (``LEGEND_BOTTOM``) takes below the x axis's title."""

TITLE_META = "k8sjobs_title"
"""The key of ``layout.meta`` holding the title's HTML in a figure :func:`outside` made."""
LEGEND_META = "k8sjobs_legend"
"""The key of ``layout.meta`` holding the legend's HTML in a figure :func:`outside` made."""

_TAGS = ("b", "i", "sup", "sub")


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """One entry of a figure's legend: the trace it names (its index), its name and its swatch (HTML)."""

    trace: int
    name: str
    swatch: str


@dataclass(frozen=True, slots=True)
class Outside:
    """What :func:`outside` took out of a figure: its title and subtitle (plotly's text, lines joined)
    and its legend's entries in the legend's order (empty when the figure shows no legend)."""

    title: str
    subtitle: str
    legend: tuple[LegendEntry, ...]

    @property
    def text(self) -> str:
        """The title and the subtitle as plain text, a line each (as :func:`~k8sjobs.viz._common.figure_title`)."""
        plain = [_plain(self.title), _plain(self.subtitle)]
        return "\n".join(p for p in plain if p)


def outside(parts: FigureParts) -> tuple[FigureParts, Outside]:
    """The figure without its title and its legend (new dicts; ``parts`` is not changed), and them.

    The plot keeps its size: the top margin becomes :data:`BARE_TOP` and a legend's rows at the
    bottom (``LEGEND_BOTTOM``, with the rows :func:`~k8sjobs.viz._common.fit_legend` added) leave the
    bottom margin; the figure's height shrinks by as much. A legend plotly places elsewhere stays.
    Their HTML goes into ``meta`` (:data:`TITLE_META`, :data:`LEGEND_META`: empty when there is none).
    """
    lay = dict(parts.layout)
    data = list(parts.data)
    meta = dict(lay["meta"]) if isinstance(lay.get("meta"), dict) else {}
    ttl = lay.pop("title", None) or {}
    main = join_lines((ttl.get("text") or "").split("<br>"))
    sub = join_lines(((ttl.get("subtitle") or {}).get("text") or "").split("<br>"))
    margin = dict(lay["margin"]) if isinstance(lay.get("margin"), dict) else None
    if ttl and margin is not None and margin.get("t") is not None:
        cut = margin["t"] - BARE_TOP
        margin["t"] = BARE_TOP
        if lay.get("height") is not None:
            lay["height"] -= cut
    entries: tuple[LegendEntry, ...] = ()
    legend = lay.get("legend") or {}
    if legend.get("orientation") == "h" and legend.get("yref") == "container" and margin is not None:
        # the names as the view gave them, where fit_legend wrapped them
        for i, name in (meta.pop("legend_names", None) or {}).items():
            data[int(i)] = {**data[int(i)], "name": name}
        entries = legend_entries(data, lay.get("showlegend"))
        cut = meta.pop("legend_px", 0) + LEGEND_BAND
        margin["b"] = max(10, (margin.get("b") or 80) - cut)
        if lay.get("height") is not None:
            lay["height"] -= cut
        lay["showlegend"] = False
        lay.pop("legend", None)
    if margin is not None:
        lay["margin"] = margin
    head = Outside(main, sub, entries)
    meta[TITLE_META], meta[LEGEND_META] = title_html(head), legend_html(entries)
    lay["meta"] = meta
    return FigureParts(data, lay), head


def legend_entries(data: list[dict[str, Any]], showlegend: bool | None = None) -> tuple[LegendEntry, ...]:
    """The entries plotly's legend would show for ``data``, in its order (``traceorder: normal``: by
    ``legendrank``, then trace order); none when ``showlegend`` is False, or None and fewer than two."""
    if showlegend is False:
        return ()
    shown = [i for i, t in enumerate(data)
             if t.get("showlegend") is not False and t.get("name") and t.get("visible", True) is not False]
    if showlegend is None and len(shown) < 2:
        return ()
    shown.sort(key=lambda i: data[i]["legendrank"] if data[i].get("legendrank") is not None else 1000)
    return tuple(LegendEntry(i, data[i]["name"], swatch(data[i])) for i in shown)


def _plain(text: str) -> str:
    for tag in _TAGS:
        text = text.replace(f"<{tag}>", "").replace(f"</{tag}>", "")
    return text


def rich(text: str) -> str:
    """plotly's text (a few tags: ``<b>``, ``<i>``, ``<sup>``, ``<sub>``, ``<br>``) as safe HTML: everything
    escaped but those tags."""
    out = html.escape(text, quote=False)
    for tag in (*_TAGS, "br"):
        out = out.replace(f"&lt;{tag}&gt;", f"<{tag}>").replace(f"&lt;/{tag}&gt;", f"</{tag}>")
    return out


def title_html(head: Outside) -> str:
    """The title and subtitle as HTML (classes ``k8sjobs-figure-title``, ``k8sjobs-figure-subtitle``)."""
    out = f"<div class='k8sjobs-figure-title'>{rich(head.title)}</div>" if head.title else ""
    if head.subtitle:
        out += f"<div class='k8sjobs-figure-subtitle'>{rich(head.subtitle)}</div>"
    return out


def legend_html(entries: tuple[LegendEntry, ...]) -> str:
    """The legend as a row of toggle buttons, each its trace's swatch and name (``data-trace`` its index),
    all pressed: the dashboard's loader sets ``aria-pressed='false'`` on a trace hidden by a click
    (plotly's ``legendonly``) from the figure's traces whenever it draws the legend."""
    if not entries:
        return ""
    items = "".join(
        f"<button type='button' class='k8sjobs-legend-item' data-trace='{e.trace}' aria-pressed='true'>{e.swatch}"
        f"<span class='k8sjobs-legend-name'>{rich(e.name)}</span></button>" for e in entries)
    return f"<div class='k8sjobs-legend'>{items}</div>"


# ------------------------------------------------------------------------------ swatches

_DASHES = {"solid": "", "dot": "2,2", "dash": "5,3", "longdash": "9,3", "dashdot": "5,2,2,2",
           "longdashdot": "9,2,2,2"}
# Marker symbols as SVG in a 30 x 14 box, centred at (15, 7); "F" is replaced by the fill.
_SYMBOLS = {
    "circle": "<circle cx='15' cy='7' r='4.5' F/>",
    "square": "<rect x='10.5' y='2.5' width='9' height='9' F/>",
    "diamond": "<path d='M15 1.5L20.5 7L15 12.5L9.5 7Z' F/>",
    "triangle-up": "<path d='M15 2L20 11.5H10Z' F/>",
    "triangle-down": "<path d='M10 2.5H20L15 12Z' F/>",
    "triangle-right": "<path d='M10.5 2L20 7L10.5 12Z' F/>",
    "hexagon": "<path d='M15 2L19.5 4.5V9.5L15 12L10.5 9.5V4.5Z' F/>",
}
_STROKES = {"x": ("M11 3L19 11M19 3L11 11", 2.5), "x-thin": ("M11 3L19 11M19 3L11 11", 1.3),
            "line-ns": ("M15 1.5V12.5", 1.5)}
# plotly's bar patterns as CSS backgrounds: (gradients, size)
_LINES = "repeating-linear-gradient({deg}deg, {c} 0 1.2px, transparent 1.2px 4px)"
_PATTERNS = {"/": [_LINES.replace("{deg}", "135")], "\\": [_LINES.replace("{deg}", "45")],
             "-": [_LINES.replace("{deg}", "0")], "|": [_LINES.replace("{deg}", "90")],
             "x": [_LINES.replace("{deg}", "45"), _LINES.replace("{deg}", "135")],
             "+": [_LINES.replace("{deg}", "0"), _LINES.replace("{deg}", "90")],
             ".": ["radial-gradient(circle, {c} 1px, transparent 1.4px) 0 0 / 4px 4px"]}


def _first(value: Any, default: str) -> str:
    if isinstance(value, (list, tuple)):
        value = next((v for v in value if isinstance(v, str)), None)
    return value if isinstance(value, str) and value else default


def _attr(text: str) -> str:
    return html.escape(text, quote=True)


def swatch(trace: dict[str, Any]) -> str:
    """A legend swatch for ``trace`` as plotly draws it: a bar's fill colour and pattern, a line's colour and
    dash, a marker's symbol and colour (an inline SVG; hidden from screen readers: the name says it)."""
    marker = trace.get("marker") or {}
    if trace.get("type") == "bar":
        color = _first(marker.get("color"), "#888888")
        outline = _first((marker.get("line") or {}).get("color"), "#222222")
        style = f"background-color:{color};border:1px solid {outline}"
        pattern = marker.get("pattern") or {}
        layers = _PATTERNS.get(pattern.get("shape") or "")
        if layers:
            fg = _first(pattern.get("fgcolor"), "#000000")
            style += ";background:" + ", ".join(layer.replace("{c}", fg) for layer in layers) + f" {color}"
        return f"<span class='k8sjobs-swatch k8sjobs-swatch-bar' aria-hidden='true' style='{_attr(style)}'></span>"
    mode = trace.get("mode") or "lines+markers"
    parts = []
    if "lines" in mode:
        line = trace.get("line") or {}
        color = _first(line.get("color"), "#888888")
        dash = _DASHES.get(line.get("dash") or "solid", "")
        width = min(float(line.get("width") or 2), 3)
        parts.append(f"<line x1='1' y1='7' x2='29' y2='7' stroke='{_attr(color)}' stroke-width='{width:g}'"
                     + (f" stroke-dasharray='{dash}'" if dash else "") + "/>")
    if "markers" in mode or not parts:
        parts.append(_symbol(marker))
    return (f"<svg class='k8sjobs-swatch' width='30' height='14' viewBox='0 0 30 14' aria-hidden='true'>"
            f"{''.join(parts)}</svg>")


def _symbol(marker: dict[str, Any]) -> str:
    symbol = str(marker.get("symbol") or "circle")
    color = _attr(_first(marker.get("color"), "#888888"))
    edge = _attr(_first((marker.get("line") or {}).get("color"), color))
    base, open_ = (symbol[:-5], True) if symbol.endswith("-open") else (symbol, False)
    if base in _STROKES:
        d, width = _STROKES[base]
        return f"<path d='{d}' fill='none' stroke='{color}' stroke-width='{width:g}'/>"
    shape = _SYMBOLS.get(base, _SYMBOLS["circle"])
    fill = (f"fill='none' stroke='{color}' stroke-width='1.5'" if open_
            else f"fill='{color}' stroke='{edge}' stroke-width='0.5'")
    return shape.replace("F/>", fill + "/>")


__all__ = ["BARE_TOP", "LEGEND_BAND", "LEGEND_META", "TITLE_META", "LegendEntry", "Outside", "legend_entries", "legend_html", "outside", "rich",
           "swatch", "title_html"]
