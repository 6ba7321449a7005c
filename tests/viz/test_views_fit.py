"""Every view reads right and fits where the dashboard shows it, in every language: titles that
are English at cycle 0, box text inside its box, labels inside the figure, table cells one line.

Widths are measured with :func:`k8sjobs.viz._common.text_px` (DejaVu Sans as Chromium draws it;
a Chinese character is one em, as wide as two Latin letters)."""

from __future__ import annotations

import re

import pytest
import viz_scenarios as S

from k8sjobs import i18n, viz
from k8sjobs.viz._common import FIGURE_PX, NARROW_FIGURE_PX, figure_title, join_lines, text_px

LANGUAGES = ("en", "zh-CN", "ru")


@pytest.fixture(params=LANGUAGES)
def language(request):
    """Each test runs once per language; English again afterwards."""
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def test_english_titles_at_cycle_0_say_up_to_after_and_at_a_moment_not_before_the_first_cycle():
    trace = S.backoff().trace
    for view in viz.VIEWS:
        main = figure_title(viz.figure(view, trace, 0)).splitlines()[0]
        assert not re.search(r"\b(up to|after|at) before\b", main), f"{view}: {main!r}"
        assert viz.text(view, trace, 0).splitlines()[0] == main


def _loop_cases():
    for name in ("quota", "backoff", "scale_down", "lag", "per_index"):
        trace = S.ALL[name]().trace
        n = len(trace.cycles)
        for k in sorted({0, 1, 2, 3, 4, n // 3, n // 2, n - 1, n}):
            yield name, trace, k


def _to_px(fig, width_px):
    """Canvas -> pixel converters of a figure drawn ``width_px`` wide (x from the plot's left, y from its bottom)."""
    lay = fig.layout
    (x0, x1), (y0, y1) = lay.xaxis.range, lay.yaxis.range
    pw = width_px - lay.margin.l - lay.margin.r
    ph = lay.height - lay.margin.t - lay.margin.b
    return (lambda x: (x - x0) / (x1 - x0) * pw), (lambda y: (y - y0) / (y1 - y0) * ph)


def _text_box(note, to_x, to_y, line_px):
    """(left, right, bottom, top) in px of an annotation's text, from its anchor and its lines."""
    lines = note.text.split("<br>")
    w = max(text_px(line, note.font.size, bold="<b>" in line) for line in lines)
    h = len(lines) * line_px
    x, y = to_x(note.x) + (note.xshift or 0), to_y(note.y) + (note.yshift or 0)
    left = {"left": x, "right": x - w}.get(note.xanchor, x - w / 2)
    bottom = {"bottom": y, "top": y - h}.get(note.yanchor, y - h / 2)
    return left, left + w, bottom, bottom + h


@pytest.mark.parametrize("narrow", [False, True])
def test_the_control_loops_box_text_stays_inside_its_box_and_arrow_labels_outside_every_box(language, narrow):
    from k8sjobs.viz import control_loop as cl

    width = NARROW_FIGURE_PX if narrow else FIGURE_PX
    for name, trace, k in _loop_cases():
        fig = viz.figure("control_loop", trace, k, narrow=narrow)
        to_x, to_y = _to_px(fig, width)
        boxes = [(to_x(s.x0), to_x(s.x1), to_y(s.y0), to_y(s.y1)) for s in fig.layout.shapes]
        assert len(boxes) == 5
        texts = [a for a in fig.layout.annotations if a.text and not a.showarrow and a.font.size == cl.BOX_SIZE]
        labels = [a for a in fig.layout.annotations if a.text and not a.showarrow and a.font.size == cl.FLOW_SIZE]
        assert len(texts) == 5 and len(labels) == 5
        for note, (bx0, bx1, by0, by1) in zip(texts, boxes, strict=True):
            left, right, bottom, top = _text_box(note, to_x, to_y, cl.LINE_PX)
            where = (language, name, k, note.text)
            assert bx0 < left and right < bx1, (*where, left, right, bx0, bx1)
            assert by0 < bottom and top < by1, (*where, bottom, top, by0, by1)
        for note in labels:
            left, right, bottom, top = _text_box(note, to_x, to_y, cl.FLOW_LINE_PX)
            for bx0, bx1, by0, by1 in boxes:
                apart = right <= bx0 or left >= bx1 or top <= by0 or bottom >= by1
                assert apart, (language, name, k, note.text, (left, right, bottom, top), (bx0, bx1, by0, by1))
            assert bottom >= 0 and top <= to_y(fig.layout.yaxis.range[1]), (language, note.text)


@pytest.mark.parametrize("narrow", [False, True])
def test_the_ownership_views_job_label_is_not_cut_at_the_plots_left_edge(language, narrow):
    width = NARROW_FIGURE_PX if narrow else FIGURE_PX
    for name in ("scale_down", "quota", "backoff", "indexed"):
        trace = S.ALL[name]().trace
        for k in (0, 1, len(trace.cycles)):
            fig = viz.figure("ownership", trace, k, narrow=narrow)
            job = next(tr for tr in fig.data if tr.name == "Job")
            to_x, _to_y = _to_px(fig, width)
            lines = job.text[0].split("<br>")
            half = max(text_px(line, 12, bold="<b>" in line) for line in lines) / 2
            # Centred under the Job; plotly clips marker text at the plot's edge.
            assert to_x(job.x[0]) - half >= 0, (language, name, k, lines, to_x(job.x[0]) - half)
            assert all(line.strip() for line in lines)


@pytest.mark.parametrize("narrow", [False, True])
def test_the_backoff_views_labels_end_inside_the_plot_and_bar_texts_inside_their_bars(language, narrow):
    from k8sjobs.viz import backoff as bo

    width = NARROW_FIGURE_PX if narrow else FIGURE_PX
    for name in ("backoff", "backoff_cap", "per_index"):
        trace = S.ALL[name]().trace
        n = len(trace.cycles)
        for k in sorted({1, n // 3, n // 2, 2 * n // 3, n}):
            fig = viz.figure("backoff", trace, k, narrow=narrow)
            lay = fig.layout
            lo, hi = lay.xaxis.range
            # The lane names take the left of the figure (plotly's automargin), then the plot. In a
            # 380 px pane the ru 'сбой 1: job-pod-failure-backoff-bkspk' took 235 px and left the plot
            # 104: 67 labels were cut, the x axis's title too (measured in Chromium).
            names = max(text_px(line, 12) for c in lay.yaxis.categoryarray for line in c.split("<br>"))
            assert names <= 0.4 * width, (language, name, k, names)
            plot = width - lay.margin.l - lay.margin.r - names - 6
            xtitle = lay.xaxis.title.text.split("<br>")
            assert max(text_px(line) for line in xtitle) <= plot, (language, name, k, xtitle, plot)
            assert join_lines(xtitle) == bo._("time since the Job was created (s)")

            def px(x, lo=lo, hi=hi, plot=plot):
                return (x - lo) / (hi - lo) * plot

            for tr in fig.data:
                if tr.type == "scatter" and tr.mode == "markers+text":
                    for x, words in zip(tr.x, tr.text or (), strict=False):
                        if words:
                            end = px(x) + 10 + max(text_px(line, 11) for line in words.split("<br>"))
                            assert end <= plot + 1, (language, name, k, words, round(end), round(plot))
                if tr.type == "bar":
                    for base, dx, words in zip(tr.base, tr.x, tr.text, strict=True):
                        if words:
                            # Plotly shrinks text that does not fit inside its bar: to no less than 60%.
                            seen = px(min(base + dx, hi)) - px(base)
                            assert 0.6 * text_px(words, 11) + 10 <= seen + 0.5, (language, name, k, words, seen)
            for a in lay.annotations:
                if a.xref == "x" and a.text and a.showarrow:
                    w = text_px(a.text, a.font.size)
                    right = px(a.x) + {"right": 0, "left": w}.get(a.xanchor, w / 2)
                    assert right <= plot + lay.margin.r, (language, name, k, a.text, right)


def test_the_deletion_tables_values_and_column_titles_do_not_wrap_and_nothing_is_cut(language):
    # Plotly wraps a table cell only at ASCII spaces, and cuts a piece wider than its column.
    drawn = FIGURE_PX - 20  # the figure's margins
    for name in ("scale_down", "mixed_scale_down", "elastic"):
        trace = S.ALL[name]().trace
        fig = viz.figure("deletion", trace, len(trace.cycles))
        (tab,) = fig.data
        widths = [w * min(1.0, drawn / sum(tab.columnwidth)) for w in tab.columnwidth]
        last = len(widths) - 1
        for i, w in enumerate(widths):
            head = tab.header.values[i]
            if i < last:
                # A column title stays on one line ("готов с" broke after "готов").
                assert " " not in head, (language, name, head)
            for text, size in [(head, 12)] + [(c, 11) for c in tab.cells.values[i]]:
                # A value with its unit stays on one line ("3.512 с" broke before "с").
                assert i == last or not re.search(r"\d [^\s\d]+$", text.replace("</b>", "")), (language, text)
                bold = "<b>" in text
                for line in text.split("<br>"):
                    for piece in line.split(" "):
                        px = text_px(piece.replace("\u00a0", " "), size, bold=bold)
                        assert px + 8 <= w + 0.5, (language, name, i, piece, round(px), round(w))


@pytest.mark.parametrize("narrow", [False, True])
def test_the_slow_start_views_labels_end_inside_the_plot_with_every_word(language, narrow):
    # At 380 px the labels right of the bars ran past the figure (ru 'ожидаемых созданий: 18  ◀
    # неудачный пакет: ...' by 323 px); at 800 px the ru one by 6 px.
    from k8sjobs.viz import slow_start as ss

    width = NARROW_FIGURE_PX if narrow else FIGURE_PX
    for name in ("quota", "backoff", "indexed", "lag", "scale_down"):
        trace = S.ALL[name]().trace
        n = len(trace.cycles)
        for k in sorted({1, n // 3, n // 2, n}):
            fig = viz.figure("slow_start", trace, k, narrow=narrow)
            lay = fig.layout
            names = list(lay.yaxis.categoryarray)
            # The batch names take the left of the figure (plotly's automargin), then the plot.
            widest = max(text_px(line, 12) for n_ in names for line in n_.split("<br>"))
            assert widest <= width / 3, (language, name, k, names)
            plot = width - lay.margin.l - lay.margin.r - widest - 6
            lo, hi = lay.xaxis.range
            plot_h = lay.height - lay.margin.t - lay.margin.b
            row = plot_h / len(names)
            lad = ss.ladder(ss._pick(trace, k))
            for b, note in zip(lad.batches, lay.annotations, strict=False):
                lines = note.text.split("<br>")
                end = (note.x - lo) / (hi - lo) * plot + max(text_px(line, 11) for line in lines) + 4
                assert end <= plot + 1, (language, name, k, note.text, round(end), round(plot))
                assert len(lines) * 15 <= row, (language, name, k, note.text, row)
                # Every word is drawn: the label reads as the one-line sentence.
                assert str(b.expect_add_after) in join_lines(lines)
                assert join_lines(lines).startswith(ss._("creations expected: {n}").format(n=b.expect_add_after))
            for n_, b in zip(names, lad.batches, strict=False):
                # Wrapped at a space or between two Chinese characters, nothing else.
                whole = ss._("batch {batch} (size {size})").format(batch=b.number, size=b.size)
                assert n_.replace("<br>", "").replace(" ", "") == whole.replace(" ", ""), (n_, whole)


@pytest.mark.parametrize("narrow", [False, True])
def test_the_backoff_views_job_failed_words_sit_between_the_tick_labels_and_the_axis_title(language, narrow):
    # ru "Job завершился неуспешно" was written over "время с момента создания Job (с)" (by 72 to
    # 159 px across, measured in Chromium at 800 px), en "Job failed" too where it fell mid-axis.
    from k8sjobs.viz import backoff as bo

    for name in ("backoff", "backoff_cap", "per_index"):
        trace = S.ALL[name]().trace
        fig = viz.figure("backoff", trace, len(trace.cycles), narrow=narrow)
        lay = fig.layout
        (note,) = [a for a in lay.annotations if a.xref == "x" and a.showarrow]
        assert note.text == bo._("Job failed")
        line = 1.3 * note.font.size  # plotly's line height
        top, bottom = note.ay - line / 2, note.ay + line / 2  # pixels below the plot
        assert top >= bo.TICKS_PX, (language, name, top)
        title_top = bo.TICKS_PX + (lay.xaxis.title.standoff or 0)
        assert bottom + 2 <= title_top, (language, name, bottom, title_top)
        # The figure grew by the room it took, so the plot keeps its height.
        wide = viz.figure("backoff", trace, len(trace.cycles) - 1, narrow=narrow)
        if not any(a.xref == "x" and a.showarrow for a in wide.layout.annotations):
            assert lay.margin.b - wide.layout.margin.b >= bo.FAILED_ROOM


@pytest.mark.parametrize("narrow", [False, True])
def test_the_ownership_views_pod_and_node_labels_end_before_the_next_column_and_the_titles_do_not_meet(
        language, narrow):
    # At 380 px pod names ran over the nodes and out of the figure ('job-pod-failure-backoff-v2nvs'
    # by 12 px), node labels were cut at the plot's edge, the column titles overlapped.
    from k8sjobs.viz import ownership as ow

    width = NARROW_FIGURE_PX if narrow else FIGURE_PX
    for name in ("scale_down", "quota", "backoff", "indexed", "mixed_scale_down"):
        trace = S.ALL[name]().trace
        for k in (1, len(trace.cycles) // 2, len(trace.cycles)):
            fig = viz.figure("ownership", trace, k, narrow=narrow)
            lay = fig.layout
            plot_w = width - lay.margin.l - lay.margin.r
            assert list(lay.xaxis.range) == [0, plot_w]  # x in pixels of the plot
            by = {tr.name: tr for tr in fig.data}
            job = by["Job"]
            job_right = job.x[0] + max(text_px(line, 12, bold="<b>" in line)
                                       for line in job.text[0].split("<br>")) / 2
            runs_on = next(tr for tr in fig.data if tr.mode == "lines" and tr.line.dash == "dot")
            edge_starts = {x for x in runs_on.x[0::3] if x is not None}
            node = by["Node"]
            for tr in fig.data:
                if tr.mode != "markers+text" or tr.name in ("Job", "Node"):
                    continue
                size = tr.textfont.size
                for x, label, hover in zip(tr.x, tr.text, tr.hovertext, strict=True):
                    where = (language, name, k, label)
                    assert x - 8 >= job_right, (*where, x, job_right)  # right of the Job's label
                    end = x + ow.POD_TEXT_PX + text_px(label, size)
                    assert all(end <= s for s in edge_starts), (*where, end, edge_starts)
                    assert end <= min(node.x) - ow.NODE_TEXT_PX, (*where, end)
                    # A shortened name is the end of the whole one, which the hover keeps.
                    pod = label.split("] ")[-1]
                    assert pod.startswith("…-") and pod[1:] in hover or hover.startswith(pod), (*where, hover)
            for x, words in zip(node.x, node.text, strict=True):
                end = x + ow.NODE_TEXT_PX + max(text_px(w, 12, bold="<b>" in w) for w in words.split("<br>"))
                assert end <= plot_w, (language, name, k, words, end, plot_w)
            heads = [a for a in lay.annotations if a.yref == "paper" and a.font.size == ow.HEAD_SIZE]
            spans = []
            for a in heads:
                w = max(text_px(line, ow.HEAD_SIZE, bold=True) for line in a.text.split("<br>"))
                left = a.x - w / 2 if a.xanchor == "center" else a.x
                spans.append((left, left + w, a.text))
            spans.sort()
            assert spans[0][0] >= 0 and spans[-1][1] <= plot_w + lay.margin.r, (language, name, k, spans)
            for (_l0, r0, t0), (l1, _r1, t1) in zip(spans, spans[1:]):
                assert r0 + 4 <= l1, (language, name, k, t0, t1)


def _plot_px(fig, width):
    """The plot's width as plotly lays it out: the margins, and an automargined y axis's widest
    name (12 px, plus its 6 px tick gap) and title (a 12 px line and its standoff, 24 px)."""
    lay = fig.layout
    plot = width - lay.margin.l - lay.margin.r
    # A view that made the names' room in its margin (the timeline: meta names_px) gets no more:
    # plotly pushes a margin only to what the names need (measured in Chromium: margin.l 110 stays 110).
    if lay.yaxis.automargin and "names_px" not in (lay.meta or {}):
        names = lay.yaxis.ticktext or lay.yaxis.categoryarray or ()
        plot -= max((text_px(line) for n in names for line in str(n).split("<br>")), default=0) + 6
        if lay.yaxis.title.text:
            plot -= 24 + 19 * lay.yaxis.title.text.count("<br>")
    return plot


@pytest.mark.parametrize("narrow", [False, True])
@pytest.mark.parametrize("view", ["timeline", "counts", "slow_start", "backoff", "ownership", "expectations"])
def test_a_legends_entries_fit_their_columns_and_the_figure_grows_by_every_row_plotly_draws(language, view, narrow):
    # Plotly wraps a horizontal legend where its entries reach the *plot's* width (each entry is
    # 40 px of symbol, then its entrywidth, then a 5 px gap), and its rows take the plot's height.
    # The ru counts view at 800 px drew nine entries in one column and its plot shrank from 280
    # to 139 px (measured in Chromium), its end labels on top of each other; in a 380 px pane the
    # ru entry "нужно активных: min(parallelism, осталось completions)" was cut at "осталс".
    width = NARROW_FIGURE_PX if narrow else FIGURE_PX
    for name in ("quota", "per_index", "backoff"):
        trace = S.ALL[name]().trace
        wide = viz.figure(view, trace, len(trace.cycles))
        fig = viz.figure(view, trace, len(trace.cycles), narrow=narrow)
        lg = fig.layout.legend
        if lg.orientation != "h":
            continue
        where = (language, view, name)
        assert lg.entrywidthmode == "pixels" and lg.xref == "container", where
        plot = _plot_px(fig, width)
        per_row = max(1, int((plot + 5) // (40 + lg.entrywidth + 5)))
        shown = [tr for tr in fig.data if tr.showlegend is not False and tr.name]
        shown.sort(key=lambda tr: tr.legendrank if tr.legendrank is not None else 1000)
        for tr, before in zip(fig.data, wide.data, strict=True):
            if tr.name:
                # The words are all there, wrapped where the whole did not fit.
                # (join_lines cannot tell where a break between Chinese and Latin had a space.)
                assert tr.name.replace("<br>", "").replace(" ", "") == before.name.replace("<br>", "").replace(" ", ""), \
                    where
        for tr in shown:
            for line in tr.name.split("<br>"):
                assert text_px(line, 12) <= lg.entrywidth, (*where, line, lg.entrywidth)
        lines = [len(tr.name.split("<br>")) for tr in shown]
        rows = [max(lines[i:i + per_row]) for i in range(0, len(lines), per_row)]
        gap = 10 if any(tr.legendgroup for tr in fig.data) else 0  # plotly's tracegroupgap
        legend_px = 19 * sum(rows) + gap * (len(rows) - 1)
        # The figure grew by every row past the first (its bottom margin holds one), so the plot
        # keeps the height it has without a legend.
        assert fig.layout.meta.get("legend_px", 0) >= legend_px - 19, (*where, per_row, rows, fig.layout.meta)


@pytest.mark.parametrize("narrow", [False, True])
def test_the_timelines_axis_titles_fit_beside_and_under_the_plot_and_pod_names_leave_it_room(language, narrow):
    # The y axis's title is centred on the plot's height and plotly does not wrap it: zh-CN
    # '按完成索引排列的 Pod' and ru 'поды по индексу завершения' ran into the subtitle above a 6-pod
    # plot (by 10-15 px, measured in Chromium); in a 380 px pane the per-index Job's pod names
    # ('job-backoff-limit-per-index-example-0-v2nvs [0]') left the plot 64 px and the x axis's
    # title was cut by up to 74 px.
    width = NARROW_FIGURE_PX if narrow else FIGURE_PX
    for name in ("backoff", "per_index", "indexed", "scale_down", "quota"):
        trace = S.ALL[name]().trace
        for k in (1, len(trace.cycles)):
            fig = viz.figure("timeline", trace, k, narrow=narrow)
            lay = fig.layout
            where = (language, name, k)
            plot_h = (lay.height - lay.margin.t - lay.margin.b) * (lay.yaxis.domain[1] - lay.yaxis.domain[0])
            ytitle = lay.yaxis.title.text.split("<br>")
            assert max(text_px(line) for line in ytitle) <= plot_h, (*where, ytitle, plot_h)
            names = max(text_px(t) for t in lay.yaxis.ticktext)
            assert names <= 0.4 * width, (*where, names)
            # the left margin holds the room for the run's widest names and the title (meta names_px)
            assert lay.margin.l >= 10 + names + 6 + 24 + 19 * (len(ytitle) - 1), (*where, lay.margin.l, names)
            plot_w = width - lay.margin.l - lay.margin.r
            xtitle = lay.xaxis.title.text.split("<br>")
            assert max(text_px(line) for line in xtitle) <= plot_w, (*where, xtitle, plot_w)
            # A shortened name is the end of the whole one, which the hover keeps.
            for tick, pod in zip(lay.yaxis.ticktext, lay.yaxis.tickvals, strict=True):
                bare = tick.split(" [")[0]
                assert bare == pod or bare.startswith("…-") and pod.endswith(bare[1:]), (*where, tick, pod)


def test_the_ownership_views_nodes_stand_two_label_lines_apart_above_60_pods(language):
    # Ten nodes beside 100 grouped pods stood 14 px apart and their two-line labels ('node-1',
    # '10 pods') overlapped by up to 55 px across (measured in Chromium at 800 and 380 px).
    from k8sjobs.trace import Run
    from k8sjobs.viz import ownership as ow

    runs = {"big": S.big().trace, "big20": Run(S.big_manifest(200, 100), seed=0, nodes=20).trace}
    for name, trace in runs.items():
        for k in (1, 6, 11, len(trace.cycles)):
            if len(trace.state_at(k).pods) <= 60:
                continue
            for narrow in (False, True):
                fig = viz.figure("ownership", trace, k, narrow=narrow)
                lay = fig.layout
                (low, top) = lay.yaxis.range
                px = (lay.height - lay.margin.t - lay.margin.b) / (top - low)
                node = next(tr for tr in fig.data if tr.name == "Node")
                ys = sorted(node.y)
                lines = max(t.count("<br>") + 1 for t in node.text)
                for a, b in zip(ys, ys[1:]):
                    assert (b - a) * px >= lines * 15.6, (language, name, k, narrow, (b - a) * px)
                # The groups' labels start right of the Job's label (ru '29 выполняющихся подов' put
                # them over it at 380 px; a narrow column's groups say their count without "pods").
                job = next(tr for tr in fig.data if tr.name == "Job")
                job_right = job.x[0] + max(text_px(line, 12, bold="<b>" in line)
                                           for line in job.text[0].split("<br>")) / 2
                for tr in fig.data:
                    if tr.mode == "markers+text" and tr.name not in ("Job", "Node"):
                        assert all(x + ow.POD_TEXT_PX >= job_right + 4 for x in tr.x), (language, name, k, narrow,
                                                                                        tr.text)
