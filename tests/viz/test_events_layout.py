"""The Events table laid out for its width: every word shows, whole, in a full-width figure and in a
half-width pane (measured in Chromium with tools/views_in_chromium.py; here its rules)."""

from __future__ import annotations

import pytest
import viz_scenarios as S

from k8sjobs import viz
from k8sjobs.viz import events
from k8sjobs.viz._common import FIGURE_PX, NARROW_FIGURE_PX


def _lines(cell: str) -> list[str]:
    return cell.replace("<b>", "").replace("</b>", "").split("<br>")


def _fits(col: list[str], width: float) -> bool:
    return all(len(line) * events.MONO_EM * events.CELL_FONT + events.CELL_PAD_PX <= width + 0.01
               for cell in col for line in _lines(cell))


@pytest.mark.parametrize("scenario", ["backoff_cap", "scale_down", "quota"])
def test_at_full_width_the_four_short_columns_fit_their_widest_cell_and_the_message_wraps_to_the_rest(scenario):
    trace = S.ALL[scenario]().trace
    fig = viz.figure("events", trace, len(trace.cycles))
    table = fig.data[0]
    widths = list(table.columnwidth)
    assert len(widths) == 5 and sum(widths) == pytest.approx(FIGURE_PX - 20)
    for col, width in zip(table.cells.values, widths):
        assert _fits(col, width)
    # "job-controller" (14 characters) was cut to "job-controll" by a fixed 110 px column
    assert widths[3] >= 14 * events.MONO_EM * events.CELL_FONT + events.CELL_PAD_PX


def test_in_a_half_width_pane_type_stands_over_reason_and_from_over_message_all_within_their_columns():
    trace = S.ALL["backoff_cap"]().trace
    fig = viz.figure("events", trace, len(trace.cycles), narrow=True)
    table = fig.data[0]
    assert list(table.header.values) == ["<b>Type</b><br><b>Reason</b>", "<b>Age</b>", "<b>From</b><br><b>Message</b>"]
    assert sum(table.columnwidth) == pytest.approx(NARROW_FIGURE_PX - 20)
    for col, width in zip(table.cells.values, table.columnwidth):
        assert _fits(col, width)
    last = table.cells.values[0][-1], table.cells.values[2][-1]
    assert last[0] == "<b>Warning</b><br>BackoffLimitExceeded"
    assert _lines(last[1])[0] == "job-controller" and "".join(_lines(last[1])[1:]).replace(" ", "") == \
        "Jobhasreachedthespecifiedbackofflimit"


def test_the_figure_is_as_tall_as_its_rows_lines_up_to_its_cap():
    trace = S.ALL["backoff_cap"]().trace
    for narrow in (False, True):
        fig = viz.figure("events", trace, len(trace.cycles), narrow=narrow)
        table = fig.data[0]
        rows = len(table.cells.values[0])
        extra = sum(max(col[i].count("<br>") for col in table.cells.values) for i in range(rows))
        head = max(h.count("<br>") for h in table.header.values)
        want = 23 * rows + 19 * extra + 28 + 19 * head
        assert fig.layout.height - fig.layout.margin.t - fig.layout.margin.b >= want - 10, narrow
