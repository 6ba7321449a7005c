"""View 7a, the ownership graph: Job → Pods → Nodes as the API server had them after a cycle.

A networkx ``DiGraph`` (:func:`graph`) with an edge from the Job to every pod whose
controller ``ownerReference`` names it, and from every scheduled pod to its node
(``spec.nodeName``). The layout is layered and computed by hand, not by a force layout: the
Job on the left, its pods in the middle grouped by node, the nodes on the right, each node
level with its pods, so no two edges cross and the same world is always drawn the same way.
Pods are marked by phase with a symbol, a colour and a text label.

Above :data:`GROUP_ABOVE` pods the picture groups pods by (node, phase): one mark per group,
sized and labelled with its count; the title and text twin say so.
"""

from __future__ import annotations

import math
import re
from typing import Any

import networkx as nx

from k8sjobs.api.types import Phase, Pod
from k8sjobs.i18n import N_, _, join_clauses, join_list, pgettext
from k8sjobs.trace.recorder import Trace, WorldState
from k8sjobs.trace.records import pod_index

from ._common import (
    FIGURE_PX,
    INK,
    LEGEND_BOTTOM,
    MUTED,
    OUTCOME_STYLE,
    OUTCOMES,
    cycle_word,
    job_ref,
    make_figure,
    outcome_word,
    plural,
    resolve,
    short_pod_label,
    table,
    text_px,
    title,
    wrap_px,
)

VIEW = "ownership"
GROUP_ABOVE = 60
"""More pods than this are drawn as one mark per (node, phase) group."""
UNSCHEDULED = N_("(not scheduled)")
"""Where a pod runs before it is scheduled (a key; shown with :func:`where_word`)."""


def where_word(node: str) -> str:
    """A node name, or "(not scheduled)" in the current language."""
    return _(UNSCHEDULED) if node == UNSCHEDULED else node
_PHASE_OUTCOME = {Phase.PENDING: "pending", Phase.RUNNING: "running", Phase.SUCCEEDED: "succeeded",
                  Phase.FAILED: "failed"}


def _hover(pod: str, outcome: str, node: str) -> str:
    """A pod's hover text: its outcome and its node, or that it has none (a whole sentence each:
    "(not scheduled)" in the place of a node name reads wrong in Chinese and Russian)."""
    if node == UNSCHEDULED:
        return _("{pod}: {outcome}, not scheduled to a node yet").format(pod=pod, outcome=outcome_word(outcome))
    return _("{pod}: {outcome} on {node}").format(pod=pod, outcome=outcome_word(outcome), node=node)


def pod_outcome(pod: Pod) -> str:
    """running | pending | succeeded | failed | terminating, from the pod object."""
    if pod.metadata.deletion_timestamp is not None and pod.status.phase not in (Phase.SUCCEEDED, Phase.FAILED):
        return "terminating"
    return _PHASE_OUTCOME.get(pod.status.phase or Phase.PENDING, "pending")


def _natural(name: str) -> tuple:
    # node-2 before node-10.
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name))


def _node_order(state: WorldState) -> tuple[list[str], set[str]]:
    live = [n.metadata.name for n in state.nodes]
    used = {p.spec.node_name for p in state.pods if p.spec.node_name}
    gone = used - set(live)
    return sorted(set(live) | gone, key=_natural), gone


def graph(trace: Trace, cycle: int) -> nx.DiGraph:
    """The Job → Pods → Nodes graph after ``cycle``, with a hand-made layered layout.

    Node attributes: ``kind`` (job, pod, group, node), ``label``, ``layer`` (0, 1, 2),
    ``pos`` (x, y) and, for pods, ``outcome``; groups also have ``count``; nodes have
    ``gone`` (the node object no longer exists). Edge attribute ``kind``: owns or runs-on.
    """
    k, _t, _c = resolve(trace, cycle)
    state = trace.state_at(k)
    g = nx.DiGraph(cycle=k, t=state.t)
    nodes, gone = _node_order(state)
    order = {n: i for i, n in enumerate(nodes)}
    job_id = f"job/{trace.job_name}"
    job = state.job
    if job is not None:
        s = job.status
        g.add_node(job_id, kind="job", layer=0, label=job_ref(trace),
                   status=_("active {active}, succeeded {succeeded}, failed {failed}").format(
                       active=s.active, succeeded=s.succeeded, failed=s.failed))
    else:
        g.add_node(job_id, kind="job", layer=0, label=_("{job} (deleted)").format(job=job_ref(trace)),
                   status=outcome_word("deleted"))
    outcome_of = {p.metadata.uid: pod_outcome(p) for p in state.pods}
    grouped = len(state.pods) > GROUP_ABOVE
    g.graph["grouped"] = grouped
    g.graph["pods"] = len(state.pods)
    members: list[str] = []
    if grouped:
        counts: dict[tuple[int, int, str, str], int] = {}
        for p in state.pods:
            where = p.spec.node_name or UNSCHEDULED
            o = outcome_of[p.metadata.uid]
            key = (order.get(p.spec.node_name, len(nodes)), OUTCOMES.index(o), where, o)
            counts[key] = counts.get(key, 0) + 1
        for (_i, _j, where, o), n in sorted(counts.items()):
            gid = f"pods/{where}/{o}"
            g.add_node(gid, kind="group", layer=1, outcome=o, count=n, node=where,
                       label=plural(n, o + " pod"))
            members.append(gid)
            if job is not None:
                g.add_edge(job_id, gid, kind="owns")
            if where != UNSCHEDULED:
                g.add_edge(gid, f"node/{where}", kind="runs-on")
    else:
        pods = sorted(state.pods, key=lambda p: (order.get(p.spec.node_name, len(nodes)),
                                                 OUTCOMES.index(outcome_of[p.metadata.uid]),
                                                 p.metadata.creation_timestamp or 0.0, p.metadata.name))
        for p in pods:
            pid = f"pod/{p.metadata.name}"
            g.add_node(pid, kind="pod", layer=1, outcome=outcome_of[p.metadata.uid], label=p.metadata.name,
                       index=pod_index(p), node=p.spec.node_name or UNSCHEDULED)
            members.append(pid)
            if job is not None:
                g.add_edge(job_id, pid, kind="owns")
            if p.spec.node_name:
                g.add_edge(pid, f"node/{p.spec.node_name}", kind="runs-on")
    for n in nodes:
        nid = f"node/{n}"
        if nid not in g:
            g.add_node(nid)
        g.nodes[nid].update(kind="node", layer=2, label=_("{node} (gone)").format(node=n) if n in gone else n,
                            gone=n in gone)
    _layout(g, members, [f"node/{n}" for n in nodes], job_id)
    return g


def _spread(n: int) -> list[float]:
    if n <= 1:
        return [0.5] * n
    return [1 - i / (n - 1) for i in range(n)]


def _layout(g: nx.DiGraph, members: list[str], nodes: list[str], job_id: str) -> None:
    """Layered positions: x = layer; pods evenly from top to bottom; each node at its pods' mean height."""
    ys = _spread(len(members))
    for m, y in zip(members, ys):
        g.nodes[m]["pos"] = (1.0, y)
    g.nodes[job_id]["pos"] = (0.0, 0.5)
    wanted = []
    for nid in nodes:
        below = [g.nodes[p]["pos"][1] for p in g.predecessors(nid)]
        wanted.append(sum(below) / len(below) if below else None)
    # Nodes without pods go below the others, evenly; keep at least a small gap between nodes.
    free = [i for i, w in enumerate(wanted) if w is None]
    taken = [i for i, w in enumerate(wanted) if w is not None]
    if not taken:
        # No pod anywhere (none yet, or the Job is gone): spread the nodes like pods, two lines each.
        for nid, y in zip(nodes, _spread(len(nodes))):
            g.nodes[nid]["pos"] = (2.0, y)
        return
    # Two label lines per node: keep nodes about a third of the height apart when there are few.
    gap = min(0.32, 0.9 / max(len(nodes), 1))
    last = 2.0
    for i in taken:
        y = min(wanted[i], last - gap)
        wanted[i] = y
        last = y
    low = min([wanted[i] for i in taken], default=1.0 + gap)
    for j, i in enumerate(free):
        wanted[i] = low - gap * (j + 1)
    for nid, y in zip(nodes, wanted):
        g.nodes[nid]["pos"] = (2.0, y)


def _titles(trace: Trace, k: int, t: float, g: nx.DiGraph) -> tuple[str, str]:
    main = _("Who owns what in {job} after {when}: Job → Pods → Nodes").format(job=job_ref(trace),
                                                                             when=cycle_word(k, t, trace))
    counts: dict[str, int] = dict.fromkeys(OUTCOMES, 0)
    for _n, d in g.nodes(data=True):
        if d.get("kind") == "pod":
            counts[d["outcome"]] += 1
        elif d.get("kind") == "group":
            counts[d["outcome"]] += d["count"]
    n_nodes = sum(1 for _n, d in g.nodes(data=True) if d.get("kind") == "node")
    parts = join_list(plural(v, o) for o, v in counts.items() if v)
    pods, nodes = plural(g.graph["pods"], "pod"), plural(n_nodes, "node")
    # TRANSLATORS: {pods} is "5 pods", {outcomes} "3 running, 2 succeeded", {nodes} "3 nodes".
    sub = (_("{pods} ({outcomes}) on {nodes}") if parts else _("{pods} on {nodes}")).format(
        pods=pods, outcomes=parts, nodes=nodes)
    if g.graph["grouped"]:
        sub = join_clauses([sub, _("more than {n} pods, so pods are grouped by node and phase").format(n=GROUP_ABOVE)])
    sub = join_clauses([sub, _("solid edges: ownerReference (controller), dotted: scheduled on (spec.nodeName)")])
    return main, sub


FITS_WIDTH = True
"""This view makes room for the Job's label at the figure's width (``figure(..., width_px=...)``)."""
MARGIN = {"t": 105, "l": 20, "r": 20, "b": 95}


JOB_LABEL_PX = 160
"""Width the Job's counts wrap to (Russian counts are 262 px on one line), at every figure width:
a half-width figure changes its layout, not its data."""


JOB_LABEL_NARROW_PX = 100
"""Width the Job's counts wrap to where the pods' column needs the room (a half-width pane)."""


def job_label(name: str, status: str, room: float = JOB_LABEL_PX) -> list[str]:
    """The lines under the Job's marker: its name (bold; after ``job.batch/`` on a line of its
    own when longer than ``room``), then its counts, wrapped to ``room`` pixels."""
    head, sep, rest = name.partition("/")
    names = [name] if text_px(name, 12, bold=True) <= room or not rest else [head + sep, rest]
    return [f"<b>{n}</b>" for n in names] + wrap_px(status, room)


POD_TEXT_PX = 11
"""Pixels from a pod's centre to its label (half its marker and plotly's text padding)."""
NODE_TEXT_PX = 16
"""Pixels from a node's centre to its label."""
HEAD_SIZE = 12
HEAD_LINE_PX = 16
"""Font size of the column titles, and the pixels one of their lines takes."""
TOP = 1.16
"""Top of the marks' part of the y axis: room above the top marker for its label."""
NODE_ROW_PX = 36
"""The least distance in pixels between two nodes' centres (their labels have two 12 px lines)."""
MIN_FAN_PX = 40
MIN_EDGE_PX = 16
"""The shortest an edge from the Job to its pods, and one from a pod's label to its node, may be drawn."""


def columns(plot_w: float, job_lines: list[str], pod_labels: list[str], pod_size: int, node_texts: list[str],
            job: str) -> tuple[tuple[float, float, float], bool, bool]:
    """Where the Job, its pods and the nodes go, in pixels from the plot's left, in a plot
    ``plot_w`` wide; whether the pods' labels must leave out their Job's name to fit; whether
    everything fits.

    The Job stands far enough from the left edge for its label, centred under it; the nodes
    far enough from the right edge for theirs; the pods half way between, or further left
    when their labels need the room before the edges to the nodes start. Where that puts them
    too close to the Job's label, their labels leave out the Job's name (:func:`short_pod_label`).
    """
    job_x = max(text_px(line, 12, bold="<b>" in line) for line in job_lines) / 2 + 4
    node_x = plot_w - NODE_TEXT_PX - max((text_px(t, 12, bold="<b>" in t) for t in node_texts), default=0.0) - 4

    def pods_x(labels: list[str]) -> float:
        widest = max((text_px(lb, pod_size) for lb in labels), default=0.0)
        return min((job_x + node_x) / 2, node_x - NODE_TEXT_PX - MIN_EDGE_PX - widest - POD_TEXT_PX - 4)

    # The pods' marks stay right of the Job's label (centred under the Job, as wide as 2 * job_x - 8).
    fan = max(MIN_FAN_PX, job_x + 12)
    x = pods_x(pod_labels)
    short = x - job_x < fan and any(short_pod_label(lb, job) != lb for lb in pod_labels)
    if short:
        x = pods_x([short_pod_label(lb, job) for lb in pod_labels])
    return (job_x, x, node_x), short, x - job_x >= fan


def figure(trace: Trace, cycle: int, *, width_px: float = FIGURE_PX):
    """The ownership graph after ``cycle``.

    ``width_px``: the narrowest the figure will be drawn; the Job's label fits in it.
    """
    g = graph(trace, cycle)
    k, t = g.graph["cycle"], g.graph["t"]
    main, sub = _titles(trace, k, t, g)
    pos = nx.get_node_attributes(g, "pos")
    grouped = g.graph["grouped"]
    jd = g.nodes[f"job/{trace.job_name}"]
    members_of = {o: [(n, d) for n, d in g.nodes(data=True)
                      if d.get("kind") in ("pod", "group") and d["outcome"] == o] for o in OUTCOMES}
    n_members = sum(len(m) for o, m in members_of.items() if o != "deleted")
    nodes = [(n, d) for n, d in g.nodes(data=True) if d.get("kind") == "node"]
    on = {n: sum(g.nodes[p].get("count", 1) for p in g.predecessors(n)) for n, _ in nodes}
    node_texts = [f"<b>{d['label']}</b><br>{plural(on[n], 'pod')}" for n, d in nodes]


    def pod_label(d: dict[str, Any], bare: bool = False) -> str:
        if grouped:
            # Where the column is narrow, a group's count goes without "pods" (the column's title
            # says they are pods): ru '29 выполняющихся подов' put the groups over the Job's label.
            return plural(d["count"], d["outcome"]) if bare else d["label"]
        return (f"[{d['index']}] " if d.get("index") is not None else "") + d["label"]

    # Each layer's column in pixels of the plot: every label fits between its mark and the next column.
    plot_w = width_px - MARGIN["l"] - MARGIN["r"]
    pod_size = 10 if n_members > 20 else 11
    for bare in (False, True) if grouped else (False,):
        all_pods = [pod_label(d, bare) for o in OUTCOMES if o != "deleted" for _n, d in members_of[o]]
        for room in (JOB_LABEL_PX, JOB_LABEL_NARROW_PX):
            job_lines = job_label(jd["label"], jd["status"], room)
            (job_x, pods_x, node_x), short, fits = columns(plot_w, job_lines, all_pods, pod_size,
                                                           [t for text in node_texts for t in text.split("<br>")],
                                                           trace.job_name)
            if fits:
                break
        if fits:
            break
    widest_pod = max((text_px(short_pod_label(lb, trace.job_name) if short else lb, pod_size) for lb in all_pods),
                     default=0.0)
    layer_x = (job_x, pods_x, node_x)
    pos = {n: (layer_x[int(round(p[0]))], p[1]) for n, p in pos.items()}
    data: list[dict[str, Any]] = []
    for kind, dash, color in (("owns", "solid", "#9E9E9E"), ("runs-on", "dot", "#555555")):
        xs: list[float | None] = []
        ys: list[float | None] = []
        for a, b, d in g.edges(data=True):
            if d["kind"] == kind:
                # A runs-on edge starts after the pods' labels, which are written right of the pods.
                x0 = pos[a][0] + (POD_TEXT_PX + widest_pod + 4 if kind == "runs-on" else 0.0)
                xs += [x0, pos[b][0], None]
                ys += [pos[a][1], pos[b][1], None]
        data.append({"type": "scatter", "mode": "lines", "x": xs, "y": ys, "hoverinfo": "skip",
                     "name": _("owns (ownerReference)") if kind == "owns" else _("runs on (spec.nodeName)"),
                     "line": {"color": color, "width": 1.2, "dash": dash}})
    jx, jy = pos[f"job/{trace.job_name}"]
    data.append({"type": "scatter", "mode": "markers+text", "x": [jx], "y": [jy], "name": "Job",
                 "text": ["<br>".join(job_lines)], "textposition": "bottom center",
                 "marker": {"symbol": "square", "size": 26, "color": "#FFFFFF", "line": {"color": INK, "width": 2.5}},
                 "hoverinfo": "text", "hovertext": [f"{jd['label']}: {jd['status']}"]})
    for o in OUTCOMES:
        members = members_of[o]
        if o == "deleted":
            continue
        st = OUTCOME_STYLE[o]
        if grouped:
            sizes = [round(min(18.0, 9 + 1.5 * d["count"] ** 0.5), 1) for _, d in members]
        else:
            sizes = [15] * len(members)
        # Where the names do not fit, they leave out the Job's name (written under the Job); the
        # hover and the text twin keep the whole name.
        labels = [short_pod_label(pod_label(d, bare), trace.job_name) if short else pod_label(d, bare)
                  for _, d in members]
        data.append({"type": "scatter", "mode": "markers+text", "name": outcome_word(o),
                     "x": [pos[n][0] for n, _d in members],
                     "y": [pos[n][1] for n, _d in members], "text": labels, "textposition": "middle right",
                     "textfont": {"size": pod_size},
                     "marker": {"symbol": st.symbol, "size": sizes, "color": st.color if o != "pending" else MUTED,
                                "line": {"color": INK if o != "failed" else st.color, "width": 1.5}},
                     "hoverinfo": "text", "hovertext": [_hover(d["label"], o, d["node"]) for _n, d in members]})
    data.append({"type": "scatter", "mode": "markers+text", "name": "Node", "x": [pos[n][0] for n, _ in nodes],
                 "y": [pos[n][1] for n, _ in nodes],
                 "text": node_texts,
                 "textposition": "middle right",
                 "marker": {"symbol": "hexagon", "size": 24, "color": ["#FFFFFF" if d["gone"] else "#D9D9D9"
                                                                      for _, d in nodes],
                            "line": {"color": [MUTED if d["gone"] else INK for _, d in nodes], "width": 2}},
                 "hoverinfo": "text", "hovertext": [d["label"] for _, d in nodes]})
    n_rows = max(len([1 for _, d in g.nodes(data=True) if d.get("kind") in ("pod", "group")]), len(nodes), 4)
    # Column titles at the top of the plot, each over its column (the pods' and the nodes' from the
    # left of their marks), wrapped to the column's width; the y axis leaves room above the marks.
    nodes_word = _("Nodes")
    nodes_at = min(node_x - 12, plot_w - 1.1 * text_px(nodes_word, HEAD_SIZE) - 2)
    heads = ((job_x, "center", "Job", 2 * job_x),
             (pods_x - 8, "left", _("Pods (by node, then phase)") if not grouped else _("Pods grouped by node, phase"),
              nodes_at - (pods_x - 8) - 10),
             (nodes_at, "left", nodes_word, plot_w - nodes_at))
    notes = []
    head_lines = 1
    for x, anchor, words, room in heads:
        lines = wrap_px(words, room / 1.1, HEAD_SIZE)  # bold: 10% wider
        if len(lines) > 2 and anchor == "left" and words != nodes_word:
            # A narrow pods' column: its title starts over the edges from the Job instead.
            x = min(x, job_x + 1.1 * text_px("Job", HEAD_SIZE) / 2 + 16)
            lines = wrap_px(words, (nodes_at - x - 10) / 1.1, HEAD_SIZE)
        head_lines = max(head_lines, len(lines))
        notes.append({"x": x, "y": 1.0, "xref": "x", "yref": "paper", "text": "<br>".join(f"<b>{w}</b>" for w in lines),
                      "showarrow": False, "xanchor": anchor, "yanchor": "top", "align": anchor,
                      "font": {"size": HEAD_SIZE}})
    # The marks keep the height they had: the figure grows by the column titles' lines, and the
    # y axis reaches far enough down for the Job's label under its mark.
    marks_px = min(1000, max(380, 22 * n_rows + 200)) - MARGIN["t"] - MARGIN["b"]
    head_px = HEAD_LINE_PX * head_lines + 4
    job_px = 13 + 15 * len(job_lines) + 4  # below the Job's centre: half its mark, its lines

    def bottom(marks: float) -> float:
        low = min([p[1] for p in pos.values()] + [0]) - 0.12
        if job_px < marks:
            low = min(low, (jy - job_px * TOP / marks) / (1 - job_px / marks))
        return low

    low = bottom(marks_px)
    # Each node's label has two lines (its name, its pods): the marks grow until the closest two
    # nodes are that far apart (ten nodes beside 100 grouped pods stood 14 px apart, their labels
    # on top of each other).
    node_ys = sorted(p[1] for n, p in pos.items() if g.nodes[n].get("kind") == "node")
    closest = min((b - a for a, b in zip(node_ys, node_ys[1:])), default=0.0)
    if closest > 0 and closest * marks_px / (TOP - low) < NODE_ROW_PX:
        marks_px = math.ceil(NODE_ROW_PX * (TOP - low) / closest)
        low = bottom(marks_px)
    top = TOP + head_px * (TOP - low) / marks_px
    height = marks_px + head_px + MARGIN["t"] + MARGIN["b"]
    layout = {
        "title": title(main, sub, width_px=width_px), "height": height,
        "margin": dict(MARGIN),
        "xaxis": {"visible": False, "range": [0, plot_w], "fixedrange": True},
        "yaxis": {"visible": False, "range": [low, top]},
        "annotations": notes, "showlegend": True,
        "legend": LEGEND_BOTTOM,
    }
    return make_figure(data, layout, view=VIEW)


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`: the owner, each pod (or group) and where it runs."""
    g = graph(trace, cycle)
    k, t = g.graph["cycle"], g.graph["t"]
    main, sub = _titles(trace, k, t, g)
    jd = g.nodes[f"job/{trace.job_name}"]
    rows = []
    for n, d in g.nodes(data=True):
        if d.get("kind") == "pod":
            owner = "Job" if g.has_edge(f"job/{trace.job_name}", n) else "-"
            rows.append((d["label"], "-" if d.get("index") is None else d["index"], outcome_word(d["outcome"]),
                         owner, where_word(d["node"])))
        elif d.get("kind") == "group":
            rows.append((d["label"], "-", outcome_word(d["outcome"]), "Job", where_word(d["node"])))
    # TRANSLATORS: the Job's line of the ownership text; {status} is "active 2, succeeded 0, failed 0".
    lines = [main, sub, _("Job: {label}: {status}").format(label=jd["label"], status=jd["status"])]
    heads = [pgettext("table column", "POD") if not g.graph["grouped"] else pgettext("table column", "PODS"),
             pgettext("table column", "INDEX"), pgettext("table column", "PHASE"), pgettext("table column", "OWNER"),
             pgettext("table column", "NODE")]
    lines.append(table(heads, rows) if rows else _("(no pods)"))
    node_rows = [(d["label"], sum(g.nodes[p].get("count", 1) for p in g.predecessors(n)))
                 for n, d in g.nodes(data=True) if d.get("kind") == "node"]
    # TRANSLATORS: a node and how many of the Job's pods it runs: "node-1 (2 pods)".
    node_pods = _("{node} ({pods})")
    lines.append(_("Nodes: {nodes}").format(nodes=join_list(node_pods.format(node=lbl, pods=plural(c, "pod"))
                                                            for lbl, c in node_rows)))
    return "\n".join(lines) + "\n"


__all__ = ["GROUP_ABOVE", "figure", "graph", "pod_outcome", "text"]
