"""Views fit their words in the figure in every language, and show a snapshot's counts at its cycle 0.

Plotly neither wraps nor shrinks titles and annotations: a line wider than the figure is cut
at its edge (the Counts view's end label read "succeeded = fa" in Russian, the zh-CN
slow-start subtitle lost "，同" before its next line). The views measure their words
(``text_px``, DejaVu Sans widths as Chromium draws them) and fit them to the narrowest figure
they are drawn in: :data:`FIGURE_PX`, or :data:`NARROW_FIGURE_PX` beside another view.
"""

from __future__ import annotations

import gettext
import re

import pytest
import viz_scenarios as S

from k8sjobs import example_snapshot, i18n, load_snapshot, set_language, viz
from k8sjobs.trace import Run
from k8sjobs.viz import counts
from k8sjobs.viz._common import (
    FIGURE_PX,
    NARROW_FIGURE_PX,
    figure_title,
    text_px,
    title_room,
    title_top,
    wrap_px,
)

PLACEHOLDER = re.compile(r"(\{[^{}]*\}|%\{[^{}]*\}|<[^<>]*>)")


class LongWords(gettext.NullTranslations):
    """A language whose words are half as wide again as Russian's widest (every Latin letter
    becomes "ж"), placeholders and tags kept: what fits here fits any real translation."""

    @staticmethod
    def _long(message: str) -> str:
        parts = PLACEHOLDER.split(message)
        return "".join(p if PLACEHOLDER.fullmatch(p) else re.sub(r"[A-Za-z]", "ж", p) for p in parts)

    def gettext(self, message):
        return self._long(message)

    def ngettext(self, singular, plural, n):
        return self._long(singular if n == 1 else plural)

    def pgettext(self, context, message):
        return self._long(message)

    def npgettext(self, context, singular, plural, n):
        return self._long(singular if n == 1 else plural)


LANGS = [*i18n.LANGUAGES, "long"]


@pytest.fixture(params=LANGS)
def language(request):
    if request.param == "long":
        previous = i18n.use_translations(LongWords(), "long")
        yield "long"
        i18n.use_translations(*previous)
    else:
        set_language(request.param)
        yield request.param
    set_language("en")


def _snapshot_run(name: str) -> Run:
    return Run(load_snapshot(example_snapshot(name)).assuming(90))


def _counts_cases():
    yield S.backoff().trace, 9          # four series at 0: the longest shared label
    yield S.scale_down().trace, 4       # three at 0, two at 6
    yield S.elastic().trace, len(S.elastic().trace.cycles)
    yield S.quota().trace, 3
    yield _snapshot_run("indexed").trace, 0


def _end_labels(fig):
    return [a for a in fig.layout.annotations if a.xref == "x" and a.yref == "y" and a.xanchor == "left"]


@pytest.mark.parametrize("width, narrow", [(FIGURE_PX, False), (NARROW_FIGURE_PX, True)])
def test_the_counts_views_end_labels_end_inside_the_plot_in_every_language(language, width, narrow):
    for trace, k in _counts_cases():
        fig = viz.figure("counts", trace, k, narrow=narrow)
        lo, hi = fig.layout.xaxis.range
        plot_px = width - fig.layout.margin.l - fig.layout.margin.r
        labels = _end_labels(fig)
        assert labels, "the current cycle's values are labelled"
        for a in labels:
            left = (a.x - lo) / (hi - lo) * plot_px + a.xshift
            widest = max(text_px(line, a.font.size) for line in a.text.split("<br>"))
            # The axis range covers the label: it ends inside the plot area, so nothing is cut.
            assert left + widest <= plot_px, (language, trace.job_name, k, a.text, left + widest, plot_px)


def test_the_counts_views_end_labels_do_not_overlap(language):
    for trace, k in _counts_cases():
        fig = viz.figure("counts", trace, k, narrow=True)
        lo, hi = fig.layout.yaxis.range
        px = counts.plot_height() / (hi - lo)
        boxes = sorted(((a.y - lo) * px + a.yshift, a.text.count("<br>") + 1) for a in _end_labels(fig))
        for (y1, n1), (y2, n2) in zip(boxes, boxes[1:]):
            assert y2 - y1 >= (n1 + n2) * counts.LABEL_LINE_PX / 2 - 0.5, (trace.job_name, k, boxes)
        assert all(y - n * counts.LABEL_LINE_PX / 2 >= -0.5 for y, n in boxes)


def test_a_label_of_four_series_breaks_into_lines_in_a_half_width_figure():
    set_language("en")
    fig = viz.figure("counts", S.backoff().trace, 9, narrow=True)
    shared = [a.text for a in _end_labels(fig) if a.y == 0]
    assert shared == ["active = ready =<br>succeeded =<br>terminating 0"]
    wide = viz.figure("counts", S.backoff().trace, 9)
    assert [a.text for a in _end_labels(wide) if a.y == 0] == ["active = ready = succeeded =<br>terminating 0"]


@pytest.mark.parametrize("narrow", [False, True])
def test_every_views_title_and_subtitle_lines_fit_the_figure_in_every_language(language, narrow):
    width = NARROW_FIGURE_PX if narrow else FIGURE_PX
    room = title_room(width)
    for name, make in S.ALL.items():
        trace = make().trace
        for view in viz.VIEWS:
            for k in (1, len(trace.cycles)):
                fig = viz.figure(view, trace, k, narrow=narrow)
                main = fig.layout.title.text
                sub = fig.layout.title.subtitle.text or ""
                for text, size in ((main, 15), (sub, 12)):
                    for line in filter(None, text.split("<br>")):
                        # A line wider than the room is one word that cannot break.
                        assert text_px(line, size) <= room or len(wrap_px(line, 1, size)) == 1, \
                            (language, name, view, k, line, text_px(line, size), room)
                # The top margin holds every line, with room left for the current-cycle label.
                assert fig.layout.margin.t >= title_top(main, sub), (name, view, k)


def test_the_zh_cn_slow_start_subtitle_wraps_instead_of_being_cut():
    set_language("zh-CN")
    try:
        fig = viz.figure("slow_start", S.quota().trace, 2)
        lines = fig.layout.title.subtitle.text.split("<br>")
        assert len(lines) == 2
        assert all(text_px(line, 12) <= title_room(FIGURE_PX) for line in lines), lines
        # Broken between two Chinese characters: no space added when the lines are read as one.
        assert "同步设定 15，同步后 0" in figure_title(fig)
    finally:
        set_language("en")


def test_text_px_measures_dejavu_sans_as_chromium_draws_it():
    # Widths Chromium gave at 12 px (SVG getComputedTextLength, DejaVu Sans; the CJK fallback font).
    for text, chromium in (("succeeded = failed 0", 126.83), ("успешно = неуспешно 0", 154.56),
                           ("同步设定 15，同步后 0", 126.55), ("Job status counts of job.batch/nightly-report", 264.41)):
        assert text_px(text, 12) == pytest.approx(chromium, rel=0.01), text
    assert text_px("<b>cycle 4</b>", 11, bold=True) == pytest.approx(text_px("cycle 4", 11) * 1.1)


# ------------------------------------------------------------------ a snapshot's cycle 0


def test_the_counts_view_shows_the_snapshots_counts_at_its_cycle_0():
    # Lesson 15's dashboard from a snapshot opens at cycle 0: the snapshot's status is what
    # the learner came to look at, not an empty plot.
    set_language("en")
    trace = _snapshot_run("indexed").trace
    job = trace.state_at(0).job
    fig = viz.figure("counts", trace, 0)
    by_name = {tr.name: tr for tr in fig.data}
    for field in ("active", "ready", "succeeded", "failed", "terminating"):
        tr = by_name[field]
        assert list(tr.x) == [trace.start_t] and list(tr.y) == [getattr(job.status, field)], field
    assert list(by_name["parallelism (asked)"].y)[0] == job.spec.parallelism == 5
    # The current point is highlighted and labelled, at the snapshot's time.
    assert {a.text for a in _end_labels(fig)} >= {"active = ready 3", "succeeded 2", "failed 1"}
    sub = figure_title(fig).split("\n")[1]
    assert sub.startswith("now: active 3, equal to the 3 wanted (parallelism 5, completions 5 - succeeded 2)")
    text = viz.text("counts", trace, 0)
    row = text.splitlines()[4].split()
    assert row[:7] == ["0", "62", "3", "3", "2", "1", "0"], text
    # Then the first cycle continues from it.
    one = viz.figure("counts", trace, 1)
    assert list({tr.name: tr for tr in one.data}["succeeded"].x) == [62, trace.cycle(1).t]


def test_a_run_from_a_manifest_still_shows_nothing_before_its_first_cycle():
    trace = S.indexed().trace
    fig = viz.figure("counts", trace, 0)
    # every trace is there (its legend entry shows) with one empty point: nothing drawn
    assert all(list(tr.x) == [None] and list(tr.y) == [None] for tr in fig.data)
    assert "no cycle has run yet" in figure_title(fig)
    assert "(no cycles yet)" in viz.text("counts", trace, 0)


def test_a_label_breaks_only_between_series_names_in_every_language(language):
    # zh-CN once read "就绪 = 成功 = 失<br>败 = 正在终止 0": Chinese may break between any two
    # characters, but a series name is one word.
    names = {counts.series_name(marked) for _field, marked, *_rest in counts.SERIES}
    for trace, k in _counts_cases():
        for a in _end_labels(viz.figure("counts", trace, k, narrow=True)):
            # Every break comes right after " =" (the next name starts the next line).
            assert all(line.endswith(" =") for line in a.text.split("<br>")[:-1]), (language, a.text)
            words = a.text.replace(" =<br>", " = ").split(" = ")
            words[-1] = words[-1].rsplit(" ", 1)[0]  # the value
            assert set(words) <= names, (language, a.text)
