"""What the pod timeline and the counts view show: bars, their order, labels, the current cycle."""

from __future__ import annotations

import pytest
import viz_scenarios as S

from k8sjobs import viz
from k8sjobs.viz import counts, timeline
from k8sjobs.viz._common import OUTCOMES, figure_title


def _bars(fig) -> dict[str, list[tuple[str, float, float, str]]]:
    """Outcome -> (pod, start, end, label) of every non-empty bar."""
    out: dict[str, list[tuple[str, float, float, str]]] = {}
    for tr in fig.data:
        if tr.type == "bar":
            out[tr.name] = [(y, b, round(b + x, 3), t) for y, b, x, t in zip(tr.y, tr.base, tr.x, tr.text) if x > 0]
    return out


def _highlight(fig) -> tuple[float, str]:
    shape = next(s for s in fig.layout.shapes if s.line.dash == "dash")
    note = next(a for a in fig.layout.annotations if a.text.startswith("<b>cycle"))
    return shape.x0, note.text


def test_the_timeline_has_one_row_per_pod_in_creation_order_with_failed_bars_for_the_backoff_waves():
    trace = S.backoff().trace
    k = len(trace.cycles)
    fig = viz.figure("timeline", trace, k)
    pods = trace.pod_histories()
    assert list(fig.layout.yaxis.categoryarray) == [h.name for h in pods]
    assert fig.layout.yaxis.autorange == "reversed", "the first pod is drawn at the top"
    bars = _bars(fig)
    assert [b[0] for b in bars["failed"]] == [h.name for h in pods], "every pod failed, one bar each"
    assert [(b[1], b[2]) for b in bars["failed"]] == [(h.started, h.finished) for h in pods]
    assert [b[1] for b in bars["failed"][::2]] == [1.0, 52.0, 163.0, 514.0], "four waves of two pods"
    assert bars.get("succeeded", []) == []


def test_the_timeline_marks_every_cycle_and_highlights_the_current_one():
    trace = S.backoff().trace
    fig = viz.figure("timeline", trace, 4)
    ticks = next(tr for tr in fig.data if tr.name == "reconcile cycles")
    assert list(ticks.x) == [c.t for c in trace.cycles[:4]]
    x, label = _highlight(fig)
    assert (x, label) == (trace.cycles[3].t, "<b>cycle 4</b>")
    assert "up to cycle 4 (t=32 s)" in fig.layout.title.text


def test_the_timeline_shows_only_what_existed_at_the_cycle():
    trace = S.backoff().trace
    fig = viz.figure("timeline", trace, 3)
    assert len(fig.layout.yaxis.categoryarray) == 2, "the second wave does not exist yet at cycle 3"
    bars = _bars(fig)
    assert [b[0] for b in bars["running"]] == list(fig.layout.yaxis.categoryarray)
    assert all(b[2] == trace.cycles[2].t for b in bars["running"]), "running bars end at the cycle's time"
    assert viz.figure("timeline", trace, 0).layout.yaxis.categoryarray == ()


def test_an_indexed_timeline_sorts_pods_by_index_and_labels_bars_with_it():
    trace = S.scale_down().trace
    fig = viz.figure("timeline", trace, len(trace.cycles))
    hist = sorted(trace.pod_histories(), key=lambda h: (h.index, h.created, h.name))
    assert list(fig.layout.yaxis.categoryarray) == [h.name for h in hist]
    assert list(fig.layout.yaxis.ticktext) == [f"{h.name} [{h.index}]" for h in hist]
    labels = [b[3] for b in _bars(fig)["succeeded"] if b[3]]
    assert labels and all(t.startswith("index ") and t.endswith(" · succeeded") for t in labels)
    deleted = [b[0] for b in _bars(fig)["deleted"]]
    assert len(deleted) == 4, "the four pods of the scale-down end as deleted"


def test_the_pod_segments_follow_its_life():
    trace = S.scale_down().trace
    h = next(p for p in trace.pod_histories() if p.deleting is not None)
    segs = timeline.pod_segments(h, trace.end_t)
    assert [s[0] for s in segs] == ["pending", "running", "deleted"]
    assert segs[0][1] == h.created and segs[-1][1] == h.deleting
    assert timeline.pod_segments(h, h.created - 1) == []


def test_many_pods_are_binned_into_counts_and_the_title_says_so():
    trace = S.big().trace
    k = len(trace.cycles)
    fig = viz.figure("timeline", trace, k)
    assert fig.layout.barmode == "relative"
    assert "(aggregated)" in fig.layout.title.text
    assert "are more than 400 bars" in figure_title(fig)
    ended = {tr.name: -sum(tr.y) for tr in fig.data if tr.type == "bar" and "ended" in tr.name}
    finished = [h for h in trace.pod_histories() if h.outcome() in ("succeeded", "failed", "deleted")]
    assert sum(ended.values()) == len(finished), "every pod that ended is counted in exactly one bin"
    assert ended["succeeded (ended in bin)"] == sum(h.outcome() == "succeeded" for h in finished)
    assert "aggregated" in viz.text("timeline", trace, k).splitlines()[0]


def test_the_legend_always_lists_every_outcome():
    fig = viz.figure("timeline", S.indexed().trace, 2)
    assert [tr.name for tr in fig.data if tr.type == "bar"] == list(OUTCOMES)


# ------------------------------------------------------------------------------ counts


def test_counts_follow_the_status_after_each_cycle():
    trace = S.quota().trace
    fig = viz.figure("counts", trace, 12)
    by = {tr.name: tr for tr in fig.data}
    for field, *_ in counts.SERIES:
        assert list(by[field].y) == [getattr(c.after, field) for c in trace.cycles[:12]], field
        assert list(by[field].x) == [c.t for c in trace.cycles[:12]]
    assert set(by["parallelism (asked)"].y) == {20}
    assert set(by["completions (asked)"].y) == {40}
    assert "active 5, 15 below the 20 wanted" in figure_title(fig), \
        "the quota keeps the Job below what it asked for"


@pytest.mark.parametrize(("cycle", "active"), [(1, 5), (12, 5)])
def test_counts_highlight_the_current_cycles_values(cycle, active):
    trace = S.quota().trace
    fig = viz.figure("counts", trace, cycle)
    x, label = _highlight(fig)
    assert (x, label) == (trace.cycles[cycle - 1].t, f"<b>cycle {cycle}</b>")
    mark = next(tr for tr in fig.data if tr.name == f"cycle {cycle}")
    assert mark.y[0] == active
    ends = [a.text for a in fig.layout.annotations if a.xshift == 10]
    assert any(t.startswith("active") and t.endswith(str(active)) for t in ends)


def test_the_wanted_line_is_what_the_controller_aimed_at():
    trace = S.quota().trace
    s = counts.series(trace, len(trace.cycles))
    want = [c.find("manage.want_active")[0].fields["want"] for c in trace.cycles if c.find("manage.want_active")]
    assert [w for w, c in zip(s["wanted"], trace.cycles) if c.find("manage.want_active")] == want
