"""Chinese text is never glued from pieces with ASCII punctuation and spaces.

Views used to join pieces themselves: the deletion-order legend with ": " and "; ", the
ownership nodes as f"{node} ({n})", the back-off subtitle's two sentences with a space after
"。" ("上限为 600 s。 最近"), and the dashboard's edit notice put "编辑（kubectl apply）" into
"{what} 在第 N 个周期" (a space after a full-width bracket). Pieces are now joined with the
catalog's list / clause / sentence separators, or are whole templates.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import viz_scenarios as S

from k8sjobs import set_language, viz
from k8sjobs.viz._common import figure_title
from k8sjobs.widgets.state import ExplorerState

CJK = "\u4e00-\u9fff"
GLUED = re.compile(rf"[。，；：）、] (?! )\S|[{CJK}][;:,] |[;:,] [{CJK}]|\) [{CJK}]")
"""A full-width mark followed by one space, or ASCII ; : , or ) followed by a space, beside
Chinese. Two or more spaces are a text table's column padding."""


@pytest.fixture
def zh():
    set_language("zh-CN")
    yield
    set_language("en")


def test_no_view_glues_chinese_with_ascii_punctuation_or_a_space_after_a_full_width_mark(zh):
    found = {}
    for make in S.ALL.values():
        trace = make().trace
        for view in viz.VIEWS:
            for k in sorted({1, len(trace.cycles) // 2, len(trace.cycles)}):
                for text in (figure_title(viz.figure(view, trace, k)), viz.text(view, trace, k)):
                    for line in text.splitlines():
                        for m in GLUED.finditer(line):
                            found.setdefault((view, m.group(0)), line)
    assert not found, found


def test_no_cronjob_view_glues_chinese_with_ascii_punctuation(zh):
    import cron_scenarios as C

    found = {}
    for name in C.ALL:
        trace = C.trace(name)
        for view in viz.views_for("CronJob"):
            for k in sorted({1, len(trace.cycles) // 2, len(trace.cycles)}):
                for text in (figure_title(viz.figure(view, trace, k)), viz.text(view, trace, k)):
                    for line in text.splitlines():
                        for m in GLUED.finditer(line):
                            found.setdefault((view, m.group(0)), line)
    assert not found, found


def test_the_backoff_subtitle_joins_its_sentences_with_the_chinese_full_stop(zh):
    sub = figure_title(viz.figure("backoff", S.backoff_cap().trace, 12)).split("\n")[1]
    assert "上限为 600 s。最近" in sub, sub
    set_language("en")
    sub = figure_title(viz.figure("backoff", S.backoff_cap().trace, 12)).split("\n")[1]
    assert "capped at 600 s. Latest: failure" in sub, sub


def test_the_deletion_rules_and_the_ownership_nodes_use_chinese_marks(zh):
    text = viz.text("deletion", S.mixed_scale_down().trace, len(S.mixed_scale_down().trace.cycles))
    rules = next(line for line in text.splitlines() if line.startswith("规则："))
    assert "; " not in rules and ": " not in rules and "；" in rules and "：" in rules, rules
    cells = viz.figure("deletion", S.mixed_scale_down().trace, len(S.mixed_scale_down().trace.cycles)).data[0]
    decided = [c for c in cells.cells.values[-1] if c and "-first" in c]
    assert decided and all("：" in c and ": " not in c for c in decided), decided
    nodes = next(line for line in viz.text("ownership", S.indexed().trace, 3).splitlines() if line.startswith("节点："))
    assert "（" in nodes and " (" not in nodes and ", " not in nodes, nodes


def test_the_edit_notice_is_one_sentence_in_chinese_and_russian():
    manifest = (Path(__file__).resolve().parents[2] / "examples" / "docs" / "job.yaml").read_text()
    try:
        for lang, expected in (("zh-CN", "编辑（kubectl apply）在第 2 个周期之后立即生效："),
                               ("ru", "правка (kubectl apply) применена сразу после цикла 2:"),
                               ("en", "edit (kubectl apply) applied right after cycle 2: the run was forked")):
            set_language(lang)
            state = ExplorerState(manifest, seed=0)
            state.seek(2)
            edited = state.manifest_text.replace("backoffLimit: 4", "backoffLimit: 5")
            assert edited != state.manifest_text
            assert state.apply_yaml(edited, mode="edit") == []
            assert state.notice.startswith(expected), state.notice
    finally:
        set_language("en")


def test_an_order_exercise_joins_its_two_sentences_as_the_language_does():
    from k8sjobs.widgets import Exercise

    try:
        for lang, expected in (("zh-CN", "运行结果是第二 → 第一。2 项中有 0 项位置正确。"),
                               ("ru", "прогон даёт второй → первый. На своём месте: 0 из 2."),
                               ("en", "the run gives second → first. 0 of 2 in the right place.")):
            set_language(lang)
            labels = {"zh-CN": ("第一", "第二"), "ru": ("первый", "второй"), "en": ("first", "second")}[lang]
            ex = Exercise("?", kind="order", choices={"a": labels[0], "b": labels[1]}, run=None,
                          answer=["b", "a"], explanation="y")
            message = ex.check("a, b").message
            assert message.endswith(expected), message
            assert not GLUED.search(message), message
    finally:
        set_language("en")


def test_the_slow_start_and_timeline_lists_use_the_language_s_list_separator():
    from k8sjobs import Run

    wide = S._manifest("many", completions=30, parallelism=30, spec={"completionMode": "Indexed"})
    run = Run(wide, seed=0, nodes=3)
    try:
        for lang, sep, cut in (("zh-CN", "、", "……"), ("ru", ", ", " ..."), ("en", ", ", " ...")):
            set_language(lang)
            ladder = viz.text("slow_start", run.trace, 1).splitlines()
            indexes = ladder[2]
            assert indexes.endswith(sep.join(str(i) for i in range(17, 20)) + cut), indexes
            pods = [line for line in ladder if line.lstrip().startswith("2 ")][0]
            assert sep.rstrip() in pods and (sep == ", " or ", " not in pods), pods
            quota = viz.text("slow_start", S.quota().trace, len(S.quota().trace.cycles))
            assert "wide-h85nt" + sep + "wide-qrhjh" in quota, quota
            cycles = viz.text("timeline", S.indexed().trace, 3).splitlines()[2]
            assert "= " + sep.join(["0", "1", "3"]) + " " in cycles, cycles
    finally:
        set_language("en")
