"""What the slow-start ladder and the backoff timeline show."""

from __future__ import annotations

import pytest
import viz_scenarios as S

from k8sjobs import viz
from k8sjobs.controller.job.backoff_utils import backoff_delay
from k8sjobs.viz import backoff, slow_start
from k8sjobs.viz._common import figure_title


@pytest.mark.parametrize(("diff", "sizes"), [
    (1, [1]), (2, [1, 1]), (3, [1, 2]), (7, [1, 2, 4]), (20, [1, 2, 4, 8, 5]), (0, []),
], ids=lambda v: str(v))
def test_slow_start_batches_double_and_are_capped_by_what_is_left(diff, sizes):
    assert slow_start.plan_batches(diff) == sizes
    assert sum(sizes) == diff


def _rows(fig) -> dict[str, list[int]]:
    return {tr.name: list(tr.x) for tr in fig.data if tr.type == "bar"}


def test_the_ladder_shows_the_failed_batch_and_the_skipped_pods():
    trace = S.quota().trace
    fig = viz.figure("slow_start", trace, 1)
    assert list(fig.layout.yaxis.categoryarray) == [
        "batch 1 (size 1)", "batch 2 (size 2)", "batch 3 (size 4)", "batch 4 (size 8)", "batch 5 (size 5)"]
    rows = _rows(fig)
    assert rows["created"] == [1, 2, 2, 0, 0]
    assert rows["failed create"] == [0, 0, 2, 0, 0]
    assert rows["skipped (not sent)"] == [0, 0, 0, 8, 5]
    # The failed batch is outlined and named; the skipped batches say they were never sent.
    boxes = [s for s in fig.layout.shapes if s.type == "rect"]
    assert [(b.y0, b.y1) for b in boxes] == [(1.5, 2.5)], "exactly batch 3 is outlined"
    notes = [a.text for a in fig.layout.annotations]
    assert notes[2] == "creations expected: 18  ◀ failed batch: slow start stops here"
    assert notes[3].endswith("(never sent)") and notes[4].endswith("(never sent)")


def test_the_ladder_counts_the_creation_expectations_down_to_what_the_trace_recorded():
    trace = S.quota().trace
    lad = slow_start.ladder(trace.cycle(1))
    assert (lad.expect_before, lad.expect_set, lad.expect_after) == (0, 20, 5)
    assert [b.expect_add_after for b in lad.batches] == [20, 20, 18, 10, 5]
    assert lad.batches[-1].expect_add_after == trace.cycle(1).expectations[2]
    assert "Creations expected: 0 before the sync, 20 set by it, 5 after it" in \
        figure_title(viz.figure("slow_start", trace, 1))


def test_the_ladder_shows_the_latest_creating_cycle_and_says_so():
    trace = S.quota().trace
    later = next(c.index for c in trace.cycles if not slow_start.creates_pods(c))
    fig = viz.figure("slow_start", trace, later)
    shown = slow_start.ladder(next(c for c in reversed(trace.cycles[:later]) if slow_start.creates_pods(c))).cycle
    assert f"in cycle {shown.index} " in fig.layout.title.text
    assert f"the latest cycle that created pods up to cycle {later}" in fig.layout.title.text


def test_no_ladder_before_any_pod_was_created():
    fig = viz.figure("slow_start", S.quota().trace, 0)
    assert fig.data == ()
    assert "no cycle has created pods yet" in viz.text("slow_start", S.quota().trace, 0)


# ------------------------------------------------------------------------------ backoff


def test_the_waits_double_from_ten_seconds_and_stop_at_the_cap():
    trace = S.backoff_cap().trace
    s = backoff.story(trace, len(trace.cycles))
    assert [f.n for f in s.failures] == list(range(1, 10))
    assert [f.delay for f in s.failures] == [10, 20, 40, 80, 160, 320, 600, 600, 600]
    assert [f.next_start - f.t for f in s.failures] == [backoff_delay(n) for n in range(1, 10)]
    assert backoff.delay_formula(3) == "10·2^(3−1) = 40 s"
    assert backoff.delay_formula(7) == "10·2^(7−1) = 640 s, capped at 600 s"
    fig = viz.figure("backoff", trace, len(trace.cycles))
    # In its bar, or (a bar too short to hold it) on the first line right of its start mark.
    labels = [line for tr in fig.data if tr.type == "bar" or tr.mode == "markers+text" for t in tr.text if t
              for line in t.split("<br>")]
    assert "n=7: 10·2^(7−1) = 640 s, capped at 600 s" in labels


def test_the_derived_failure_counts_match_what_the_controller_waited_for():
    for trace in (S.backoff().trace, S.backoff_cap().trace):
        s = backoff.story(trace, len(trace.cycles))
        for w in s.waits:
            before = [f for f in s.failures if f.t <= w.t]
            assert before[-1].n == w.failures, f"cycle {w.cycle}"
            assert before[-1].next_start == w.until, f"cycle {w.cycle}"


def test_a_later_failure_supersedes_the_wait_of_the_one_before_it():
    trace = S.backoff().trace
    s = backoff.story(trace, len(trace.cycles))
    assert [f.status for f in s.failures] == ["superseded", "waited"] * 3 + ["superseded", "job failed"]
    fig = viz.figure("backoff", trace, len(trace.cycles))
    faded = next(tr for tr in fig.data if tr.type == "bar" and tr.opacity < 1)
    assert len(faded.y) == 5, "the four superseded waits and the one the failed Job never served"
    starts = next(tr for tr in fig.data if tr.name == "new pod may start")
    assert list(starts.x) == [51, 162, 513]
    assert [p.created for p in trace.pod_histories()][2::2] == [51, 162, 513], \
        "each new wave starts exactly when the wait runs out"


def test_per_index_backoff_has_a_lane_per_failing_index_and_no_retry_after_the_limit():
    trace = S.per_index().trace
    k = len(trace.cycles)
    fig = viz.figure("backoff", trace, k)
    lanes = [y for y in fig.layout.yaxis.categoryarray if y.startswith("index")]
    assert lanes == ["index 0", "index 2", "index 4", "index 6", "index 8"]
    s = backoff.story(trace, k)
    assert s.per_index and s.limit == 1
    by_index: dict[int, list[str]] = {}
    for f in s.failures:
        by_index.setdefault(f.index, []).append(f.status)
    assert by_index == {i: ["waited", "index failed"] for i in (0, 2, 4, 6, 8)}
    failed_marks = next(tr for tr in fig.data if tr.name == "pod failed")
    assert sum(bool(t) for t in failed_marks.text) == 5
    assert "index failed (2 > backoffLimitPerIndex 1)" in failed_marks.text


def test_before_any_failure_the_backoff_view_says_there_is_none():
    trace = S.backoff().trace
    assert "no pod has failed yet" in viz.text("backoff", trace, 2)
