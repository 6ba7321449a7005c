"""What the deletion ranking and the expectations view show."""

from __future__ import annotations

import pytest
import viz_scenarios as S

from k8sjobs import viz
from k8sjobs.controller.controller_utils import EXPECTATIONS_TIMEOUT
from k8sjobs.trace.reasons import ORDER_RULE_SENTENCES
from k8sjobs.viz import deletion, expectations
from k8sjobs.viz._common import HIGHLIGHT, figure_title


def _table(fig):
    # As a reader reads it: the no-break spaces that keep a value on one line are spaces, and the
    # lines a sentence is wrapped into are one sentence.
    tab = fig.data[0]
    heads = [h.replace("<b>", "").replace("</b>", "").replace("\u00a0", " ") for h in tab.header.values]
    cells = [[v.replace("\u00a0", " ").replace("<br>", " ") for v in col] for col in tab.cells.values]
    return heads, cells, [list(col) for col in tab.cells.fill.color]


def _scale_down(trace):
    c = next(c for c in trace.cycles if deletion.scales_down(c))
    return c, c.find("scale_down")[0].fields


def test_the_ranking_lists_candidates_in_deletion_order_with_the_verdicts():
    trace = S.mixed_scale_down().trace
    c, f = _scale_down(trace)
    heads, cols, _ = _table(viz.figure("deletion", trace, c.index))
    names = [n.replace("<b>◆ ", "").replace("</b>", "") for n in cols[heads.index("pod")]]
    assert names == f["ranking"]
    verdicts = [v.replace("<b>", "").replace("</b>", "") for v in cols[heads.index("verdict")]]
    assert verdicts == ["DELETE" if n in f["to_delete"] else "keep" for n in names]
    assert verdicts == ["DELETE"] * 6 + ["keep"] * 2, "8 active, want 2: the first 6 go"


def test_the_cell_of_the_deciding_rule_is_highlighted_in_every_row():
    trace = S.mixed_scale_down().trace
    c, f = _scale_down(trace)
    heads, cols, fills = _table(viz.figure("deletion", trace, c.index))
    column_of = {rule: heads.index(title) for rule, title in deletion.RULE_COLUMNS} | {"name": heads.index("pod")}
    assert f["pair_rules"] == ["name", "unassigned-first", "name", "name", "name", "earlier-phase-first",
                               "recently-ready-first"]
    for row, rule in enumerate(f["pair_rules"]):
        lit = [i for i, col in enumerate(fills) if col[row] == HIGHLIGHT]
        assert lit == [column_of[rule]], f"row {row + 1}: {rule}"
        assert cols[column_of[rule]][row].startswith("<b>◆ "), f"row {row + 1} marks the deciding value"
        assert cols[-1][row] == f"{rule}: {ORDER_RULE_SENTENCES[rule]}"
    last = len(f["ranking"]) - 1
    assert [i for i, col in enumerate(fills) if col[last] == HIGHLIGHT] == [], "the last pod has no next pod"


def test_the_rule_at_the_cut_is_named_in_the_title():
    trace = S.mixed_scale_down().trace
    c, _ = _scale_down(trace)
    r = deletion.ranking(trace, c)
    assert r.cut is not None and r.cut.rule == "earlier-phase-first"
    assert "by rule earlier-phase-first" in figure_title(viz.figure("deletion", trace, c.index))
    assert "*Pending" in viz.text("deletion", trace, c.index), "the text twin stars the deciding cell"


def test_the_indexed_pre_step_comes_first_with_its_index_highlighted():
    trace = S.elastic().trace
    c, f = _scale_down(trace)
    heads, cols, fills = _table(viz.figure("deletion", trace, c.index))
    assert [p[0] for p in f["prestep"]] == cols[heads.index("pod")][:3]
    assert cols[heads.index("index")][:3] == ["3", "4", "5"]
    ix = heads.index("index")
    for row in range(3):
        assert [i for i, col in enumerate(fills) if col[row] == HIGHLIGHT] == [ix]
        assert cols[-1][row].startswith("<b>pre-step</b>: index ")
        assert cols[-1][row].endswith("is out of range for completions 3")
    assert "3 pods removed first by the Indexed pre-step" in figure_title(viz.figure("deletion", trace, c.index))


def test_before_any_scale_down_the_ranking_says_so():
    trace = S.mixed_scale_down().trace
    fig = viz.figure("deletion", trace, 1)
    assert fig.data == ()
    assert "no scale-down yet" in viz.text("deletion", trace, 1)


# ------------------------------------------------------------------------------ expectations


def test_syncs_that_found_expectations_unmet_are_crossed_out():
    trace = S.lag().trace
    k = len(trace.cycles)
    fig = viz.figure("expectations", trace, k)
    crosses = next(tr for tr in fig.data if tr.name.startswith("sync: expectations NOT met"))
    unmet = [c for c in trace.cycles if not c.satisfied]
    assert unmet, "the lagging informer leaves some syncs waiting"
    assert list(crosses.x) == [c.t for c in unmet]
    assert list(crosses.y) == [c.expectations[0] for c in unmet]
    assert f"{len(unmet)} of {k} syncs found their expectations unmet" in figure_title(fig)


def test_the_creation_counter_jumps_at_a_sync_and_falls_with_each_observation():
    trace = S.lag().trace
    cre, dele, rows = expectations.model(trace, len(trace.cycles))
    assert len(cre.observed) == sum(1 for n in trace.notes if n.rule == "expectations.creation_observed")
    # Each sync adds two corners: what it found, then what it left (observations only lower the count).
    i = 1
    for c in trace.cycles:
        while cre.points[i][0] != c.t or cre.points[i + 1][0] != c.t:
            assert cre.points[i][1] == cre.points[i - 1][1] - 1, "between syncs the count only falls by one"
            i += 1
        assert cre.points[i - 1][1] == c.expectations[0], f"cycle {c.index} finds what the observations left"
        assert cre.points[i:i + 2] == ((c.t, c.expectations[0]), (c.t, c.expectations[2])), f"cycle {c.index}"
        i += 2
    assert [r.seen_add for r in rows][1] == trace.cycle(1).expectations[2], \
        "the creations of cycle 1 are all seen before cycle 2"
    assert all(v == 0 for _, v in dele.points), "nothing was deleted"


def test_an_open_record_expires_five_minutes_after_it_was_set():
    trace = S.lag().trace
    c = next(c for c in trace.cycles if not c.satisfied)
    _, _, rows = expectations.model(trace, c.index)
    row = rows[-1]
    assert row.expires_at == row.record_since + EXPECTATIONS_TIMEOUT
    assert row.record_since == c.observed["expect_since"]
    fig = viz.figure("expectations", trace, c.index)
    assert f"the record expires at t={row.expires_at:g} s (5 min)" in figure_title(fig)
    assert any(f"expires at {row.expires_at:g} s" in (a.text or "") for a in fig.layout.annotations)


def test_the_slow_start_sync_sets_twenty_and_leaves_five_expected():
    trace = S.quota().trace
    _, _, rows = expectations.model(trace, 1)
    assert rows[0].add == (0, 5)
    assert rows[0].satisfied


def test_a_row_is_as_tall_as_its_most_wrapped_cell_so_no_row_is_cut_off():
    short = ["1", "tiles-a", "node-1", "Running", "yes", "2 s", "0", "0 s", "keep", "last in the order"]
    # The last column's sentences are wrapped to its width before plotly draws them.
    three_lines = short[:-1] + ["unassigned-first:<br>unassigned pods<br>go first"]
    assert deletion._row_height(short) == 12 + 16
    assert deletion._row_height(three_lines) == 12 + 16 * 3
    trace = S.mixed_scale_down().trace
    fig = viz.figure("deletion", trace, len(trace.cycles))
    cols = fig.data[0].cells.values
    rows = [[col[i] for col in cols] for i in range(len(cols[0]))]
    assert any(r[-1].count("<br>") >= 2 for r in rows), "some sentence takes several lines"
    assert fig.layout.height >= sum(deletion._row_height(r) for r in rows) + fig.layout.margin.t


@pytest.mark.parametrize("low, high, ticks", [
    (0, 1, [0, 1]),
    (0, 2, [0, 1, 2]),
    (0, 7, [0, 2, 4, 6]),
    (-1, 3, [-1, 0, 1, 2, 3]),
    (0, 20, [0, 5, 10, 15, 20]),
    (0, 1000, [0, 500, 1000]),
])
def test_the_expectation_axes_tick_whole_pods_only(low, high, ticks):
    assert expectations.pod_ticks(low, high) == {"tickmode": "array", "tickvals": ticks}


def test_the_cycle_label_stands_inside_the_upper_plot_and_turns_left_in_the_right_part_of_the_axis():
    # Above the plot stands "creations expected" (the label of cycle 1, at t=0, covered it), and at the
    # right edge a label drawn rightwards of the line was cut off (19 px of a half-width Chinese figure).
    trace = S.lag().trace
    last = len(trace.cycles)
    for cycle, anchor in ((1, "left"), (last, "right")):
        fig = viz.figure("expectations", trace, cycle)
        label = next(a for a in fig.layout.annotations if a.text == f"<b>cycle {cycle}</b>")
        assert (label.y, label.yanchor, label.xanchor) == (0.97, "top", anchor), cycle
        assert fig.layout.yaxis.tickvals and all(isinstance(v, int) for v in fig.layout.yaxis.tickvals)


def test_in_a_half_width_pane_the_ranking_shows_pod_verdict_and_the_deciding_fact_over_its_rule():
    # Eight columns scaled into 360 px cut every value ("Run", "是", "shrink-"); four fit, the deciding
    # fact marked and highlighted over the rule's sentence. The other facts stay in the text twin.
    trace = S.scale_down().trace
    k = len(trace.cycles)
    wide, narrow = viz.figure("deletion", trace, k), viz.figure("deletion", trace, k, narrow=True)
    w, n = wide.data[0], narrow.data[0]
    assert [h.replace("\xa0", " ") for h in n.header.values][:3] == ["<b>#</b>", "<b>pod</b>", "<b>verdict</b>"]
    assert sum(n.columnwidth) <= 360 + 0.01
    assert [v.split("<br>")[0] for v in n.cells.values[1]] == list(w.cells.values[1])
    assert list(n.cells.values[2]) == list(w.cells.values[-2])
    first = n.cells.values[3][0]
    assert first.startswith("<b>◆\xa0ready since: ") and "recently-ready-first:" in first
    assert n.cells.fill.color[3][0] == HIGHLIGHT
    for col, width in zip(n.cells.values[:3], n.columnwidth[:3]):
        assert all(deletion.column_px([line], 11) <= width + 0.01 for v in col for line in v.split("<br>"))
