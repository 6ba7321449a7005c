"""What the ownership graph, the control loop and the event log show."""

from __future__ import annotations

import pytest
import viz_scenarios as S

from k8sjobs import viz
from k8sjobs.trace.text import describe_job
from k8sjobs.viz import control_loop, events, ownership
from k8sjobs.viz._common import HIGHLIGHT, figure_title


def test_the_graph_links_the_job_to_its_pods_and_each_pod_to_its_node():
    trace = S.indexed().trace
    g = ownership.graph(trace, 3)
    state = trace.state_at(3)
    pods = {f"pod/{p.metadata.name}": p for p in state.pods}
    assert {n for n, d in g.nodes(data=True) if d["kind"] == "pod"} == set(pods)
    owns = sorted(b for a, b, d in g.edges(data=True) if d["kind"] == "owns")
    assert owns == sorted(pods) and all(a == "job/indexed-job" for a, _ in g.in_edges(owns))
    runs = {a: b for a, b, d in g.edges(data=True) if d["kind"] == "runs-on"}
    assert runs == {pid: f"node/{p.spec.node_name}" for pid, p in pods.items() if p.spec.node_name}
    assert {d["layer"] for _, d in g.nodes(data=True)} == {0, 1, 2}


def test_the_layered_layout_puts_each_layer_in_a_column_and_no_edges_cross():
    trace = S.scale_down().trace
    g = ownership.graph(trace, 5)
    pos = {n: d["pos"] for n, d in g.nodes(data=True)}
    for n, d in g.nodes(data=True):
        assert pos[n][0] == float(d["layer"])
    edges = sorted(((pos[a][1], pos[b][1]) for a, b, d in g.edges(data=True) if d["kind"] == "runs-on"),
                   reverse=True)
    assert [e[1] for e in edges] == sorted((e[1] for e in edges), reverse=True), "pod→node edges do not cross"
    assert ownership.graph(trace, 5).nodes(data=True) == g.nodes(data=True), "the same world, the same drawing"


def test_the_graph_marks_pods_by_phase_with_a_symbol_and_a_label():
    trace = S.scale_down().trace
    fig = viz.figure("ownership", trace, 5)
    by = {tr.name: tr for tr in fig.data}
    assert len(by["terminating"].x) == 4 and len(by["running"].x) == 2, "the scale-down is under way"
    assert by["terminating"].marker.symbol == "diamond" and by["running"].marker.symbol == "circle"
    assert all(t.startswith("[") for t in by["running"].text), "Indexed pods are labelled with their index"
    assert "6 pods (2 running, 4 terminating) on 3 nodes" in figure_title(fig)


def test_many_pods_are_grouped_by_node_and_phase():
    trace = S.big().trace
    k = len(trace.cycles) // 3
    g = ownership.graph(trace, k)
    assert g.graph["grouped"]
    groups = [d for _, d in g.nodes(data=True) if d["kind"] == "group"]
    assert sum(d["count"] for d in groups) == len(trace.state_at(k).pods)
    assert len(groups) <= 10 * 5 + 5, "at most one mark per node and phase"
    assert "grouped by node and phase" in figure_title(viz.figure("ownership", trace, k))


# ------------------------------------------------------------------------------ control loop


@pytest.mark.parametrize(("scenario", "cycle", "primary"), [
    ("quota", 1, "api"),             # created pods (and some creates were rejected)
    ("backoff", 4, "queue"),         # waited for the pod-failure backoff: requeued
    ("lag", 11, "informer"),         # expectations unmet: waiting for the informer
    ("indexed", 9, "sync"),          # decided the Job is complete
    ("indexed", 2, "kubelet"),       # nothing to do: the pods started since the last cycle
], ids=lambda v: str(v))
def test_the_step_that_explains_the_cycle_is_lit(scenario, cycle, primary):
    trace = S.ALL[scenario]().trace
    steps = control_loop.steps(trace, cycle)
    assert [s.id for s in steps if s.primary] == [primary]
    fig = viz.figure("control_loop", trace, cycle)
    boxes = [s for s in fig.layout.shapes if s.type == "rect"]
    lit = [i for i, b in enumerate(boxes) if b.fillcolor == HIGHLIGHT]
    assert [steps[i].id for i in lit] == [primary]
    assert f">> {next(s.label for s in steps if s.primary)}" in viz.text("control_loop", trace, cycle)


def test_the_loop_has_five_steps_joined_by_five_arrows():
    fig = viz.figure("control_loop", S.quota().trace, 1)
    arrows = [a for a in fig.layout.annotations if a.showarrow]
    assert len(arrows) == 5 and len([s for s in fig.layout.shapes if s.type == "rect"]) == 5
    assert [s.label for s in control_loop.steps(S.quota().trace, 1)] == [
        "informer (watch cache)", "work queue", "syncJob (controller)", "API server", "scheduler + kubelet"]
    assert "created 5 pods, 2 creates rejected" in control_loop.steps(S.quota().trace, 1)[3].says


def test_before_the_first_cycle_nothing_is_lit():
    steps = control_loop.steps(S.quota().trace, 0)
    assert not any(s.primary or s.active for s in steps)


# ------------------------------------------------------------------------------ events


def test_the_event_log_folds_repeats_like_kubectl_and_highlights_warnings():
    trace = S.quota().trace
    rows, total, dropped = events.rows(trace, 5)
    assert total == len(trace.events_until(5)) and dropped == 0
    warn = [r for r in rows if r.type == "Warning"]
    assert len(warn) == 1 and warn[0].reason == "FailedCreate" and warn[0].count == 7
    assert warn[0].age == "0s (x7 over 12s)"
    fig = viz.figure("events", trace, 5)
    types = list(fig.data[0].cells.values[0])
    fills = list(fig.data[0].cells.fill.color[0])
    assert [f == HIGHLIGHT for f in fills] == [t == "<b>Warning</b>" for t in types]


def test_at_the_end_the_event_log_matches_kubectl_describe():
    trace = S.indexed().trace
    last = len(trace.cycles)
    assert trace.cycles[-1].t == trace.end_t, "describe's ages are taken at the end of the run"
    described = describe_job(trace).split("Events:\n", 1)[1].splitlines()[2:]
    shown = viz.text("events", trace, last).split("Events:\n", 1)[1].splitlines()[2:]
    assert [line.split() for line in shown] == [line.split() for line in described]


@pytest.mark.parametrize("language", ["en", "ru", "zh-CN"])
@pytest.mark.parametrize("width", [380, 800])
def test_a_label_beside_a_slanted_arrow_of_the_control_loop_ends_inside_the_figure(language, width):
    # "pod status → watch events" ran 11 px past a half-width figure's left edge (Chromium)
    from k8sjobs import set_language
    from k8sjobs.viz._common import text_px

    set_language(language)
    try:
        fig = control_loop.figure(S.ALL["quota"]().trace, 1, width_px=width)
    finally:
        set_language("en")
    ppu = control_loop.px_per_unit(width)[0]
    slanted = [a for a in fig.layout.annotations if a.xanchor in ("left", "right") and a.text]
    assert len(slanted) == 2
    for a in slanted:
        widest = max(text_px(line.replace("<i>", "").replace("</i>", ""), control_loop.FLOW_SIZE)
                     for line in a.text.split("<br>"))
        anchor_px = (a.x - control_loop.X_RANGE[0]) * ppu + control_loop.MARGIN["l"] + (a.xshift or 0)
        if a.xanchor == "right":
            assert anchor_px - widest >= 0, (a.text, anchor_px, widest)
        else:
            assert anchor_px + widest <= width, (a.text, anchor_px, widest)


def test_the_event_log_leaves_out_events_older_than_the_api_servers_hour_and_says_so():
    """As describe does: kube-apiserver deletes an Event an hour after its last write (--event-ttl),
    so three hours into an every-minute CronJob the log's rows are the Events written in the last
    hour, and the subtitle says how many rows are gone."""
    from pathlib import Path

    from k8sjobs import Run
    from k8sjobs.api.events import EVENT_TTL

    run = Run((Path(__file__).parents[2] / "examples" / "cronjob" / "hello.yaml").read_text(), max_time=3 * 3600)
    tr = run.trace_of("cronjob/default/hello")
    k = len(tr.cycles)
    now = tr.cycles[-1].t
    last: dict[tuple[str, str, str], float] = {}
    for e in tr.events_until(k):
        last[(e.type, e.reason, e.message)] = e.t
    alive = [key for key, t in last.items() if now - t <= EVENT_TTL]
    gone = len(last) - len(alive)
    rows, total, dropped = events.rows(tr, k)
    assert gone > 0 and dropped == 0 and total == len(tr.events_until(k))
    assert sorted((r.type, r.reason, r.message) for r in rows) == sorted(alive)
    twin = viz.text("events", tr, k)
    assert f"{gone} rows gone: last written over an hour earlier (the API server's event TTL)" in twin
    assert f"{gone} rows gone" in figure_title(viz.figure("events", tr, k))
    # an hour in, nothing is gone yet
    early = next(c.index for c in tr.cycles if c.t >= 3000)
    assert "gone" not in viz.text("events", tr, early)
