"""Fixed-width text in Chinese: columns are padded and lines wrapped by display width, not len()."""

from __future__ import annotations

import pytest
from i18n_support import runs

from k8sjobs import i18n
from k8sjobs.i18n import display_width, ljust, rjust, wrap_width
from k8sjobs.trace.text import cycle_header, cycle_line
from k8sjobs.viz._common import table, wrap


@pytest.mark.parametrize(("text", "width"), [
    ("CYCLE", 5),
    ("周期", 4),
    ("時間(s)", 7),
    ("活跃 Pod：3 个", 14),
    ("（t=3 s）", 9),
    ("e\u0301t\u00e9", 3),        # a combining accent takes no column
    ("ВЫПОЛНЕНО", 9),             # Cyrillic is narrow
    ("", 0),
])
def test_display_width_counts_wide_characters_twice(text, width):
    assert display_width(text) == width


def test_ljust_and_rjust_pad_to_display_columns():
    assert ljust("周期", 6) == "周期  "
    assert rjust("周期", 6) == "  周期"
    assert rjust("CYCLE", 6) == " CYCLE"
    assert ljust("失败次数", 3) == "失败次数"  # never cut


def _column_starts(line: str) -> list[int]:
    """Display column where each cell of a table line starts (cells are two or more spaces apart)."""
    starts, col, prev_space_run = [], 0, 2
    for ch in line:
        if ch != " " and prev_space_run >= 2:
            starts.append(col)
        prev_space_run = prev_space_run + 1 if ch == " " else 0
        col += display_width(ch)
    return starts


def test_a_table_with_chinese_titles_and_cells_lines_up_in_a_monospace_font():
    text = table(["周期", "时间(s)", "结论", "POD"],
                 [(1, "0", "删除", "pi-abc"), (12, "31.5", "keep", "pi-defgh"), (3, "2", "保留", "x")],
                 right=(0, 1))
    lines = text.splitlines()
    # Left-aligned columns start at the same display column on every line; right-aligned ones end there.
    starts = [_column_starts(line) for line in lines]
    assert all(s[2:] == starts[0][2:] for s in starts), text
    ends = {display_width(line.lstrip().split("  ")[0]) + display_width(line) - display_width(line.lstrip())
            for line in lines}
    assert len(ends) == 1, text


def test_the_trace_header_lines_up_with_its_numbers_in_chinese():
    cycle = runs()["backoff"].trace.cycles[0]
    english = (cycle_header(), cycle_line(cycle))
    i18n.set_language("zh-CN")
    try:
        header, line = cycle_header(), cycle_line(cycle)
    finally:
        i18n.set_language("en")
    assert "周期" in header
    # Each right-aligned title ends at the display column where its number ends, as in English.

    def ends(text: str) -> list[int]:
        out, col = [], 0
        for i, ch in enumerate(text):
            col += display_width(ch)
            if ch != " " and (i + 1 == len(text) or text[i + 1] == " "):
                out.append(col)
        return out

    assert ends(header)[:7] == ends(line)[:7] == ends(english[0])[:7] == ends(english[1])[:7]


def test_chinese_text_wraps_between_characters_within_the_width_and_never_before_a_comma():
    text = ("{job} 在第 12 个周期（t=31.5 s）的删除顺序：3 个活跃，需要 1 个：从顶部起删除 2 个 Pod。"
            "规则按尝试的先后从左到右排列；◆ 标出把某个 Pod 排在下一个之前的规则")
    lines = wrap_width(text, 30)
    assert len(lines) > 2
    assert all(display_width(line) <= 30 for line in lines), lines
    assert not any(line[0] in "，。；：）" for line in lines), lines
    assert not any(line[-1] in "（“" for line in lines), lines
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def test_english_text_wraps_at_spaces_exactly_as_before():
    text = "3 active, want 1: 2 pods deleted from the top. Rules left to right in the order they are tried"
    assert wrap(text, 30) == ["3 active, want 1: 2 pods", "deleted from the top. Rules", "left to right in the order",
                              "they are tried"]
    assert wrap_width(text, 30) == wrap(text, 30)
    assert wrap("a verylongwordthatdoesnotfit b", 10) == ["a", "verylongwordthatdoesnotfit", "b"]
