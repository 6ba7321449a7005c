"""Shared pieces of the views: outcome styles, figure building, cycle lookup, text tables.

Every view is a pure function of ``(trace, cycle)``. Figures are built from plain dicts and
wrapped in :class:`plotly.graph_objects.Figure` without validation (validation of a few
thousand cells costs more than the whole 50 ms budget); the tests rebuild each figure with
validation and check that nothing changes, so a typo in a property name still fails a test.

Nothing here imports ipywidgets: the views must work in a static notebook and in Voila.
"""

from __future__ import annotations

import math
import unicodedata
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio

from k8sjobs.i18n import N_, Nn_, _, display_width, get_language, is_wide, ljust, ngettext, rjust, wrap_width
from k8sjobs.trace.recorder import Trace
from k8sjobs.trace.records import Cycle

# ------------------------------------------------------------------------------ outcomes

OUTCOMES = ("running", "pending", "succeeded", "failed", "terminating", "deleted")
"""Every pod outcome a view can show, in legend order."""


@dataclass(frozen=True, slots=True)
class OutcomeStyle:
    """How one outcome looks: a fill colour, a fill pattern and a marker symbol (for graphs)."""

    color: str
    pattern: str
    pattern_color: str
    symbol: str
    word: str
    """The outcome in English, marked: show it with :func:`outcome_word`."""


# Okabe-Ito colours (safe for colour-blind readers) plus a pattern per outcome, so that the
# outcome is readable in black and white too.
OUTCOME_STYLE: dict[str, OutcomeStyle] = {
    # TRANSLATORS: pod outcomes as the views label them (legend entries, table cells).
    "running": OutcomeStyle("#0072B2", "", "#ffffff", "circle", N_("running")),
    "pending": OutcomeStyle("#E0E0E0", ".", "#444444", "circle-open", N_("pending")),
    "succeeded": OutcomeStyle("#009E73", "/", "#ffffff", "square", N_("succeeded")),
    "failed": OutcomeStyle("#D55E00", "x", "#ffffff", "x", N_("failed")),
    "terminating": OutcomeStyle("#E69F00", "-", "#000000", "diamond", N_("terminating")),
    "deleted": OutcomeStyle("#CC79A7", "\\", "#000000", "triangle-down", N_("deleted")),
}


def outcome_word(outcome: str) -> str:
    """The outcome's word in the current language (``running``, ``succeeded``, ...)."""
    return _(OUTCOME_STYLE[outcome].word)

HIGHLIGHT = "#FFD54F"
"""Fill of highlighted cells and boxes (the deciding rule, the current step)."""

INK = "#222222"
MUTED = "#888888"

TEMPLATE: dict[str, Any] = pio.templates["plotly_white"].to_plotly_json()
"""The plotly_white template as a plain dict (unvalidated figures do not expand template names)."""

FONT = {"family": "DejaVu Sans, Arial, sans-serif", "size": 12, "color": INK}


def bar_marker(outcome: str, **extra: Any) -> dict[str, Any]:
    """The marker of a bar trace of ``outcome``: colour, pattern and a dark outline."""
    s = OUTCOME_STYLE[outcome]
    marker: dict[str, Any] = {"color": s.color, "line": {"color": INK, "width": 0.5}}
    if s.pattern:
        marker["pattern"] = {"shape": s.pattern, "fgcolor": s.pattern_color, "size": 6, "solidity": 0.3}
    marker.update(extra)
    return marker


# ------------------------------------------------------------------------------ figures


def _nbformat_ok() -> bool:
    """True where plotly's own display works: nbformat >= 4.2 imports (plotly's own check)."""
    try:
        import nbformat
        from packaging.version import Version

        return Version(nbformat.__version__) >= Version("4.2.0")
    except Exception:  # not installed (JupyterLite), or no usable version
        return False


class Figure(go.Figure):
    """A plotly ``Figure`` that also displays where nbformat cannot be installed (JupyterLite).

    plotly's display (``pio.show``) refuses to publish even its own JSON mimetype unless
    nbformat >= 4.2 imports, and nbformat cannot be installed in the browser (Pyodide): its
    jsonschema stack needs rpds-py, which has no wasm wheel. Publishing the figure needs no
    nbformat, so without it this figure publishes the ``application/vnd.plotly.v1+json`` bundle
    itself -- what plotly publishes in JupyterLab -- and JupyterLab's plotly extension draws
    it. Where nbformat imports, plotly's own display runs unchanged.
    """

    def _mimetype_bundle(self) -> dict[str, Any]:
        # plotly's "plotly_mimetype" renderer, as plotly's display uses it in JupyterLab; only
        # the JSON mimetype: no renderer that inlines or downloads plotly.js.
        return pio.renderers["plotly_mimetype"].to_mimebundle(self.to_dict())

    def _repr_mimebundle_(self, include=None, exclude=None, validate=True, **kwargs):
        """The display bundle; without nbformat, plotly's JSON mimetype alone (see the class)."""
        if _nbformat_ok():
            return super()._repr_mimebundle_(include, exclude, validate, **kwargs)
        return self._mimetype_bundle()

    def _ipython_display_(self) -> None:
        """Display in IPython; without nbformat, publish the JSON mimetype bundle directly."""
        if _nbformat_ok():
            super()._ipython_display_()
            return
        from IPython.display import display

        display(self._mimetype_bundle(), raw=True)


@dataclass(slots=True)
class FigureParts:
    """A figure as the plain dicts plotly is given (``data``, ``layout``), before any plotly object.

    A dashboard's redraw works on these (:func:`k8sjobs.viz.figure_parts`, :func:`k8sjobs.viz.apply`):
    building a ``Figure`` and reading it back through plotly's property objects cost more than the
    view itself (a step of the start page: 42 ms in the kernel, most of it plotly's objects).
    """

    data: list[dict[str, Any]]
    layout: dict[str, Any]

    def figure(self) -> Figure:
        """The ``Figure`` of these dicts (unvalidated: see the module)."""
        return Figure(data=self.data, layout=self.layout, _validate=False)


_PARTS: ContextVar[bool] = ContextVar("k8sjobs_viz_parts", default=False)


@contextmanager
def parts_only() -> Iterator[None]:
    """Inside this block :func:`make_figure` returns :class:`FigureParts` instead of a ``Figure``
    (each view's builder ends with it), so a redraw never builds plotly objects it drops at once."""
    token = _PARTS.set(True)
    try:
        yield
    finally:
        _PARTS.reset(token)


def make_figure(data: Sequence[dict[str, Any]], layout: dict[str, Any], *, view: str) -> Figure:
    """A Figure from plain dicts, with our template, font and a deterministic ``uirevision``.

    ``uirevision`` is the view name, so a dashboard that updates the figure in place keeps
    the learner's zoom and legend clicks from one step to the next. (Inside :func:`parts_only`:
    the same figure as :class:`FigureParts`.)
    """
    lay = {"template": TEMPLATE, "font": FONT, "uirevision": f"k8sjobs-{view}",
           "meta": {"view": view}, "hoverlabel": {"namelength": -1}}
    lay.update({k: v for k, v in layout.items() if k != "meta" and not (k in ("shapes", "annotations") and not v)})
    lay["meta"] = {**lay["meta"], **layout.get("meta", {})}  # a view's own notes beside its name
    ttl = lay.get("title")
    if isinstance(ttl, dict) and "margin" in lay:
        # Room above the plot for every title and subtitle line.
        lay["margin"] = dict(lay["margin"])
        base = lay["margin"].get("t", 100)
        lay["meta"] = {**lay["meta"], "top": base}
        extra = max(0, title_need(lay["meta"], ttl.get("text", ""), ttl.get("subtitle", {}).get("text", "")) - base)
        lay["margin"]["t"] = base + extra
        if "height" in lay:
            lay["height"] = lay["height"] + extra
    # A legend at the bottom gets the rows it needs at full width (a half-width pane re-fits it).
    parts = FigureParts(list(data), lay)
    fit_legend(parts, FIGURE_PX)
    return parts if _PARTS.get() else parts.figure()


FIGURE_PX = 800
"""The narrowest a full-width figure is drawn (a notebook column at 1280 px with JupyterLab's
side bar open is about 810 px): titles, subtitles and labels are fitted to it."""
NARROW_FIGURE_PX = 380
"""The narrowest a half-width figure is drawn (two views side by side): see :func:`narrow_titles`."""
TITLE_SIZE = 15
SUBTITLE_SIZE = 12
TITLE_LINE_PX = 19
SUBTITLE_LINE_PX = 15
"""Pixels a line of a title / subtitle takes (plotly's line height at their font sizes)."""


def title_top(main: str, sub: str = "") -> int:
    """The top margin a title of these lines needs, with room below it for a current-cycle label.

    Plotly centres a title's first line in the top margin and writes the other lines and the
    subtitle below it, so every added line takes twice its height of margin (measured in
    Chromium: the subtitle's last line ends at margin/2 + 19 per title line + 15 per
    subtitle line - 7 px; a current-cycle label above the plot takes the last 17 px).
    """
    lines = main.count("<br>") + 1
    sub_lines = sub.count("<br>") + 1 if sub else 0
    return 2 * (TITLE_LINE_PX * lines + SUBTITLE_LINE_PX * sub_lines + 12)


def title_need(meta: dict[str, Any], main: str, sub: str = "") -> int:
    """The top margin a figure's title needs: its lines' (:func:`title_top`), or more where the view
    keeps the room of a later title (``meta["top_min"]``: the counts view before its first cycle)."""
    return max(title_top(main, sub), meta.get("top_min", 0))


# Advance widths of DejaVu Sans (the figures' first font; Arial, the fallback, is narrower),
# in hundredths of an em, as Chromium draws them: printable ASCII from " " to "~", then
# Cyrillic from "А" to "я".
_ASCII_EM = (32, 40, 46, 84, 64, 95, 78, 27, 39, 39, 50, 84, 32, 36, 32, 34, 64, 64, 64, 64, 64, 64, 64, 64, 64, 64,
             34, 34, 84, 84, 84, 53, 100, 71, 69, 70, 77, 63, 58, 77, 75, 29, 29, 66, 56, 86, 75, 79, 60, 79, 69, 63,
             60, 73, 68, 99, 69, 61, 69, 39, 34, 39, 84, 50, 50, 61, 63, 55, 63, 62, 34, 63, 63, 28, 28, 58, 28, 97,
             63, 61, 63, 63, 40, 52, 39, 63, 59, 82, 59, 59, 52, 64, 34, 64, 84)
_CYRILLIC_EM = (68, 69, 69, 61, 78, 63, 108, 64, 75, 75, 71, 75, 86, 75, 79, 75, 60, 70, 61, 61, 86, 69, 78, 69, 107,
                109, 83, 88, 69, 70, 108, 69, 61, 62, 59, 53, 69, 62, 90, 53, 65, 65, 60, 64, 75, 65, 61, 65, 63, 55,
                58, 59, 85, 59, 68, 59, 92, 94, 71, 79, 59, 55, 84, 60)
_TAGS = ("<b>", "</b>", "<i>", "</i>", "<sup>", "</sup>")


def text_px(text: str, size: float = 12, *, bold: bool = False) -> float:
    """How many pixels ``text`` (one line; the views' few tags are ignored) takes at font ``size``.

    Plotly neither wraps nor shrinks titles and annotations, so the views measure their own
    text to fit it in the figure. Chinese (wide) characters take one em; other characters the
    width DejaVu Sans gives them (0.85 em for any not in the table, on the wide side).
    Bold text is taken 10% wider.
    """
    for tag in _TAGS:
        text = text.replace(tag, "")
    em = 0
    for ch in text:
        o = ord(ch)
        if 32 <= o < 127:
            em += _ASCII_EM[o - 32]
        elif 0x410 <= o < 0x450:
            em += _CYRILLIC_EM[o - 0x410]
        elif is_wide(ch):
            em += 100
        elif not unicodedata.combining(ch):
            em += 85
    return em / 100 * size * (1.1 if bold else 1.0)


TICK_GAP_PX = 6
"""Pixels between a category axis's names and the plot (plotly's automargin: tick length and padding)."""


def plot_beside_names(width_px: float, margin: dict[str, int], names: Iterable[str]) -> float:
    """The plot's width in a figure ``width_px`` wide with ``margin``, whose y axis (a category
    axis with automargin) shows ``names`` at 12 px: plotly makes room for the widest line of
    them (``<br>`` starts a line) and its tick gap; the plot has what is left."""
    widest = max((text_px(line) for n in names for line in n.split("<br>")), default=0.0)
    return width_px - margin["l"] - margin["r"] - widest - TICK_GAP_PX


def short_pod_label(label: str, job: str) -> str:
    """A pod's label without its Job's name (``wide-h85nt`` -> ``…-h85nt``, ``[2] idx-2-x7k2p`` ->
    ``[2] …-2-x7k2p``): the part that tells the Job's pods apart. Other labels stay whole."""
    index, sep, name = label.rpartition("] ")
    if name.startswith(job + "-"):
        return f"{index}{sep}…{name[len(job):]}"
    return label


def wrap_px(text: str, width_px: float, size: float = 12) -> list[str]:
    """Greedy wrap of ``text`` into lines of at most ``width_px`` pixels at font ``size``.

    Latin and Cyrillic text breaks at spaces (a longer word stays whole); Chinese may break
    between two characters, never before closing punctuation (:func:`k8sjobs.i18n.wrap_width`).
    """
    return wrap_width(text, width_px, measure=lambda piece: text_px(piece, size))


def wrap(text: str, width: int) -> list[str]:
    """Greedy word wrap into lines of at most ``width`` display columns (longer words stay whole).

    Text with Chinese in it may break between characters (:func:`k8sjobs.i18n.wrap_width`).
    """
    return wrap_width(text, width)


def join_lines(lines: Sequence[str]) -> str:
    """Wrapped lines back into one line: a space where the break was a space, none where it
    fell between two Chinese characters."""
    out = ""
    for line in lines:
        if out and (is_wide(out[-1]) or is_wide(line[:1] or " ")):
            out += line
        else:
            out += (" " if out else "") + line
    return out


def title_room(width_px: float) -> float:
    """Pixels a title line may take in a figure ``width_px`` wide (it starts at 1% of the width;
    as much and a few pixels stay free on the right)."""
    return width_px * 0.98 - 6


def title(main: str, sub: str = "", *, width_px: float = FIGURE_PX) -> dict[str, Any]:
    """A figure title (left-aligned) with an optional subtitle, each wrapped to fit a figure
    ``width_px`` wide (plotly clips a title instead of wrapping it).

    :func:`make_figure` gives the added lines room above the plot.
    """
    room = title_room(width_px)
    out: dict[str, Any] = {"text": "<br>".join(wrap_px(main, room, TITLE_SIZE)) or main, "x": 0.01,
                           "xanchor": "left", "font": {"size": TITLE_SIZE}}
    if sub:
        out["subtitle"] = {"text": "<br>".join(wrap_px(sub, room, SUBTITLE_SIZE)),
                           "font": {"size": SUBTITLE_SIZE, "color": "#444444"}}
    return out


def narrow_titles(parts: FigureParts) -> FigureParts:
    """Wrap the title and subtitle of a figure for a half-width pane, in place; returns ``parts``.

    Plotly clips a title that is wider than the figure instead of wrapping it, so a view
    shown beside another one gets shorter lines (fitted to :data:`NARROW_FIGURE_PX`). The top
    margin and the height grow by the lines added, so the plot keeps its size.
    """
    lay = parts.layout
    t = lay.get("title") or {}
    main = t.get("text") or ""
    sub = (t.get("subtitle") or {}).get("text") or ""
    room = title_room(NARROW_FIGURE_PX)
    new_main = "<br>".join(wrap_px(join_lines(main.split("<br>")), room, TITLE_SIZE))
    new_sub = "<br>".join(wrap_px(join_lines(sub.split("<br>")), room, SUBTITLE_SIZE)) if sub else ""
    t = lay["title"] = {**t, "text": new_main}
    if sub:
        t["subtitle"] = {**t["subtitle"], "text": new_sub}
    margin = lay.get("margin")
    top, height = (margin or {}).get("t"), lay.get("height")
    meta = lay.get("meta") if isinstance(lay.get("meta"), dict) else {}
    if top is not None:
        extra = max(meta.get("top", top), title_need(meta, new_main, new_sub)) - top
        margin = lay["margin"] = {**margin, "t": top + extra}
        if height is not None:
            lay["height"] = height + extra
    # an empty figure's centred note, one line across the plot: plotly would cut it at a pane's edge
    side = ((margin or {}).get("l") or 0) + ((margin or {}).get("r") or 0)
    notes = lay.get("annotations")
    if notes and any(n.get("name") == EMPTY_NOTE and n.get("text") for n in notes):
        lay["annotations"] = notes = [dict(n) for n in notes]
        for note in notes:
            if note.get("name") == EMPTY_NOTE and note.get("text"):
                size = (note.get("font") or {}).get("size") or 13
                note["text"] = "<br>".join(wrap_px(join_lines(note["text"].split("<br>")),
                                                   NARROW_FIGURE_PX - side - 10, size))
    fit_legend(parts, NARROW_FIGURE_PX)
    return parts


NARROW_PANE_PX = 380
"""Width of a half-width pane, conservatively (a 1280 px window with JupyterLab's side bar)."""
LEGEND_ROW = 19
"""Pixels per row (per line) of a horizontal legend."""
LEGEND_GROUP_GAP = 10
"""Pixels plotly adds between the rows of a horizontal legend whose traces have legend groups
(its ``tracegroupgap``)."""
LEGEND_TEXT_X = 40
"""Pixels from a legend entry's left to its text (plotly's symbol and gaps); plotly's
``entrywidth`` is the width of the text part, after these."""
LEGEND_GAP = 6
"""Pixels between two columns of a horizontal legend (plotly's item gap and a pixel to spare)."""
LEGEND_PAD = 8
"""Pixels kept free after an entry's text."""
LEGEND_FONT = 12
YTITLE_PX = 24
"""Pixels an automargined y axis's title takes left of its tick labels (a 12 px line and its standoff)."""


def layout_plot_px(width_px: float, layout: Any) -> float:
    """The plot's width in a figure ``width_px`` wide with ``layout`` (a dict or a plotly layout):
    the margins, and where the y axis makes its own room (automargin), its names and its title.

    A view whose names come and go from cycle to cycle (the timeline's pods) makes their room
    itself, in its left margin, for the widest names of its whole run, and says so with
    ``meta["names_px"]`` (:func:`names_room`): the plot keeps its width, and the legend and the x
    axis's title their rows, from the first cycle to the last."""
    def get(obj: Any, key: str) -> Any:
        return obj.get(key) if isinstance(obj, dict) else getattr(obj, key, None)

    margin = get(layout, "margin") or {}
    lr = {"l": get(margin, "l") or 0, "r": get(margin, "r") or 0}
    y = get(layout, "yaxis") or {}
    meta = get(layout, "meta")
    if not get(y, "automargin") or (isinstance(meta, dict) and "names_px" in meta):
        return width_px - lr["l"] - lr["r"]
    names = get(y, "ticktext") or get(y, "categoryarray") or ()
    plot = plot_beside_names(width_px, lr, [str(n) for n in names])
    ytitle = get(y, "title")
    words = get(ytitle, "text") if ytitle is not None else None
    if words:
        plot -= YTITLE_PX + LEGEND_ROW * words.count("<br>")
    return plot


def names_room(names_px: float, ytitle: str) -> int:
    """Pixels left of a plot for a y axis's names ``names_px`` wide and its title (``<br>``
    between lines): what plotly's automargin would push the margin to, a few pixels to spare."""
    return math.ceil(names_px + TICK_GAP_PX + YTITLE_PX + LEGEND_ROW * ytitle.count("<br>"))


AXIS_LINE_PX = 16
"""Pixels a line of an axis title takes (plotly's line height at 12 px)."""


def fit_x_title(layout: dict[str, Any], width_px: float) -> None:
    """Wrap the x axis's title of ``layout`` (a dict, in place) to the plot's width in a figure
    ``width_px`` wide; the figure grows by the lines added, so the plot keeps its height.

    Plotly centres the title under the plot and neither wraps nor shrinks it: the ru "время с
    момента создания Job (с)" ran 30 px past a 380 px figure beside long pod names."""
    xtitle = layout["xaxis"]["title"]
    words = xtitle["text"]
    plot = layout_plot_px(width_px, layout)
    if text_px(words) <= plot:
        return
    lines = wrap_px(words, plot)
    xtitle["text"] = "<br>".join(lines)
    extra = AXIS_LINE_PX * (len(lines) - 1)
    layout["margin"] = {**layout["margin"], "b": layout["margin"]["b"] + extra}
    layout["height"] += extra


def fit_legend(parts: FigureParts, width_px: float) -> FigureParts:
    """Fit a horizontal legend at the bottom of a figure to a figure ``width_px`` wide, in place.

    Plotly wraps a horizontal legend where its entries reach the *plot's* width (not the
    figure's), giving every entry the widest one's width once they do not fit in one row; the
    rows it adds take the plot's own height (the ru counts view at 800 px: nine entries of 350
    px in one column, the plot shrunk from 280 to 139 px and its end labels on top of each
    other). Here the columns are as wide as the widest entry (measured) and as many as the
    plot holds, an entry wider than the plot is wrapped between words (the trace's name is the
    legend's text; its hover reads the same words), and the figure grows by the rows, so the
    plot keeps its size. Fitting again (at another width) starts from the unfitted figure.

    The dicts changed are replaced by changed copies, never written into: a view's layout
    shares constant dicts (its legend, its margins) with every other figure it draws.
    """
    lay, data = parts.layout, parts.data
    legend = lay.get("legend") or {}
    if legend.get("orientation") != "h" or legend.get("yref") != "container" or lay.get("height") is None:
        return parts
    meta = dict(lay["meta"]) if isinstance(lay.get("meta"), dict) else {}
    grown = meta.pop("legend_px", 0)
    if grown:
        lay["margin"] = {**lay["margin"], "b": lay["margin"]["b"] - grown}
        lay["height"] -= grown
    # The names as the view gave them, where an earlier fit wrapped them (joining the lines again
    # could not tell "或 Job" from "或Job").
    names = {int(i): name for i, name in meta.pop("legend_names", {}).items()}
    for i, name in names.items():
        data[i] = {**data[i], "name": name}
    shown = [i for i, t in enumerate(data) if t.get("showlegend") is not False and t.get("name")]
    if not shown:
        lay["meta"] = meta
        return parts
    plot = layout_plot_px(width_px, lay)
    # (A plot narrower than any entry still gets one column of whole words.)
    room = max(plot - LEGEND_TEXT_X - LEGEND_GAP - LEGEND_PAD, 120)
    for i in shown:
        name = data[i]["name"]
        if text_px(name, LEGEND_FONT) > room:
            names[i] = name
            data[i] = {**data[i], "name": "<br>".join(wrap_px(name, room, LEGEND_FONT))}
    if names:
        meta["legend_names"] = {str(i): name for i, name in names.items()}
    # Rows in the legend's order (a lower legendrank comes first, as in the cycle strip's entry).
    shown.sort(key=lambda i: data[i]["legendrank"] if data[i].get("legendrank") is not None else 1000)
    lines = [data[i]["name"].split("<br>") for i in shown]
    widest = max(text_px(line, LEGEND_FONT) for ls in lines for line in ls)
    columns = max(1, min(len(shown), int(plot // (LEGEND_TEXT_X + widest + LEGEND_PAD + LEGEND_GAP))))
    # plotly adds LEGEND_TEXT_X to it
    entry = max(int(plot // columns) - LEGEND_TEXT_X - LEGEND_GAP, int(widest) + LEGEND_PAD)
    lay["legend"] = {**legend, "xref": "container", "x": 0.01, "entrywidth": entry, "entrywidthmode": "pixels"}
    row_px = LEGEND_ROW + (LEGEND_GROUP_GAP if any(t.get("legendgroup") for t in data) else 0)
    rows = [max(len(ls) for ls in lines[i:i + columns]) for i in range(0, len(lines), columns)]
    extra = LEGEND_ROW * (sum(rows) - 1) + (row_px - LEGEND_ROW) * (len(rows) - 1)
    if extra > 0:
        margin = lay.get("margin") or {}
        lay["margin"] = {**margin, "b": (margin.get("b") or 80) + extra}
        lay["height"] = lay["height"] + extra
        meta["legend_px"] = extra
    lay["meta"] = meta
    return parts


def empty_figure(view: str, main: str, sub: str = "") -> go.Figure:
    """A figure with only a title and a centred note: for "nothing of this kind happened yet"."""
    return make_figure([], {
        "title": title(main, sub), "height": 260, "margin": {"t": 90, "l": 40, "r": 40, "b": 30},
        "xaxis": {"visible": False}, "yaxis": {"visible": False},
        "annotations": [{"text": sub or main, "showarrow": False, "xref": "paper", "yref": "paper",
                         "x": 0.5, "y": 0.4, "font": {"size": 13, "color": MUTED}, "name": EMPTY_NOTE}]}, view=view)


EMPTY_NOTE = "empty-note"
"""The name of an empty figure's centred note (:func:`narrow_titles` wraps it for a half-width pane)."""


def figure_title(fig: go.Figure) -> str:
    """The plain text of a figure's title and subtitle (what the text twin starts with)."""
    t = fig.layout.title
    main = join_lines((t.text or "").split("<br>"))
    sub = join_lines(t.subtitle.text.split("<br>")) if t.subtitle is not None and t.subtitle.text else ""
    return main + ("\n" + sub if sub else "")


# ------------------------------------------------------------------------------ cycles


def resolve(trace: Trace, cycle: int) -> tuple[int, float, Cycle | None]:
    """``(cycle, t, Cycle)`` for a cycle number; 0 means "before the first cycle" (t = the run's start).

    Raises IndexError naming the valid range, as :meth:`Trace.cycle` does.
    """
    if isinstance(cycle, bool) or not isinstance(cycle, int):
        raise TypeError(_("cycle must be an integer, got {value!r}").format(value=cycle))
    if cycle == 0:
        return 0, trace.start_t, None  # a run from a snapshot starts at the snapshot's instant
    c = trace.cycle(cycle)
    return cycle, c.t, c


def latest_cycle_with(trace: Trace, cycle: int, has: Callable[[Cycle], bool]) -> Cycle | None:
    """The last cycle at or before ``cycle`` for which ``has`` is true."""
    for c in reversed(trace.cycles[:cycle]):
        if has(c):
            return c
    return None


def x_end(t: float) -> float:
    """Right end of a time axis at a cycle at time ``t``: a little past it (at least 1 s).

    The axis grows as the learner steps, so the recent past always fills the picture.
    """
    return max(t, 1.0) * 1.05


def cycle_word(cycle: int, t: float, trace: Trace | None = None) -> str:
    """``cycle 4 (t=32 s)``, ``the start (t=0 s)``, or at cycle 0 of a run from a real cluster's
    snapshot ``the snapshot of 2025-06-02T08:01:29Z (t=89 s)``.

    It follows "up to", "after" and "at" in the view titles, so every form is a noun phrase:
    "up to before the first cycle" did not read as English.
    """
    if cycle:
        # TRANSLATORS: "{when}" in view titles: a reconcile cycle and its simulated time.
        return _("cycle {cycle} (t={t} s)").format(cycle=cycle, t=secs(t))
    if trace is not None and trace.snapshot_at is not None:
        # TRANSLATORS: "{when}" in view titles at cycle 0 of a run that starts from a real cluster's
        # snapshot; {time} is the cluster's RFC 3339 time, {t} seconds since the Job's creation.
        return _("the snapshot of {time} (t={t} s)").format(time=trace.snapshot_at, t=secs(t))
    # TRANSLATORS: "{when}" in view titles at cycle 0, before the first reconcile cycle; English puts it
    # after "up to", "after" and "at" ("up to the start (t=0 s)"); a translation may say "before the first cycle".
    return _("the start (t=0 s)")


def now_line(t: float, label: str, *, right: float | None = None,
             yref: str = "paper") -> tuple[dict[str, Any], dict[str, Any]]:
    """A thick vertical line and its label at ``t``: the current cycle on a time axis.

    The label sits right of the line, or left of it when ``t`` is in the right part of an
    axis ending at ``right`` (so it is never cut off at the edge).
    """
    shape = {"type": "line", "x0": t, "x1": t, "y0": 0, "y1": 1, "xref": "x", "yref": yref,
             "line": {"color": INK, "width": 2.5, "dash": "dash"}, "layer": "above"}
    flip = right is not None and t > 0.6 * right
    note = {"x": t, "y": 1.0, "xref": "x", "yref": "paper", "text": f"<b>{label}</b>", "showarrow": False,
            "yanchor": "bottom", "xanchor": "right" if flip else "left", "bgcolor": HIGHLIGHT, "borderpad": 2,
            "font": {"size": 11}}
    return shape, note


def cycle_marker(cycle: int, t: float, right: float) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """``(shapes, annotations)`` marking cycle ``cycle`` at ``t`` on a time axis ending at ``right``
    (:func:`now_line` labelled "cycle N"); both empty before the first cycle."""
    if not cycle:
        return [], []
    shape, note = now_line(t, _("cycle {cycle}").format(cycle=cycle), right=right)
    return [shape], [note]


def _tick_hovers(trace: Trace) -> list[str]:
    # TRANSLATORS: hover text of a cycle's tick mark; {reason} is the cycle's headline sentence.
    text = _("cycle {cycle} at t={t} s: {reason}")
    return [text.format(cycle=c.index, t=secs(c.t), reason=c.headline.reason) for c in trace.cycles]


def cycle_ticks(trace: Trace, upto: int, *, yaxis: str = "y2") -> dict[str, Any]:
    """A scatter of small tick marks in a strip above a time axis, one per cycle up to ``upto``.

    Hover names each cycle's headline (computed once per trace: a dashboard redraws every step).
    """
    cycles = trace.cycles[:upto]
    xs = [c.t for c in cycles]
    hover = cached(trace, "tick-hovers", _tick_hovers)[:upto]
    ys: list[Any] = [0.5] * len(xs)
    if not xs:  # before the first cycle: one empty point keeps the legend's entry (see NO_POINT)
        xs, ys, hover = list(NO_POINT), list(NO_POINT), [""]
    return {"type": "scatter", "x": xs, "y": ys, "yaxis": yaxis, "mode": "markers",
            "name": _("reconcile cycles"), "marker": {"symbol": "line-ns-open", "size": 10, "color": MUTED,
                                                   "line": {"width": 1.5, "color": MUTED}},
            "hovertext": hover, "hoverinfo": "text", "showlegend": True, "legendrank": 900}


NO_POINT: tuple[None] = (None,)
"""The data of a trace with nothing to draw yet (before the first cycle): plotly leaves a trace
without points out of its legend, so the legend (the key to the picture) appeared only at the
first Step, and the figure changed its layout then; one empty point draws nothing and keeps
the trace's entry, so that Step changes only the data (a full redraw less in the browser)."""

CYCLE_STRIP: dict[str, Any] = {"domain": [0.95, 1.0], "range": [0, 1], "visible": False, "fixedrange": True}
"""The thin strip above the plot that :func:`cycle_ticks` draws on (as ``yaxis2``)."""
PLOT_DOMAIN = [0.0, 0.93]
"""The main y axis's domain in views with a cycle strip."""

LEGEND_BOTTOM: dict[str, Any] = {"orientation": "h", "yref": "container", "y": 0.005, "yanchor": "bottom",
                                 "x": 0.0, "xanchor": "left", "traceorder": "normal"}
"""A horizontal legend at the very bottom of the figure, below the x-axis title (margin b >= 90)."""


# ------------------------------------------------------------------------------ numbers and text


def secs(t: float | None) -> str:
    """Seconds with at most three decimals and no trailing zeros: ``2.812``, ``31``, ``-``."""
    if t is None:
        return "-"
    if t == float("inf"):
        return "inf"
    text = f"{t:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


COUNTED: dict[str, tuple[str, str]] = {
    "pod": Nn_("{n} pod", "{n} pods"),
    "node": Nn_("{n} node", "{n} nodes"),
    "failure": Nn_("{n} failure", "{n} failures"),
    "success": Nn_("{n} success", "{n} successes"),
    "creation": Nn_("{n} creation", "{n} creations"),
    "deletion": Nn_("{n} deletion", "{n} deletions"),
    "container restart": Nn_("{n} container restart", "{n} container restarts"),
    "event": Nn_("{n} event", "{n} events"),
    "row": Nn_("{n} row", "{n} rows"),
    "warning": Nn_("{n} warning", "{n} warnings"),
    "oldest row": Nn_("{n} oldest row", "{n} oldest rows"),
    "older row": Nn_("{n} older row", "{n} older rows"),
    # TRANSLATORS: a count of pods with an outcome, in a list such as "3 running, 2 succeeded".
    "running": Nn_("{n} running", "{n} running"),
    "pending": Nn_("{n} pending", "{n} pending"),
    "succeeded": Nn_("{n} succeeded", "{n} succeeded"),
    "failed": Nn_("{n} failed", "{n} failed"),
    "terminating": Nn_("{n} terminating", "{n} terminating"),
    "deleted": Nn_("{n} deleted", "{n} deleted"),
    "running pod": Nn_("{n} running pod", "{n} running pods"),
    "pending pod": Nn_("{n} pending pod", "{n} pending pods"),
    "succeeded pod": Nn_("{n} succeeded pod", "{n} succeeded pods"),
    "failed pod": Nn_("{n} failed pod", "{n} failed pods"),
    "terminating pod": Nn_("{n} terminating pod", "{n} terminating pods"),
    "deleted pod": Nn_("{n} deleted pod", "{n} deleted pods"),
}
"""Every counted noun the views print, as a singular/plural pair (Russian picks among three forms)."""


def plural(n: int, word: str) -> str:
    """``1 pod``, ``2 pods`` in the current language; ``word`` is a key of :data:`COUNTED`."""
    one, many = COUNTED[word]
    return ngettext(one, many, n).format(n=n)


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], *, right: Iterable[int] = ()) -> str:
    """A fixed-width text table: columns as wide as their widest cell, two spaces apart.

    Columns listed in ``right`` are right-aligned (numbers); trailing spaces are stripped.
    """
    rows = [[str(c) for c in r] for r in rows]
    heads = [str(h) for h in headers]
    # Display width, not len(): a Chinese column title takes two columns per character.
    widths = [max([display_width(h)] + [display_width(r[i]) for r in rows]) for i, h in enumerate(heads)]
    right = set(right)

    def line(cells: Sequence[str]) -> str:
        out = [rjust(c, w) if i in right else ljust(c, w) for i, (c, w) in enumerate(zip(cells, widths))]
        return "  ".join(out).rstrip()

    return "\n".join([line(heads), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def strip_html(text: str) -> str:
    """Figure text without the few tags the views use (``<b>``, ``<br>``, ``<sup>``, ``<i>``)."""
    for tag in ("<b>", "</b>", "<i>", "</i>", "<sup>", "</sup>"):
        text = text.replace(tag, "")
    return text.replace("<br>", " ")


# ------------------------------------------------------------------------------ per-trace cache


_CACHE: dict[tuple[int, str], tuple[weakref.ref, int, int, Any]] = {}


def cached(trace: Trace, name: str, build: Callable[[Trace], Any]) -> Any:
    """``build(trace)`` computed once per trace (and again if the trace grew).

    Keyed by the trace's identity; the entry dies with the trace. Views call this for
    derived arrays that every step of a dashboard would otherwise rebuild.
    """
    # Built values may hold words: one entry per language.
    key = (id(trace), f"{name}@{get_language()}")
    hit = _CACHE.get(key)
    size = (len(trace.changes), len(trace.cycles))
    if hit is not None and hit[0]() is trace and (hit[1], hit[2]) == size:
        return hit[3]
    value = build(trace)

    def _drop(_ref: weakref.ref, key: tuple[int, str] = key) -> None:
        _CACHE.pop(key, None)

    _CACHE[key] = (weakref.ref(trace, _drop), size[0], size[1], value)
    return value


def job_ref(trace: Trace) -> str:
    """``job.batch/NAME`` as kubectl names it."""
    return f"job.batch/{trace.job_name}"
