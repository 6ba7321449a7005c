"""View 3, the slow-start ladder: how one sync created its pods in batches 1, 2, 4, 8, ...

``manageJob`` does not create all missing pods at once: it sends a batch of 1, then 2, 4,
8, ... (each capped by what is left), and stops at the first batch with a failed create.
The pods of the batches it never sent are *skipped*: the sync lowers its creation
expectations for them and a later sync tries again. The ladder has one row per batch of
the plan: created pods, failed creates (the failed batch is marked) and skipped pods, with
the creation expectations before and after the sync.

The view shows the chosen cycle if it created pods, else the latest one before it that did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from k8sjobs.i18n import Nn_, _, join_clauses, join_list, join_sentences, ngettext, pgettext
from k8sjobs.trace.recorder import Trace
from k8sjobs.trace.records import Cycle

from ._common import (
    FIGURE_PX,
    HIGHLIGHT,
    INK,
    LEGEND_BOTTOM,
    bar_marker,
    cycle_word,
    empty_figure,
    job_ref,
    latest_cycle_with,
    make_figure,
    plot_beside_names,
    plural,
    resolve,
    secs,
    table,
    text_px,
    title,
    wrap_px,
)

VIEW = "slow_start"
SLOW_START_INITIAL_BATCH_SIZE = 1
MAX_ROWS = 14
"""Batches 1, 2, 4 ... 8192 cover the 10,000 creates a sync may send at most."""


def plan_batches(diff: int, initial: int = SLOW_START_INITIAL_BATCH_SIZE) -> list[int]:
    """Batch sizes of a slow start creating ``diff`` pods: 1, 2, 4, ... capped by what remains."""
    sizes, batch = [], min(diff, initial)
    while diff > 0:
        sizes.append(batch)
        diff -= batch
        batch = min(2 * batch, diff)
    return sizes


@dataclass(frozen=True, slots=True)
class Batch:
    """One row of the ladder."""

    number: int
    size: int
    created: tuple[str, ...]
    failed: int
    skipped: int
    expect_add_after: int
    """The creation expectation once this batch was sent (failed and skipped creates lowered it)."""

    @property
    def status(self) -> str:
        """``sent``, ``failed`` (had a failed create) or ``skipped`` (never sent)."""
        if self.skipped:
            return "skipped"
        return "failed" if self.failed else "sent"


@dataclass(frozen=True, slots=True)
class Ladder:
    """A cycle's slow start, read from its ``create.*`` decisions."""

    cycle: Cycle
    planned: int
    indexes: tuple[int, ...]
    batches: tuple[Batch, ...]
    stopped_at: int | None
    skipped: int
    expect_before: int
    expect_set: int
    expect_after: int

    @property
    def created(self) -> int:
        """Pods actually created."""
        return sum(len(b.created) for b in self.batches)

    @property
    def failed(self) -> int:
        """Creates the API server rejected."""
        return sum(b.failed for b in self.batches)


def creates_pods(c: Cycle) -> bool:
    """Whether the cycle planned pod creations."""
    return any(d.rule == "create.plan" for d in c.decisions)


def ladder(c: Cycle) -> Ladder:
    """The slow start of cycle ``c`` (which must have a ``create.plan`` decision)."""
    plan = c.find("create.plan")[0]
    planned = int(plan.fields.get("count", 0))
    sent = {int(d.fields["batch"]): d for d in c.find("create.slow_start_batch")}
    stop = c.find("create.slow_start_stop")
    stopped_at = int(stop[0].fields["batch"]) if stop else None
    skipped = int(stop[0].fields["skipped"]) if stop else 0
    expect = planned
    rows = []
    for number, size in enumerate(plan_batches(planned), start=1):
        d = sent.get(number)
        if d is not None:
            failed = int(d.fields.get("failed", 0))
            expect -= failed
            rows.append(Batch(number, size, tuple(d.fields.get("created", ())), failed, 0, expect))
        else:
            expect -= size
            rows.append(Batch(number, size, (), 0, size, expect))
    return Ladder(c, planned, tuple(int(i) for i in plan.fields.get("indexes", ()) or ()), tuple(rows), stopped_at,
                  skipped, c.expectations[0], planned, c.expectations[2])


def _pick(trace: Trace, cycle: int) -> Cycle | None:
    return latest_cycle_with(trace, cycle, creates_pods)


def _titles(trace: Trace, k: int, t: float, lad: Ladder) -> tuple[str, str]:
    c = lad.cycle
    if c.index != k:
        # TRANSLATORS: {when} is "cycle 4 (t=32 s)"; {cycle} and {t} are those of the cycle shown.
        main = _("Slow start of {job} in cycle {cycle} (t={t} s), the latest cycle that created pods up to "
                 "{when}").format(job=job_ref(trace), cycle=c.index, t=secs(c.t), when=cycle_word(k, t, trace))
    else:
        main = _("Slow start of {job} in cycle {cycle} (t={t} s)").format(job=job_ref(trace), cycle=c.index,
                                                                          t=secs(c.t))
    sizes = join_list(str(b.size) for b in lad.batches)
    if lad.failed:
        # TRANSLATORS: {pods} is "5 pods"; {sizes} lists batch sizes "1, 2, 2".
        head = _("{pods} planned in batches {sizes}: {created} created, {failed} failed")
    else:
        head = _("{pods} planned in batches {sizes}: {created} created")
    clauses = [head.format(pods=plural(lad.planned, "pod"), sizes=sizes, created=lad.created, failed=lad.failed)]
    if lad.stopped_at is not None:
        clauses.append(ngettext("batch {batch} had a failed create, so {n} pod was skipped",
                                "batch {batch} had a failed create, so {n} pods were skipped", lad.skipped).format(
            batch=lad.stopped_at, n=lad.skipped))
    sub = join_sentences([join_clauses(clauses), _("Creations expected: {before} before the sync, {set} set by it, "
                                                    "{after} after it").format(
        before=lad.expect_before, set=lad.expect_set, after=lad.expect_after)])
    return main, sub


FITS_WIDTH = True
"""This view fits its labels to the figure's width (``figure(..., width_px=...)``)."""
MARGIN = {"t": 105, "l": 10, "r": 30, "b": 95}
LABEL_SIZE = 11
LABEL_LINE_PX = 15
"""Font size of the labels right of the bars, and the pixels one of their lines takes."""
ROW_PX = 46
"""Pixels of a batch's row (more when a label needs more lines)."""
BAR_SHARE = 0.35
"""The widest bar keeps at least this share of the plot when the labels ask for room."""


def batch_names(shown: list[Batch], width_px: float) -> list[str]:
    """The batches' names on the y axis: on two lines when one line would take more than a
    quarter of a figure ``width_px`` wide (a half-width pane)."""
    names = [_("batch {batch} (size {size})").format(batch=b.number, size=b.size) for b in shown]
    if max((text_px(n) for n in names), default=0) <= width_px / 4:
        return names
    return ["<br>".join(wrap_px(n, width_px / 4)) for n in names]


def plot_px(names: list[str], width_px: float = FIGURE_PX) -> float:
    """The plot's width in a figure ``width_px`` wide: what the margins and the batch names leave."""
    return plot_beside_names(width_px, MARGIN, names)


def fit_labels(sizes: list[int], labels: list[str], plot: float) -> tuple[float, list[list[str]]]:
    """The x axis's right end and each label's lines, so that a label written right of its bar
    (``sizes``) ends inside a plot ``plot`` pixels wide.

    The axis first leaves room for every label on one line (the bars shrink, the widest to
    :data:`BAR_SHARE` of the plot at most); a label that still does not fit is wrapped between
    words to the room right of its bar. No word is dropped.
    """
    xmax = max(sizes + [1])
    right = xmax * 1.9 + 1
    longest = max(right, xmax / BAR_SHARE)
    for size, label in zip(sizes, labels):
        need = text_px(label, LABEL_SIZE) + 6
        if size / right * plot + need > plot and need < plot:
            right = min(longest, max(right, size * plot / (plot - need)))
    lines = []
    for size, label in zip(sizes, labels):
        room = plot - size / right * plot - 6
        lines.append([label] if text_px(label, LABEL_SIZE) <= room else wrap_px(label, room, LABEL_SIZE))
    return right, lines


def figure(trace: Trace, cycle: int, *, width_px: float = FIGURE_PX):
    """The batches of the latest pod-creating cycle at or before ``cycle``.

    ``width_px``: the narrowest the figure will be drawn; the labels right of the bars end
    inside the plot at that width (the axis leaves room for them, or they wrap).
    """
    k, t, _c = resolve(trace, cycle)
    c = _pick(trace, k)
    if c is None:
        return empty_figure(VIEW, _("Slow start of {job} up to {when}").format(job=job_ref(trace),
                                                                                when=cycle_word(k, t, trace)),
                            _("no cycle has created pods yet"))
    lad = ladder(c)
    main, sub = _titles(trace, k, t, lad)
    shown = list(lad.batches[:MAX_ROWS])
    ys = batch_names(shown, width_px)
    # TRANSLATORS: the counts inside the bars: pods created / failed / skipped in a batch.
    parts = [
        (_("created"), Nn_("{n} created", "{n} created"), "succeeded", [len(b.created) for b in shown],
         ["<br>".join(b.created) if len(b.created) <= 4 else plural(len(b.created), "pod") for b in shown]),
        (_("failed create"), Nn_("{n} failed", "{n} failed"), "failed", [b.failed for b in shown], [""] * len(shown)),
        (_("skipped (not sent)"), Nn_("{n} skipped", "{n} skipped"), "pending", [b.skipped for b in shown],
         [""] * len(shown)),
    ]
    data: list[dict[str, Any]] = []
    for name, (one, many), style, xs, hov in parts:
        text_ = [ngettext(one, many, x).format(n=x) if x else "" for x in xs]
        data.append({"type": "bar", "orientation": "h", "name": name, "y": ys, "x": xs, "text": text_,
                     "textposition": "inside", "insidetextanchor": "middle", "marker": bar_marker(style),
                     "textfont": {"color": "#000000" if style == "pending" else "#ffffff"},
                     "customdata": hov, "hovertemplate": "%{y}: %{x} " + name + "<br>%{customdata}<extra></extra>"})
    labels = []
    for b in shown:
        if b.status == "failed":
            label = _("creations expected: {n}  ◀ failed batch: slow start stops here")
        elif b.status == "skipped":
            label = _("creations expected: {n}  (never sent)")
        else:
            label = _("creations expected: {n}")
        labels.append(label.format(n=b.expect_add_after))
    plot = plot_px(ys, width_px)
    right, label_lines = fit_labels([b.size for b in shown], labels, plot)
    notes: list[dict[str, Any]] = []
    for b, y, lines in zip(shown, ys, label_lines):
        notes.append({"x": b.size, "y": y, "xref": "x", "yref": "y", "showarrow": False, "xanchor": "left",
                      "align": "left", "text": "<br>".join(lines), "font": {"size": LABEL_SIZE},
                      "bgcolor": HIGHLIGHT if b.status == "failed" else "rgba(0,0,0,0)"})
    shapes = [{"type": "rect", "xref": "paper", "yref": "y", "x0": 0, "x1": 1, "y0": i - 0.5, "y1": i + 0.5,
               "line": {"color": INK, "width": 2, "dash": "dot"}, "fillcolor": "rgba(0,0,0,0)", "layer": "above"}
              for i, b in enumerate(shown) if b.status == "failed"]
    row = max([ROW_PX] + [LABEL_LINE_PX * len(lines) + 8 for lines in label_lines]
              + [LABEL_LINE_PX * (y.count("<br>") + 1) + 8 for y in ys])
    layout = {
        "title": title(main, sub, width_px=width_px), "barmode": "stack", "height": max(300, row * len(shown) + 200),
        "margin": dict(MARGIN),
        "xaxis": {"title": {"text": _("pods in the batch")}, "range": [0, right],
                  "dtick": _dtick(right, max(2, int(plot // 40)))},
        "yaxis": {"type": "category", "categoryorder": "array", "categoryarray": ys, "autorange": "reversed",
                  "automargin": True},
        "annotations": notes, "shapes": shapes,
        "legend": LEGEND_BOTTOM,
    }
    return make_figure(data, layout, view=VIEW)


def _dtick(right: float, ticks: int) -> int:
    # At most ``ticks`` tick labels on an axis ending at ``right`` (about 40 px apart).
    for step in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000):
        if right / step <= ticks:
            return step
    return 10000


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`: one row per batch."""
    k, t, _c = resolve(trace, cycle)
    c = _pick(trace, k)
    if c is None:
        return (_("Slow start of {job} up to {when}").format(job=job_ref(trace), when=cycle_word(k, t, trace)) + "\n"
                + _("no cycle has created pods yet") + "\n")
    lad = ladder(c)
    main, sub = _titles(trace, k, t, lad)
    rows = []
    for b in lad.batches:
        names = join_list(b.created) if len(b.created) <= 4 else plural(len(b.created), "pod")
        status = {"sent": pgettext("batch status", "sent"), "skipped": pgettext("batch status", "skipped"),
                  "failed": pgettext("batch status", "failed <- slow start stops")}[b.status]
        rows.append((b.number, b.size, len(b.created), b.failed, b.skipped, b.expect_add_after, status, names or "-"))
    heads = [pgettext("table column", "BATCH"), pgettext("table column", "SIZE"), pgettext("table column", "CREATED"),
             pgettext("table column", "FAILED"), pgettext("table column", "SKIPPED"),
             pgettext("table column", "EXPECT"), pgettext("table column", "STATUS"), pgettext("table column", "PODS")]
    body = table(heads, rows, right=range(6))
    lines = [main, sub]
    if lad.indexes:
        shown = join_list(str(i) for i in lad.indexes[:20])
        if len(lad.indexes) > 20:
            # TRANSLATORS: a list cut short: {items} is its first items ("0, 1, 2"); Chinese writes "0、1、2……".
            shown = pgettext("list cut short", "{items} ...").format(items=shown)
        lines.append(_("Completion indexes planned: {indexes}").format(indexes=shown))
    lines.append(body)
    return "\n".join(lines) + "\n"


__all__ = ["Batch", "Ladder", "creates_pods", "figure", "ladder", "plan_batches", "text"]
