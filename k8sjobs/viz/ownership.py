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
LABEL_ROOM = 0.5
"""Width (in layer units) left for pod labels before the edges to the nodes start."""
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
X_RIGHT = 2.55
"""Right end of the x axis: room right of the nodes (x = 2) for their labels."""


JOB_LABEL_PX = 160
"""Width the Job's counts wrap to (Russian counts are 262 px on one line), at every figure width:
a half-width figure changes its layout, not its data."""


def job_label(name: str, status: str) -> list[str]:
    """The lines under the Job's marker: its name (bold), then its counts, wrapped to :data:`JOB_LABEL_PX`."""
    return [f"<b>{name}</b>", *wrap_px(status, JOB_LABEL_PX)]


def x_range(lines: list[str], width_px: float = FIGURE_PX) -> list[float]:
    """The x axis range: the Job at x = 0 far enough from the plot's left edge that its
    label, centred under it, is not cut (plotly clips marker text at the plot's edge); at
    least 0.3 of a unit, as before."""
    need = max(text_px(line, 12, bold="<b>" in line) for line in lines) / 2 + 4  # px of plot left of the Job
    plot_w = width_px - MARGIN["l"] - MARGIN["r"]
    return [round(min(-0.3, -need * X_RIGHT / (plot_w - need)), 4), X_RIGHT]


def figure(trace: Trace, cycle: int, *, width_px: float = FIGURE_PX):
    """The ownership graph after ``cycle``.

    ``width_px``: the narrowest the figure will be drawn; the Job's label fits in it.
    """
    g = graph(trace, cycle)
    k, t = g.graph["cycle"], g.graph["t"]
    main, sub = _titles(trace, k, t, g)
    pos = nx.get_node_attributes(g, "pos")
    data: list[dict[str, Any]] = []
    for kind, dash, color in (("owns", "solid", "#9E9E9E"), ("runs-on", "dot", "#555555")):
        xs: list[float | None] = []
        ys: list[float | None] = []
        for a, b, d in g.edges(data=True):
            if d["kind"] == kind:
                # A runs-on edge starts after the pod's label, which is written right of the pod.
                x0 = pos[a][0] + (LABEL_ROOM if kind == "runs-on" else 0.0)
                xs += [x0, pos[b][0], None]
                ys += [pos[a][1], pos[b][1], None]
        data.append({"type": "scatter", "mode": "lines", "x": xs, "y": ys, "hoverinfo": "skip",
                     "name": _("owns (ownerReference)") if kind == "owns" else _("runs on (spec.nodeName)"),
                     "line": {"color": color, "width": 1.2, "dash": dash}})
    jx, jy = pos[f"job/{trace.job_name}"]
    jd = g.nodes[f"job/{trace.job_name}"]
    job_lines = job_label(jd["label"], jd["status"])
    data.append({"type": "scatter", "mode": "markers+text", "x": [jx], "y": [jy], "name": "Job",
                 "text": ["<br>".join(job_lines)], "textposition": "bottom center",
                 "marker": {"symbol": "square", "size": 26, "color": "#FFFFFF", "line": {"color": INK, "width": 2.5}},
                 "hoverinfo": "text", "hovertext": [f"{jd['label']}: {jd['status']}"]})
    grouped = g.graph["grouped"]
    for o in OUTCOMES:
        members = [(n, d) for n, d in g.nodes(data=True) if d.get("kind") in ("pod", "group") and d["outcome"] == o]
        if o == "deleted":
            continue
        st = OUTCOME_STYLE[o]
        if grouped:
            sizes = [round(min(18.0, 9 + 1.5 * d["count"] ** 0.5), 1) for _, d in members]
            labels = [d["label"] for _, d in members]
        else:
            sizes = [15] * len(members)
            labels = [(f"[{d['index']}] " if d.get("index") is not None else "") + d["label"] for _, d in members]
        data.append({"type": "scatter", "mode": "markers+text", "name": outcome_word(o),
                     "x": [pos[n][0] for n, _d in members],
                     "y": [pos[n][1] for n, _d in members], "text": labels, "textposition": "middle right",
                     "textfont": {"size": 10 if len(members) > 20 else 11},
                     "marker": {"symbol": st.symbol, "size": sizes, "color": st.color if o != "pending" else MUTED,
                                "line": {"color": INK if o != "failed" else st.color, "width": 1.5}},
                     "hoverinfo": "text", "hovertext": [_hover(d["label"], o, d["node"]) for _n, d in members]})
    nodes = [(n, d) for n, d in g.nodes(data=True) if d.get("kind") == "node"]
    on = {n: sum(g.nodes[p].get("count", 1) for p in g.predecessors(n)) for n, _ in nodes}
    data.append({"type": "scatter", "mode": "markers+text", "name": "Node", "x": [pos[n][0] for n, _ in nodes],
                 "y": [pos[n][1] for n, _ in nodes],
                 "text": [f"<b>{d['label']}</b><br>{plural(on[n], 'pod')}" for n, d in nodes],
                 "textposition": "middle right",
                 "marker": {"symbol": "hexagon", "size": 24, "color": ["#FFFFFF" if d["gone"] else "#D9D9D9"
                                                                      for _, d in nodes],
                            "line": {"color": [MUTED if d["gone"] else INK for _, d in nodes], "width": 2}},
                 "hoverinfo": "text", "hovertext": [d["label"] for _, d in nodes]})
    n_rows = max(len([1 for _, d in g.nodes(data=True) if d.get("kind") in ("pod", "group")]), len(nodes), 4)
    notes = [{"x": x, "y": 1.0, "xref": "x", "yref": "paper", "text": f"<b>{w}</b>", "showarrow": False,
              "yanchor": "bottom", "font": {"size": 12}}
             for x, w in ((0, "Job"), (1, _("Pods (by node, then phase)") if not grouped else
                                       _("Pods grouped by node, phase")), (2, _("Nodes")))]
    layout = {
        "title": title(main, sub, width_px=width_px), "height": min(1000, max(380, 22 * n_rows + 200)),
        "margin": dict(MARGIN),
        "xaxis": {"visible": False, "range": x_range(job_lines, width_px), "fixedrange": True},
        # Room above the top marker and below the lowest one for their two-line labels.
        "yaxis": {"visible": False, "range": [min([p[1] for p in pos.values()] + [0]) - 0.12, 1.16]},
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
