"""View 7b, the control loop: informer → work queue → sync → API server → kubelet → informer.

The Job controller never calls the cluster directly. The informer keeps a cache of Jobs and
Pods fed by watch events; its handlers put the Job's key on the work queue (pod events are
batched for 1 s, a backoff requeues later); a worker runs ``syncJob``, which reads the
cache and writes to the API server (pods created or deleted, the status); the scheduler
and kubelet run the pods and write their status back, which the informer sees again.

The figure draws the five steps as a loop and writes on each what happened at the chosen
cycle. The step that explains the cycle is filled (for example the informer when the sync
waited for it, the work queue when it waited for a backoff, the API server when it created
or deleted pods); the other steps that did something have a bold outline.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from k8sjobs.i18n import N_, _, display_width, join_clauses, join_list, ljust, ngettext
from k8sjobs.trace.recorder import Trace
from k8sjobs.trace.records import Cycle

from ._common import (
    FIGURE_PX,
    HIGHLIGHT,
    INK,
    MUTED,
    cycle_word,
    job_ref,
    make_figure,
    plural,
    resolve,
    secs,
    text_px,
    title,
    wrap_px,
)

VIEW = "control_loop"
# TRANSLATORS: the steps of the controller's loop; informer, syncJob, API server, scheduler and kubelet
# are component names (keep them in English, translate the rest).
STEPS: tuple[tuple[str, str], ...] = (
    ("informer", N_("informer (watch cache)")),
    ("queue", N_("work queue")),
    ("sync", N_("syncJob (controller)")),
    ("api", N_("API server")),
    ("kubelet", N_("scheduler + kubelet")),
)
"""(id, label) of each step, in the order the loop runs (labels marked; :class:`Step` holds them translated)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the loop at a cycle: what it did, whether it did anything, whether it explains the cycle."""

    id: str
    label: str
    says: str
    active: bool
    primary: bool


def _short(text: str, n: int = 70) -> str:
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def _why_run(trace: Trace, c: Cycle) -> str:
    if c.index == 1:
        return _("the Job was added: synced at once")
    prev = trace.cycles[c.index - 2]
    errors = [n for n in trace.notes if n.rule == "sync.error" and prev.t <= n.t <= c.t]
    gap = c.t - prev.t
    if prev.error is not None or errors:
        return _("retry {seconds} s after a failed sync (rate limited)").format(seconds=secs(gap))
    if prev.requeue_after is not None and abs(prev.t + prev.requeue_after - c.t) < 1e-6:
        return _("requeued by cycle {cycle} after {seconds} s").format(cycle=prev.index,
                                                                       seconds=secs(prev.requeue_after))
    actions = [n for n in trace.notes if n.rule.startswith("action.") and prev.t <= n.t <= c.t]
    if actions:
        # TRANSLATORS: {action} is the name of a learner action in code (fail_pod, scale, ...).
        return _("a learner action ({action}) changed the Job or its pods").format(action=actions[-1].rule[7:])
    return _("pod or Job events, batched (ran {seconds} s after cycle {cycle})").format(seconds=secs(gap),
                                                                                      cycle=prev.index)


def _cluster_between(trace: Trace, c: Cycle) -> tuple[str, bool]:
    """What the scheduler and kubelet wrote between the previous cycle and this one (exact, by change)."""
    lo = trace.cycles[c.index - 2].change_end if c.index > 1 else 0
    scheduled = started = succeeded = failed = removed = 0
    for ch in trace.changes[lo:c.change_start]:
        if ch.kind != "Pod" or not any(r.uid == trace.job_uid for r in ch.obj.metadata.owner_references):
            continue
        if ch.type == "DELETED":
            removed += 1
            continue
        old, new = ch.old, ch.obj
        if new.spec.node_name and (old is None or not old.spec.node_name):
            scheduled += 1
        phase, was = new.status.phase, (old.status.phase if old is not None else None)
        if phase != was:
            started += phase == "Running"
            succeeded += phase == "Succeeded"
            failed += phase == "Failed"
    t0 = trace.cycles[c.index - 2].t if c.index > 1 else 0.0
    notes = [n for n in trace.notes if n.rule.startswith("cluster.") and n.after_cycle == c.index - 1]
    # TRANSLATORS: counts of pod changes in "since the last cycle, pods: scheduled 3, started 2".
    parts = [word.format(n=n) for word, n in ((_("scheduled {n}"), scheduled), (_("started {n}"), started),
                                              (_("succeeded {n}"), succeeded), (_("failed {n}"), failed),
                                              (_("removed {n}"), removed)) if n]
    if notes:
        parts.append(_short(notes[-1].reason, 60))
    del t0
    if not parts:
        return _("no pod changes since the last cycle"), False
    return _("since the last cycle, pods: {changes}").format(changes=join_list(parts)), True


def steps(trace: Trace, cycle: int) -> list[Step]:
    """The five steps at ``cycle`` (all idle for cycle 0)."""
    k, _t, c = resolve(trace, cycle)
    if c is None:
        return [Step(i, _(label), _("the Job has not been synced yet"), False, False) for i, label in STEPS]
    o = c.observed
    head = c.headline
    says: dict[str, str] = {}
    active: dict[str, bool] = {}
    if o:
        # TRANSLATORS: {pods} is "5 pods".
        says["informer"] = _("cache shows {pods}: {active} active, {succeeded} succeeded, {failed} failed").format(
            pods=plural(int(o.get("pods", 0)), "pod"), active=o.get("active", 0), succeeded=o.get("succeeded", 0),
            failed=o.get("failed", 0))
    else:
        says["informer"] = _("cache read")
    active["informer"] = True
    if not c.satisfied:
        says["informer"] = join_clauses([says["informer"], _("still missing {creations} and {deletions}").format(
            creations=plural(c.expectations[0], "creation"), deletions=plural(c.expectations[1], "deletion"))])
    says["queue"] = _why_run(trace, c)
    if c.requeue_after:
        says["queue"] = join_clauses([says["queue"], _("next sync in {seconds} s").format(seconds=secs(c.requeue_after))])
    active["queue"] = True
    says["sync"] = _short(head.reason, 90)
    active["sync"] = True
    writes = []
    if c.created:
        writes.append(_("created {pods}").format(pods=plural(len(c.created), "pod")))
    failed = len(c.find("create.failed"))
    if failed:
        writes.append(ngettext("{n} create rejected", "{n} creates rejected", failed).format(n=failed))
    if c.deleted:
        writes.append(_("deleted {pods}").format(pods=plural(len(c.deleted), "pod")))
    status_writes = len(c.find("status.write"))
    if status_writes:
        writes.append(_("status written ({n}x)").format(n=status_writes))
    if c.find("status.write_failed"):
        writes.append(_("a status write failed (conflict)"))
    says["api"] = join_list(writes) if writes else _("no writes")
    active["api"] = bool(writes)
    says["kubelet"], active["kubelet"] = _cluster_between(trace, c)
    rules = set(c.rules())
    if not c.satisfied or "expectations.unsatisfied" in rules:
        primary = "informer"
    elif rules & {"backoff.wait", "backoff.wait_index", "deadline.requeue", "create.wait_terminating"}:
        primary = "queue"
    elif c.created or c.deleted or failed:
        primary = "api"
    elif c.error or c.skipped:
        primary = "sync"
    elif head.rule.startswith(("condition.", "decision.", "finish.", "track.")):
        primary = "sync"
    elif active["kubelet"]:
        primary = "kubelet"
    else:
        primary = "sync"
    del k
    return [Step(i, _(label), says[i], active[i], i == primary) for i, label in STEPS]


POSITIONS: dict[str, tuple[float, float]] = {
    "informer": (1.5, 4.5), "queue": (5.0, 4.5), "sync": (8.5, 4.5), "api": (6.6, 1.4), "kubelet": (3.4, 1.4),
}
"""Box centres on a 10 x 6 canvas: the loop runs clockwise, left to right along the top."""
BOX_W, BOX_H = 2.7, 1.6
FLOW: dict[tuple[str, str], str] = {
    ("informer", "queue"): N_("handlers enqueue the Job key"),
    ("queue", "sync"): N_("a worker takes the key"),
    ("sync", "api"): N_("create/delete pods, write status"),
    ("api", "kubelet"): N_("scheduler binds, kubelet runs"),
    ("kubelet", "informer"): N_("pod status → watch events"),
}
"""What travels along each arrow of the loop (marked; shown with ``_()``)."""


def _edge_point(c: tuple[float, float], d: tuple[float, float], pad: float = 0.12) -> tuple[float, float]:
    # Where the ray from a box centre in direction d leaves the box (plus a small gap).
    dx, dy = d
    sx = (BOX_W / 2 + pad) / abs(dx) if dx else math.inf
    sy = (BOX_H / 2 + pad) / abs(dy) if dy else math.inf
    f = min(sx, sy)
    return round(c[0] + f * dx, 4), round(c[1] + f * dy, 4)


def _titles(trace: Trace, cycle: int, st: list[Step]) -> tuple[str, str]:
    k, t, c = resolve(trace, cycle)
    if c is None:
        if trace.snapshot_at is not None:
            return (_("The control loop of {job} at {when}").format(job=job_ref(trace), when=cycle_word(k, t, trace)),
                    _("the controller's next sync on it comes next"))
        return (_("The control loop of {job} before the first cycle").format(job=job_ref(trace)),
                _("nothing has run yet"))
    p = next(s for s in st if s.primary)
    # TRANSLATORS: {step} is a step of the loop, e.g. "work queue" or "syncJob (controller)".
    main = _("The control loop of {job} in cycle {cycle} (t={t} s): the {step} step explains it").format(
        job=job_ref(trace), cycle=k, t=secs(t), step=p.label)
    return main, _short(c.headline.reason, 160)


FITS_WIDTH = True
"""This view fits the text of its boxes to the figure's width (``figure(..., width_px=...)``)."""
HEIGHT = 560
MARGIN = {"t": 105, "l": 10, "r": 10, "b": 10}
X_RANGE = (0.0, 10.0)
Y_RANGE = (-0.1, 5.9)
"""The canvas: boxes in the middle; room above the top row and below the bottom row for the
labels of the arrows between two boxes of a row (the gap between them is narrower than a word)."""
BOX_SIZE, FLOW_SIZE = 11, 10
LINE_PX = 1.3 * BOX_SIZE
FLOW_LINE_PX = 1.3 * FLOW_SIZE
"""Font sizes of a box's text and of an arrow's label, and the height plotly gives one of their lines."""
BOX_PAD_PX = 6
"""Room kept free inside a box's border on every side."""
FLOW_PX = 150
"""Width an arrow's label may take."""


def px_per_unit(width_px: float) -> tuple[float, float]:
    """Pixels per canvas unit, across and up, in a figure ``width_px`` wide."""
    plot_w = width_px - MARGIN["l"] - MARGIN["r"]
    plot_h = HEIGHT - MARGIN["t"] - MARGIN["b"]
    return plot_w / (X_RANGE[1] - X_RANGE[0]), plot_h / (Y_RANGE[1] - Y_RANGE[0])


def _fit(text: str, room: float, size: float, *, bold: bool = False) -> list[str]:
    # Lines of at most `room` px; a word wider than the room (a long pod name in a narrow
    # figure) is cut between characters, since plotly would draw it across the box's border.
    scale = 1.1 if bold else 1.0
    out: list[str] = []
    for line in wrap_px(text, room / scale, size):
        while text_px(line, size, bold=bold) > room and len(line) > 1:
            cut = len(line) - 1
            while cut > 1 and text_px(line[:cut], size, bold=bold) > room:
                cut -= 1
            out.append(line[:cut])
            line = line[cut:]
        out.append(line)
    return out


def box_lines(step: Step, width_px: float = FIGURE_PX) -> tuple[list[str], list[str]]:
    """The lines written in a step's box, as plain text: its (bold) label, then what it says, as
    many as fit in the box in a figure ``width_px`` wide (the last ends with "…" when cut)."""
    ux, uy = px_per_unit(width_px)
    room = BOX_W * ux - 2 * BOX_PAD_PX
    most = int((BOX_H * uy - 2 * BOX_PAD_PX) // LINE_PX)
    mark = "▶ " if step.primary else ""
    head = _fit(mark + step.label, room, BOX_SIZE, bold=True)
    body = _fit(step.says, room, BOX_SIZE)
    keep = max(0, most - len(head))
    if len(body) > keep:
        body = body[:keep]
        if body:
            last = body[-1]
            while last and text_px(last + "…", BOX_SIZE) > room:
                last = last[:-1]
            body[-1] = last.rstrip() + "…"
    return head, body


def figure(trace: Trace, cycle: int, *, width_px: float = FIGURE_PX):
    """The loop with the chosen cycle's steps lit.

    ``width_px``: the narrowest the figure will be drawn; the text of each box is wrapped
    (and if need be cut) to fit inside its box at that width.
    """
    st = steps(trace, cycle)
    main, sub = _titles(trace, cycle, st)
    shapes: list[dict[str, Any]] = []
    notes: list[dict[str, Any]] = []
    for s in st:
        x, y = POSITIONS[s.id]
        shapes.append({"type": "rect", "x0": x - BOX_W / 2, "x1": x + BOX_W / 2, "y0": y - BOX_H / 2,
                       "y1": y + BOX_H / 2, "xref": "x", "yref": "y",
                       "fillcolor": HIGHLIGHT if s.primary else "#FFFFFF",
                       "line": {"color": INK if s.active else MUTED,
                                "width": 4 if s.primary else (2 if s.active else 1),
                                "dash": "solid" if s.active else "dot"}})
        head, body = box_lines(s, width_px)
        text = "<br>".join([f"<b>{line}</b>" for line in head] + body)
        notes.append({"x": x, "y": y, "xref": "x", "yref": "y", "showarrow": False, "align": "center",
                      "text": text, "font": {"size": BOX_SIZE, "color": INK if s.active else MUTED}})
    order = [s.id for s in st]
    for a, b in zip(order, order[1:] + order[:1]):
        (x0, y0), (x1, y1) = POSITIONS[a], POSITIONS[b]
        d = (x1 - x0, y1 - y0)
        tail = _edge_point((x0, y0), d)
        head = _edge_point((x1, y1), (-d[0], -d[1]))
        notes.append({"x": head[0], "y": head[1], "ax": tail[0], "ay": tail[1], "xref": "x", "yref": "y",
                      "axref": "x", "ayref": "y", "showarrow": True, "arrowhead": 3, "arrowsize": 1.3,
                      "arrowwidth": 2, "arrowcolor": INK, "text": ""})
        notes.append(_flow_label(a, b, tail, head, width_px))
    data = [{"type": "scatter", "x": [POSITIONS[s.id][0] for s in st], "y": [POSITIONS[s.id][1] for s in st],
             "mode": "markers", "marker": {"size": 1, "color": "rgba(0,0,0,0)"}, "hoverinfo": "text",
             "hovertext": [f"{s.label}: {s.says}" for s in st], "showlegend": False, "name": "steps"}]
    layout = {"title": title(main, sub, width_px=width_px), "height": HEIGHT, "margin": dict(MARGIN),
              "xaxis": {"visible": False, "range": list(X_RANGE), "fixedrange": True},
              "yaxis": {"visible": False, "range": list(Y_RANGE), "fixedrange": True},
              "shapes": shapes, "annotations": notes, "showlegend": False}
    return make_figure(data, layout, view=VIEW)


def _flow_label(a: str, b: str, tail: tuple[float, float], head: tuple[float, float],
                width_px: float) -> dict[str, Any]:
    # What travels along the arrow from a to b. Between two boxes of a row the gap is
    # narrower than a word, so the label goes above the top row or below the bottom row;
    # beside a slanted arrow it goes on the arrow's outer side.
    (x0, y0), (x1, y1) = POSITIONS[a], POSITIONS[b]
    mx, my = (tail[0] + head[0]) / 2, (tail[1] + head[1]) / 2
    ppu = px_per_unit(width_px)[0]
    room = min(FLOW_PX, ppu * 3.4)  # two labels above the top row never meet
    if y0 != y1:
        # beside a slanted arrow the label reaches from the arrow to the figure's edge, no further
        # (a half-width figure cut "pod status → watch events" by 11 px at its left edge)
        edge_px = (mx - X_RANGE[0]) * ppu + MARGIN["l"] if x1 < x0 else (X_RANGE[1] - mx) * ppu + MARGIN["r"]
        room = min(room, edge_px - 8 - 4)
    text = "<br>".join(_fit(_(FLOW[(a, b)]), room, FLOW_SIZE))
    note: dict[str, Any] = {"x": mx, "xref": "x", "yref": "y", "showarrow": False, "text": f"<i>{text}</i>",
                            "font": {"size": FLOW_SIZE, "color": "#555555"}}
    if y0 == y1:
        top = y0 > 3
        edge = y0 + BOX_H / 2 if top else y0 - BOX_H / 2
        note.update(y=edge, yanchor="bottom" if top else "top", yshift=3 if top else -3, xanchor="center")
    else:
        note.update(y=my, xanchor="right" if x1 < x0 else "left", xshift=-8 if x1 < x0 else 8)
    return note


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`: one line per step, ``>>`` on the step that explains the cycle."""
    st = steps(trace, cycle)
    main, sub = _titles(trace, cycle, st)
    lines = [main, sub]
    width = max(display_width(s.label) for s in st)
    for s in st:
        mark = ">>" if s.primary else ("* " if s.active else "  ")
        lines.append(f"{mark} {ljust(s.label, width)}  {s.says}")
    lines.append(_("(>> explains the cycle, * did something; the loop runs top to bottom and back to the informer)"))
    return "\n".join(lines) + "\n"


__all__ = ["STEPS", "Step", "box_lines", "figure", "px_per_unit", "steps", "text"]
