"""Chinese typography of everything the package says: lists and spaces.

Two rules of the zh-CN / zh-TW rendering (l10n-conventions.md, kubernetes.io/zh-cn's style):

* the items of a list inside a Chinese sentence are joined with the enumeration comma "、"
  (``pgettext("list separator", ", ")``, :func:`k8sjobs.i18n.join_list`), never ", ", while
  Russian and English keep ", ";
* a space separates Chinese from Latin letters and digits, never Chinese from Chinese or from
  full-width punctuation: ``运行结果是 3`` but ``运行结果是它会被删除``, ``在第 3 个周期``.

What mirrors Kubernetes (kubectl output, events, API errors) and code (``fail_pod(name='x',
exit_code=3)``, the formula ``min(并行性, 剩余完成数)``) keeps its own ASCII punctuation.
"""

from __future__ import annotations

import io
import re
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from types import SimpleNamespace

import pytest
from i18n_support import DOCS, ROOT, runs

from k8sjobs import i18n
from k8sjobs.i18n import close_gaps, join_list, set_language

pytest.importorskip("plotly")
pytest.importorskip("ipywidgets")

WIDE = "\u3000-\u303f\u4e00-\u9fff\uff00-\uffef“”‘’"
LONE_SPACE = re.compile(f"(?<=[{WIDE}]) (?=[{WIDE}])")
"""One space between two Chinese characters or marks (two or more are a text table's padding)."""
SPACED_MARK = re.compile("[，。：；、（）！？] (?! )|(?<! ) [，。：；、（）！？]")
"""A lone space after or before a full-width mark (the mark carries its own space)."""
ASCII_COMMA = re.compile(f"[{WIDE}], |, [{WIDE}]")
"""An ASCII comma and space joining Chinese."""
CODE = re.compile(r"min\([^)]*\)|<code>.*?</code>|`[^`]*`")
"""Code and formulas keep ASCII punctuation."""


@pytest.fixture
def language():
    yield set_language
    set_language("en")


def catalog(lang: str) -> dict[str, str]:
    """{msgid: msgstr} of a shipped catalog, every plural form."""
    from babel.messages.pofile import read_po

    with open(ROOT / "k8sjobs" / "locale" / lang / "LC_MESSAGES" / "k8sjobs.po", "rb") as fh:
        cat = read_po(fh)
    out = {}
    for m in cat:
        if m.id and m.string:
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strs = m.string if isinstance(m.string, tuple) else (m.string,)
            for i, s in enumerate(strs):
                out[f"{ids[0]} [{i}]"] = s
    return out


@pytest.mark.parametrize("lang", ["zh_CN", "zh_TW"])
def test_no_chinese_message_spaces_chinese_from_chinese_or_from_a_full_width_mark(lang):
    bad = {}
    for msgid, text in catalog(lang).items():
        plain = CODE.sub("X", text)
        found = LONE_SPACE.findall(plain) + SPACED_MARK.findall(plain) + ASCII_COMMA.findall(plain)
        if found:
            bad[msgid] = text
    assert bad == {}


def test_the_catalog_check_would_catch_a_spaced_label_and_an_ascii_list():
    for wrong in ("运行结果是 （未调度） 上", "仍缺少 2 次创建 和 1 次删除", "节点：node-1, 节点"):
        plain = CODE.sub("X", wrong)
        assert LONE_SPACE.search(plain) or SPACED_MARK.search(plain) or ASCII_COMMA.search(plain), wrong
    for right in ("运行结果是 3", "在第 3 个周期", "min(并行性, 剩余完成数)", "`kubectl get job,pods`"):
        plain = CODE.sub("X", right)
        assert not (LONE_SPACE.search(plain) or SPACED_MARK.search(plain) or ASCII_COMMA.search(plain)), right


@pytest.mark.parametrize(("lang", "sep"), [("zh-CN", "、"), ("zh-TW", "、"), ("ru", ", "), ("en", ", ")])
def test_lists_in_our_own_sentences_use_the_language_s_separator(language, lang, sep):
    from k8sjobs import Exercise, viz
    from k8sjobs.snapshot.explain import explain
    from k8sjobs.trace.reasons import render
    from k8sjobs.trace.text import run_header

    language(lang)
    assert join_list(["a", "b", "c"]) == sep.join("abc")
    with pytest.raises(ValueError) as err:
        set_language("xx")
    assert sep.join(i18n.LANGUAGES) in str(err.value)
    with pytest.raises(ValueError) as err:
        viz.text("no-such-view", runs()["quota"].trace, 0)
    assert sep.join(viz.VIEWS) in str(err.value)
    ex = Exercise("?", kind="choice", choices={"kept": "K", "deleted": "D", "orphaned": "O"}, run=None,
                  answer="kept", explanation="y")
    assert sep.join(["kept", "deleted", "orphaned"]) in ex.check("gone").message
    sentence = render("cluster.sidecars_stopping", {"pod": "p", "sidecars": ["log", "proxy", "mesh"], "seconds": 30})
    assert sep.join(["log", "proxy", "mesh"]) in sentence
    # A snapshot's run names its nodes on the first line; more than five end with the language's "and more".
    nodes = [SimpleNamespace(kind="Node", name=f"node-{i}") for i in range(1, 8)]
    trace = SimpleNamespace(config=SimpleNamespace(informer_lag=0.1, pods_per_node=4), snapshot_at="2026-03-10T09:30:01Z",
                            changes=nodes, initial_changes=7, job_name="default/x", seed=0)
    header = run_header(trace)
    assert sep.join(f"node-{i}" for i in range(1, 6)) in header and "node-6" not in header
    assert ("node-5 等" if lang.startswith("zh") else "node-5, ...") in header
    # explain's observations: the pods by phase (Kubernetes' phases, our separator), and the parts error.
    explained = explain(ROOT / "k8sjobs" / "snapshots" / "indexed.yaml")
    assert sep.join(["2 Failed", "2 Running", "2 Succeeded"]) in explained.render_text(["observes"])
    with pytest.raises(ValueError) as err:
        explained.render_text(["observes", "nonsense"])
    assert sep.join(explained.PARTS) in str(err.value)


def test_a_typed_order_may_use_the_chinese_separators(language):
    from k8sjobs import Exercise

    language("zh-CN")
    ex = Exercise("?", kind="order", choices={"a": "第一", "b": "第二", "c": "第三"}, run=None,
                  answer=["b", "a", "c"], explanation="y")
    for typed in ("b, a, c", "b、a、c", "b，a，c"):
        assert ex.check(typed).correct, typed


def test_a_chinese_label_is_not_spaced_from_the_chinese_around_it_but_a_number_is(language):
    from k8sjobs import Exercise

    language("zh-CN")
    choice = Exercise("?", kind="choice", choices={"gone": "它会被删除", "kept": "它会继续运行"}, run=None,
                      answer="gone", explanation="级联删除。")
    assert choice.check("kept").message == "不太对：你的答案是它会继续运行；运行结果是它会被删除。"
    assert choice.check("gone").message == "正确：它会被删除。"
    assert choice.reveal().startswith("答案：它会被删除。级联删除。")
    number = Exercise("?", kind="number", run=None, answer=3, tolerance=1, explanation="y")
    assert number.check("5").message == "不太对：你的答案是 5；运行结果是 3。"
    assert number.check("4").message == "正确：你的答案是 4；运行结果是 3（误差在 ±1 以内）。"
    language("en")
    assert choice.check("kept").message == "Not quite: you said 它会继续运行; the run gives 它会被删除."


def test_close_gaps_removes_only_a_lone_space_between_wide_characters():
    assert close_gaps("运行结果是 它会被删除") == "运行结果是它会被删除"
    assert close_gaps("在 （未调度） 上") == "在（未调度）上"
    assert close_gaps("运行结果是 3；在第 3 个周期") == "运行结果是 3；在第 3 个周期"
    assert close_gaps("创建  启动   结束") == "创建  启动   结束"
    assert close_gaps("the run gives 3 pods") == "the run gives 3 pods"


def rendered_in(lang: str) -> dict[str, str]:
    """What a learner reads in ``lang``: views (text twins, titles, hovers, tables), a dashboard,
    answered exercises, a CLI run and explain of every example snapshot."""
    from test_pseudo_locale import figure_texts, widget_texts

    from k8sjobs import Exercise, Explorer, viz
    from k8sjobs.cli import main

    set_language(lang)
    pieces = {}
    for name in ("backoff", "per_index", "quota", "scale_down", "lag", "lost-node", "suspended",
                 "docs-job-pod-failure-policy-example"):
        run = runs()[name]
        n = len(run.trace.cycles)
        for view in viz.VIEWS:
            for k in sorted({1, n // 2, n}):
                pieces[f"{name}/{view}/{k}/text"] = viz.text(view, run.trace, k)
                pieces[f"{name}/{view}/{k}/figure"] = "\n".join(figure_texts(viz.figure(view, run.trace, k)))
    ex = Explorer((DOCS / "job-pod-failure-backoff.yaml").read_text())
    for _ in range(3):
        ex.step()
    for i, view in enumerate(ex.views):
        ex.tabs.selected_index = i
        ex._twin_toggles[view].value = True
        pieces[f"dashboard {view}"] = ex._twins[view].value
    pieces["why panel"] = ex.explanation.value
    pieces["status"] = ex.status.value
    ex.act("fail_pod", name=ex.state.pods()[0], exit_code=3)
    pieces["notice"] = ex.notice.value
    pieces["dashboard"] = "\n".join(t for t in widget_texts(ex.widget) if t != ex.yaml.value)
    labels = {"zh-CN": ("它会被删除", "它会继续运行"), "zh-TW": ("它會被刪除", "它會繼續執行")}[lang]
    choice = Exercise("?", kind="choice", choices=dict(zip("ab", labels)), run=None, answer="a", explanation="y")
    order = Exercise("?", kind="order", choices=dict(zip("ab", labels)), run=None, answer=["b", "a"], explanation="y")
    pieces["exercises"] = "\n".join([choice.check("b").message, choice.check("a").message, choice.reveal(),
                                     order.check("a,b").message, order.check("a").message])
    out = io.StringIO()
    with redirect_stdout(out), redirect_stderr(out):
        main(["run", str(DOCS / "job-pod-failure-backoff.yaml")])
        main(["run", str(DOCS / "job.yaml"), "--until", "-1"])
        for snap in sorted((ROOT / "k8sjobs" / "snapshots").glob("*.yaml")):
            main(["explain", "--forecast", str(snap)])
    pieces["cli"] = out.getvalue()
    return pieces


@pytest.mark.parametrize("lang", ["zh-CN", "zh-TW"])
def test_what_a_chinese_learner_reads_has_no_spaced_chinese_and_no_ascii_lists(language, lang):
    pieces = rendered_in(lang)
    assert len(pieces) > 100 and all(pieces.values())
    bad = {}
    for name, text in pieces.items():
        for line in text.splitlines():
            plain = CODE.sub("X", line)
            # Kubernetes' own messages (an API error inside a reason) keep their commas.
            plain = re.sub(r"[A-Za-z0-9_\-./\"=:]+(?:, [A-Za-z0-9_\-./\"=:]+)+", "X", plain)
            for m in (*LONE_SPACE.finditer(plain), *ASCII_COMMA.finditer(plain)):
                bad.setdefault(name, []).append(plain[max(0, m.start() - 20):m.end() + 20])
    assert bad == {}
    assert any("、" in text for text in pieces.values())


def test_the_rendering_check_would_catch_the_old_spaced_answer():
    assert LONE_SPACE.search("不太对：你的答案是 它会继续运行；运行结果是 它会被删除。")
    assert LONE_SPACE.search("wide-xhq9v：在 （未调度） 上悬决")
    assert ASCII_COMMA.search("节点：node-1（2 个 Pod）, node-2")
    assert Path(__file__).name.startswith("test_")
