"""Translated lessons are the English lessons in another language, and zh-TW is made from zh-CN.

* Parity (tools/translations.py ``parity_problems``): each ``notebooks/<lang>/NN-x.md`` has the
  English lesson's concepts, cells, exercises (ids, kinds, choice keys, answers as code) and
  confirmations, the same code once string literals and comments are set aside (a string that
  is not in the lesson's language must be the English one; manifests equal as YAML; f-string
  fields kept), the same kubectl blocks, and the SHA-256 of the current English file, so a
  change of the English fails here until the translation is revisited.
* zh-TW is generated (``zh_tw_lesson``): only Chinese text changes; URLs, code, YAML and
  quotations in traditional characters stay as they are.
* Every English lesson has a zh-CN, a zh-TW and a ru twin, except those listed in AWAITING.
* A start page links the same lessons as the English one, each translated or awaiting.

The checker is tested on small bad examples below, so it cannot pass by accident.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

import pytest

from tools import translations

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
SOURCES = NOTEBOOKS / ".src"
EN = SOURCES / "en"


t = translations

# Lessons not translated yet, per language translated by hand (zh-TW follows zh-CN). ONE place:
# a translator deletes the lesson's line in the commit that adds the translation. An entry for a
# lesson that exists fails the test, so this list cannot go stale; it is empty when issues 14
# and 15 are done.
AWAITING = {
    "zh-CN": set(),
    "ru": set(),
}
AWAITING["zh-TW"] = AWAITING["zh-CN"]


def english_lessons() -> list[str]:
    return sorted(p.stem for p in EN.glob("[0-9][0-9]-*.md"))


# ----------------------------------------------------------------------------- the real lessons


@pytest.mark.parametrize("language", t.LANGUAGES)
def test_each_translated_lesson_is_its_english_lesson_in_another_language(language: str) -> None:
    problems = [p for path in t.translations((language,)) for p in t.problems_of(path)]
    assert problems == [], "\n\n".join(problems)


@pytest.mark.parametrize("language", t.LANGUAGES)
def test_every_english_lesson_has_a_twin_unless_it_is_awaiting_translation(language: str) -> None:
    english = set(english_lessons())
    have = {p.stem for p in (SOURCES / language).glob("[0-9][0-9]-*.md")}
    awaiting = AWAITING[language]
    source = "zh-CN" if language == "zh-TW" else language
    assert not awaiting - english, f"AWAITING[{source!r}] names lessons that do not exist: {sorted(awaiting - english)}"
    assert not have - english, f"{language} lessons without an English lesson: {sorted(have - english)}"
    done = sorted(have & awaiting)
    assert not done, (f"{done} exist in notebooks/.src/{language}/ but are still listed in AWAITING[{source!r}] "
                      f"(tests/test_translations.py): delete them from the list")
    missing = sorted(english - have - awaiting)
    assert not missing, (f"no notebooks/.src/{language}/ twin of {missing}"
                         + (": build the zh-CN lesson (tools/build_lessons.py) to generate it" if language == "zh-TW"
                            else f"; translate them, or list them in AWAITING[{source!r}] until then"))
    built = sorted(s for s in have if not (NOTEBOOKS / language / f"{s}.ipynb").exists())
    assert not built, f"no notebook built from notebooks/.src/{language}/{built}.md (tools/build_lessons.py)"


LESSON_LINK = re.compile(r"\]\((\d\d-[a-z0-9-]+)\.ipynb\)")


def linked_lessons(md: Path) -> set[str]:
    return set(LESSON_LINK.findall(md.read_text(encoding="utf-8")))


@pytest.mark.parametrize("language", t.LANGUAGES)
def test_a_start_page_links_the_lessons_of_the_english_one_each_translated_or_awaiting(language: str) -> None:
    start = SOURCES / language / "00-start-here.md"
    if not start.exists():
        assert "00-start-here" in AWAITING[language], f"{start} is missing and not awaiting translation"
        return
    english = linked_lessons(EN / "00-start-here.md")
    linked = linked_lessons(start)
    assert linked == english, (f"the {language} start page links {sorted(linked - english)} more and "
                               f"{sorted(english - linked)} fewer than the English one")
    broken = sorted(s for s in linked if not (NOTEBOOKS / language / f"{s}.ipynb").exists()
                    and s not in AWAITING[language])
    assert not broken, f"the {language} start page links lessons that are neither there nor awaiting: {broken}"


# ----------------------------------------------------------------------------- the checker itself

ENGLISH = '''\
---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
k8sjobs:
  concepts: [C06, C17]
---

# 07 · A lesson

Some prose.

```bash
kubectl get job pi -w       # STATUS Running → Complete
kubectl describe pod <a failed pod>
```

```{code-cell} ipython3
from k8sjobs import Exercise, Run, set_language

set_language("en")

PI = """
apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  backoffLimit: 4   # retries
  template:
    spec:
      containers:
      - name: pi
        image: perl:5.34.0
      restartPolicy: Never
"""
run = Run(PI, seed=0)
FATES = {"kept": "it keeps running", "gone": "it is deleted"}
```

+++

## Predict

```{code-cell} ipython3
:tags: [exercise]

ex_one = Exercise(
    "How many pods does the Job create?",
    kind="number",
    run=run,
    answer=lambda r: len(r.trace.pod_histories()),
    explanation=lambda r, n: f"{n} pods: one per completion, {r.cycles[-1].t:g} s in all.",
    view="timeline",
)
ex_two = Exercise("And the pod?", kind="choice", choices=FATES, run=run, answer="gone", explanation="Because.")
```

```{code-cell} ipython3
# NBVAL_CHECK_OUTPUT
print("cycle", 3, "reason:", run.cycle(3).find("create.plan")[0].rule)
```

+++

## Checking the answers

```{code-cell} ipython3
ex_one.confirm(1)
ex_two.confirm("gone")
```
'''

SHA = "ab" * 32


def translated(language: str = "ru") -> str:
    """ENGLISH translated as a translator should: words changed, everything else kept."""
    text = ENGLISH.replace("  concepts: [C06, C17]\n",
                           f"  concepts: [C06, C17]\n  language: {language}\n  source: en/07-a-lesson.md\n"
                           f"  source_sha256: {SHA}\n")
    words = {
        "ru": [("# 07 · A lesson", "# 07 · Урок"), ("Some prose.", "Немного текста."),
               ("# STATUS Running → Complete", "# STATUS Running → Complete, затем конец"),
               ("<a failed pod>", "<упавший под>"),
               ("# retries", "# повторы"),
               ('"it keeps running"', '"он продолжает работать"'),
               ('"How many pods does the Job create?"', '(\n    "Сколько подов "\n    "создаст Job?"\n)'),
               ('f"{n} pods: one per completion, {r.cycles[-1].t:g} s in all."',
                'f"всего {r.cycles[-1].t:g} с; подов: {n}"'),
               ('"And the pod?"', '"А под?"'), ("## Predict", "## Предскажите"),
               ('"reason:"', '"причина:"')],
        "zh-CN": [("# 07 · A lesson", "# 07 · 一课"), ("Some prose.", "一些说明，并行执行。"),
                  ('"it keeps running"', '"它继续运行"'), ('"And the pod?"', '"那么 Pod 呢？"')],
    }[language]
    for old, new in words:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text.replace('set_language("en")', f'set_language("{language}")')


def problems(text: str, language: str = "ru") -> list[str]:
    return t.parity_problems(ENGLISH, text, language=language, name="07-a-lesson.md", en_sha256=SHA)


@pytest.mark.parametrize("language", ["ru", "zh-CN"])
def test_the_parity_check_accepts_a_faithful_translation(language: str) -> None:
    assert problems(translated(language), language) == []


BAD = [
    (("  source_sha256: " + SHA, "  source_sha256: " + "cd" * 32), "stale: source_sha256 is cdcd"),
    (("  concepts: [C06, C17]", "  concepts: [C06]"), "front matter: concepts ['C06'] differ"),
    (("  language: ru", "  language: zh-CN"), "front matter: k8sjobs.language is 'zh-CN'"),
    (("  source: en/07-a-lesson.md", "  source: en/08-a-lesson.md"), "front matter: k8sjobs.source"),
    (('set_language("ru")', 'set_language("en")'), 'set_language("en"): a ru lesson calls set_language("ru")'),
    (("run = Run(PI, seed=0)", "run = Run(PI, seed=1)"), "the English has '0' where the translation has '1'"),
    (("run = Run(PI, seed=0)", "прогон = Run(PI, seed=0)"), "the code differs from the English"),
    (("# NBVAL_CHECK_OUTPUT\n", "# проверка вывода\n"), "the English has '#NBVAL_CHECK_OUTPUT' where the translation has '(nothing)'"),
    (('find("create.plan")', 'find("create.plans")'), "the string 'create.plans' is not the English 'create.plan'"),
    (('view="timeline"', 'view="Timeline"'), "the string 'Timeline' is not the English 'timeline'"),
    (("{r.cycles[-1].t:g} с", "{r.cycles[-1].t} с"), "the f-string computes"),
    (("{r.cycles[-1].t:g} с", "{r.cycles[-1].t:g} с {'!':>3}"), "the f-string computes"),
    (("  backoffLimit: 4", "  backoffLimit: 5"), "the manifest differs from the English"),
    (("  name: pi\nspec:", "  name: пи\nspec:"), "the manifest differs from the English"),
    (('kind="number"', 'kind="число"'), "exercise ex_one: kind 'число', the English has 'number'"),
    (('"gone": "it is deleted"', '"удалён": "it is deleted"'), "exercise ex_two: choice keys ['kept', 'удалён']"),
    (('answer="gone"', 'answer="kept"'), "exercise ex_two: answer \"'kept'\""),
    (('view="timeline",\n)', 'view="timeline", tolerance=1,\n)'), "exercise ex_one: arguments"),
    (('ex_two.confirm("gone")', 'ex_two.confirm("kept")'), "confirmations:"),
    (("ex_two = Exercise(", "ex_2 = Exercise("), "the code differs from the English"),
    ((":tags: [exercise]\n", ""), "code cell 1: tags [], the English has ['exercise']"),
    (("Немного текста.", "Немного текста.\n\n+++\n\nЕщё."), "cells: 4 markdown and 4 code cells in the order mmcmccmc"),
    (("kubectl get job pi -w", "kubectl get job pi"), "markdown cell 0: its fenced blocks"),
]


@pytest.mark.parametrize("change, problem", BAD, ids=[b[1][:40] for b in BAD])
def test_the_parity_check_refuses_a_translation_that_is_not_the_same_lesson(change, problem) -> None:
    old, new = change
    good = translated("ru")
    assert old in good, old
    found = problems(good.replace(old, new, 1))
    assert any(problem in p for p in found), found


def test_a_string_in_an_f_string_field_is_words_too() -> None:
    english = ENGLISH.replace('"reason:"', "f\"{'reason:':<10}\"")
    ru = translated("ru").replace('"причина:"', "f\"{'причина:':<10}\"")
    assert t.parity_problems(english, ru, language="ru", name="07-a-lesson.md", en_sha256=SHA) == []
    wider = ru.replace(":<10}", ":<12}")
    assert any("the f-string computes" in p
               for p in t.parity_problems(english, wider, language="ru", name="07-a-lesson.md", en_sha256=SHA))


@pytest.mark.parametrize(("field", "code", "words"), [
    ("'yes' if p['ready'] else 'no'", "<string> if p['ready'] else <string>", ["yes", "no"]),
    ("p['node'] or '(none)'", "p['node'] or <string>", ["(none)"]),
    ("'POD'", "<string>", ["POD"]),
    ("', '.join(did) or '-'", "<string>.join(did) or <string>", [", ", "-"]),
    ("c.find('status.write')[0].fields['skipped']", "c.find('status.write')[0].fields['skipped']", []),
    ("len(run.cycles)", "len(run.cycles)", []),
])
def test_an_f_string_fields_string_constants_are_words_unless_they_pick_something(field, code, words) -> None:
    assert t.field_code(ast.parse(field, mode="eval").body) == (code, words)


def test_words_inside_an_f_string_field_may_be_translated_but_keys_and_code_may_not() -> None:
    english = ENGLISH.replace('"reason:"', "f\"{'yes' if run.cycles else 'no':<4} {run.cycle(3).fields['x']}\"")
    zh = translated("zh-CN").replace('"reason:"', "f\"{run.cycle(3).fields['x']} {'是' if run.cycles else '否':<4}\"")

    def found(text: str) -> list[str]:
        return t.parity_problems(english, text, language="zh-CN", name="07-a-lesson.md", en_sha256=SHA)

    assert found(zh) == [], "the words translated, the fields in another order"
    assert found(zh.replace("'是'", "'yes'").replace("'否'", "'no'")) == [], "or kept as the English has them"
    assert any("the string 'ja' is not the English 'yes'" in p for p in found(zh.replace("'是'", "'ja'")))
    assert any("the f-string computes" in p for p in found(zh.replace("fields['x']", "fields['名']")))
    assert any("the f-string computes" in p for p in found(zh.replace("if run.cycles", "if not run.cycles")))


def test_a_translated_choice_label_is_fine_but_a_string_changed_without_translating_it_is_not() -> None:
    good = translated("zh-CN")
    assert problems(good.replace('"它继续运行"', '"它一直运行"'), "zh-CN") == []
    found = problems(good.replace('"它继续运行"', '"it keeps on running"'), "zh-CN")
    assert any("is not zh-CN either" in p for p in found), found


def test_the_stale_message_says_which_english_file_and_how_to_bring_the_translation_up_to_date() -> None:
    path = SOURCES / "ru" / "07-failures-and-backoff.md"
    msg = t.stale_message(path, "ab" * 32)
    assert "notebooks/.src/en/07-failures-and-backoff.md" in msg
    assert t.sha256(EN / "07-failures-and-backoff.md") in msg, "the hash to record"
    assert "git log -p -- notebooks/.src/en/07-failures-and-backoff.md" in msg, "no commit has that hash: the history"
    assert "tools/translations.py rehash notebooks/.src/ru/07-failures-and-backoff.md" in msg
    assert "tools/build_lessons.py notebooks/.src/ru/07-failures-and-backoff.md" in msg
    zh_tw = t.stale_message(SOURCES / "zh-TW" / "07-failures-and-backoff.md", "ab" * 32)
    assert "is generated: bring notebooks/.src/zh-CN/07-failures-and-backoff.md up to date" in zh_tw


def test_the_stale_message_finds_the_commit_the_translation_was_made_from(tmp_path: Path) -> None:
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    lesson = tmp_path / "notebooks" / "en" / "07-x.md"
    lesson.parent.mkdir(parents=True)
    commits = []
    for version in ("first\n", "second\n", "third\n"):
        lesson.write_text(version)
        subprocess.run([*git, "add", "."], check=True)
        subprocess.run([*git, "commit", "-qm", version], check=True)
        commits.append(subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True,
                                      check=True).stdout.strip())
    assert t.commit_with(lesson, t.sha256_bytes(b"second\n"), root=tmp_path) == commits[1]
    assert t.commit_with(lesson, t.sha256_bytes(b"never\n"), root=tmp_path) is None


def test_the_commit_of_a_hash_is_found_across_the_move_of_the_sources(tmp_path: Path) -> None:
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    old = tmp_path / "notebooks" / "en" / "07-x.md"
    old.parent.mkdir(parents=True)
    text = "".join(f"line {i} of the lesson\n" for i in range(30))
    old.write_text(text)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "first"], check=True)
    first = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    (tmp_path / "notebooks" / ".src" / "en").mkdir(parents=True)
    subprocess.run([*git, "mv", "notebooks/en/07-x.md", "notebooks/.src/en/07-x.md"], check=True)
    moved = tmp_path / "notebooks" / ".src" / "en" / "07-x.md"
    moved.write_text(text.replace("line 3 ", "line three "))  # moved and changed in one commit
    subprocess.run([*git, "commit", "-qam", "move"], check=True)
    assert t.commit_with(moved, t.sha256_bytes(text.encode()), root=tmp_path) == first


def test_start_and_rehash_make_a_translation_that_passes_until_the_english_changes(tmp_path, monkeypatch) -> None:
    en = tmp_path / "notebooks" / "en" / "07-a-lesson.md"
    en.parent.mkdir(parents=True)
    en.write_text(ENGLISH, encoding="utf-8")
    monkeypatch.setattr(t, "SOURCES", tmp_path / "notebooks")
    monkeypatch.setattr(t, "EN", en.parent)
    ru = t.start("ru", "07-a-lesson")
    assert ru == tmp_path / "notebooks" / "ru" / "07-a-lesson.md"
    assert [p for p in t.problems_of(ru) if "stale" in p or "was translated" in p] == []
    assert t.problems_of(ru) == []
    en.write_text(ENGLISH.replace("Some prose.", "Some better prose."), encoding="utf-8")
    assert any("was translated from another version" in p for p in t.problems_of(ru))
    t.rehash(ru)
    assert t.problems_of(ru) == []


# ----------------------------------------------------------------------------- zh-TW from zh-CN

ZH_CN = translated("zh-CN").replace("一些说明，并行执行。", (
    "一些说明：并行执行，创建 Pod，见[文档](https://kubernetes.io/zh-cn/docs/concepts/workloads/controllers/job/"
    "#处理-pod-和容器失效)。A0 写道“面向于終態的設計”，还写了 <span lang=\"zh-Hant\">并行粒度</span>；"
    "按“单步”。"))


def test_zh_tw_converts_chinese_prose_and_strings_and_nothing_else() -> None:
    zh_tw = t.zh_tw_lesson(ZH_CN, "07-a-lesson.md")
    assert "一些說明：平行執行，建立 Pod" in zh_tw, "s2twp with the Taiwan overrides (並行 -> 平行)"
    assert "按「單步」" in zh_tw, "Taiwan quotation marks"
    assert '"它繼續執行"' in zh_tw, "string literals are prose too"
    assert "job/#处理-pod-和容器失效)" in zh_tw, "a URL (a zh-cn anchor) stays as it is"
    assert "「面向于終態的設計」" in zh_tw, "a quotation in traditional characters stays as the article wrote it"
    assert '<span lang="zh-Hant">并行粒度</span>' in zh_tw, "a span marked zh-Hant stays as it is"
    assert 'set_language("zh-TW")' in zh_tw and "zh-CN" not in zh_tw.split("---")[2]
    assert "  language: zh-TW\n  generated_from: zh-CN/07-a-lesson.md" in zh_tw
    assert t.ascii_skeleton(zh_tw.split("---\n", 2)[2]) == t.ascii_skeleton(
        ZH_CN.split("---\n", 2)[2]).replace('set_language("zh-CN")', 'set_language("zh-TW")')


def test_a_generated_zh_tw_lesson_passes_the_parity_check_as_zh_tw() -> None:
    zh_tw = t.zh_tw_lesson(ZH_CN, "07-a-lesson.md")
    assert t.parity_problems(ENGLISH, zh_tw, language="zh-TW", name="07-a-lesson.md", en_sha256=SHA) == []
    found = t.parity_problems(ENGLISH, zh_tw.replace("  generated_from: zh-CN/07-a-lesson.md", ""),
                              language="zh-TW", name="07-a-lesson.md", en_sha256=SHA)
    assert any("generated_from" in p for p in found), found


def test_the_generator_refuses_a_conversion_that_changes_anything_but_chinese(monkeypatch) -> None:
    monkeypatch.setattr(t, "to_taiwan", lambda text: text.replace("seed", "Seed"))
    with pytest.raises(ValueError, match="changed text that is not Chinese"):
        t.zh_tw_lesson(ZH_CN, "07-a-lesson.md")


def test_stale_missing_and_orphaned_zh_tw_lessons_are_reported(tmp_path: Path) -> None:
    cn, tw = tmp_path / "zh-CN", tmp_path / "zh-TW"
    cn.mkdir()
    (cn / "07-a-lesson.md").write_text(ZH_CN, encoding="utf-8")
    assert any("zh-TW/07-a-lesson.md: missing" in p for p in t.zh_tw_problems(tmp_path))
    out, changed = t.write_zh_tw(cn / "07-a-lesson.md")
    assert changed and out == tw / "07-a-lesson.md"
    assert t.zh_tw_problems(tmp_path) == []
    assert t.write_zh_tw(cn / "07-a-lesson.md") == (out, False)
    out.write_text(out.read_text(encoding="utf-8").replace("說明", "说明"), encoding="utf-8")
    assert any("stale against" in p and "never edit it by hand" in p for p in t.zh_tw_problems(tmp_path))
    (tw / "08-other.md").write_text("x", encoding="utf-8")
    assert any("zh-TW/08-other.md: no zh-CN/08-other.md generates it" in p for p in t.zh_tw_problems(tmp_path))


@pytest.mark.parametrize(("zh_cn", "zh_tw"), [
    ("Pod 回退失效策略", "Pod 退避失敗策略"),            # glossary 2: backoff 退避, failure 失敗
    ("并行 Job 与并发问题", "平行 Job 與並行問題"),       # 3.1 #2: parallel 平行, concurrent 並行
    ("并行性", "平行度"),
    ("后台级联删除与前台级联删除", "背景串聯刪除與前景串聯刪除"),
    ("容器退出码为 42", "容器結束代碼為 42"),
    ("重启策略", "重新啟動策略"),
    ("挂起的 Job", "暫停的 Job"),
    ("当前状态与期望状态", "目前狀態與期望狀態"),
    ("标签选择算符", "標籤選擇器"),
    ("工作条目", "工作項目"),
    ("要渲染的视频帧", "要算繪的影格"),
    ("调谐循环", "協調迴圈"),
    ("命名空间", "命名空間"),
    ("批处理作业", "批次處理作業"),
    ("超时", "逾時"),
    ("Pod 模板", "Pod 範本"),
    ("允许失败的最大索引数与命令行参数", "允許失敗的最大索引數與命令列參數"),   # 3.2 #2, not inside 索引數
    ("主进程退出；处理程序", "主處理程序退出；處理程序"),                      # 3.2 #2: process
    ("succeeded 从不回退；最多只能", "succeeded 從不倒退；最多只能"),          # not back-off; 只 not 隻
    ("集群自动扩缩器；扩缩 Job", "叢集自動調整程式；調整規模 Job"),
    ("服务账号缺少权限；自定义列和 `COMPLETIONS` 列、STATUS 列中、Pod 的列；多了一列`期望`",
     "服務帳戶缺少權限；自訂欄和 `COMPLETIONS` 欄、STATUS 欄中、Pod 的欄；多了一欄`期望`"),
    ("kubectl 列出队列；自定义控制器", "kubectl 列出佇列；自訂控制器"),          # 列 that is no column stays
    ("把它们打印出来；打印日志；容器结束并成功；合并成功", "把它們印出來；列印日誌；容器結束並成功；合併成功"),
    # 「」 are full-width: no space beside them, except a list marker's and a table cell's
    ("然后“渲染” 10 s，即 Job（“工作队列” Job）", "然後「算繪」10 s，即 Job（「工作佇列」Job）"),
    ("1. “对于”\n| “计数” | counts |", "1. 「對於」\n| 「計數」 | counts |"),    # Jupyter and software words s2twp leaves in their mainland form
    ("执行所有单元格；安装其他软件包；在另一个终端中运行", "執行所有儲存格；安裝其他套件；在另一個終端機中執行"),
    ("按需构建和启动；构建一个镜像；缓存由什么构建而成；其他工具构建在它之上",
     "按需建置和啟動；建置一個映像檔；快取由什麼建構而成；其他工具建構在它之上"),
    ("模板扩展模式；扩展性更好；工作队列教程", "範本擴展模式；擴充性更好；工作佇列教學"),
])
def test_the_lessons_zh_tw_uses_the_glossarys_taiwan_terms(zh_cn: str, zh_tw: str) -> None:
    assert t.convert_text(zh_cn) == zh_tw


# ----------------------------------------------------------------------------- prose and dashboard agree

LABEL = re.compile(r"\*\*([^*\n]+)\*\*\s*[（(]([^）)\n]+)[）)]")
"""A control named in a lesson's prose: **单步**（Step）, **Шаг** (Step)."""


def catalog(language: str) -> dict[str, str]:
    """The dashboard's words in ``language``: messages of ``k8sjobs/widgets/`` (buttons, tabs, fields) and the
    views' tab titles (``k8sjobs/viz/__init__.py``, the view registry).

    Only those: a lesson also bolds a term at first use with its English after it (Russian
    declines it: **рабочей очередью** (work queue)), which is no control even when a view has
    the same English."""
    from babel.messages.pofile import read_po

    locale = language.replace("-", "_")
    with open(ROOT / "k8sjobs" / "locale" / locale / "LC_MESSAGES" / "k8sjobs.po", "rb") as fh:
        cat = read_po(fh, locale=locale)
    return {m.id: m.string for m in cat if m.id and isinstance(m.id, str) and m.string and not m.context
            and any(path.startswith("k8sjobs/widgets/") or path == "k8sjobs/viz/__init__.py"
                    for path, _line in m.locations)}


def mismatched_labels(text: str, words: dict[str, str]) -> list[str]:
    """Controls named as **translation** (English) whose translation is not the catalog's."""
    found = []
    for said, english in LABEL.findall(text):
        pairs = list(zip(said.split(" / "), english.split(" / "))) if said.count(" / ") == english.count(" / ") \
            else [(said, english)]
        for mine, msgid in pairs:
            if msgid in words and mine.strip() != words[msgid]:
                found.append(f"**{mine.strip()}** ({msgid}): the dashboard says {words[msgid]!r}")
    return found


@pytest.mark.parametrize("language", t.LANGUAGES)
def test_a_lesson_names_the_dashboards_controls_as_the_dashboard_does(language: str) -> None:
    words = catalog(language)
    problems = [f"{path.relative_to(ROOT)}: {p}" for path in t.translations((language,))
                for p in mismatched_labels(path.read_text(encoding="utf-8"), words)]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("language", t.LANGUAGES)
def test_the_dashboard_words_are_the_widgets_messages_only(language: str) -> None:
    words = catalog(language)
    assert {"Step", "Back", "Faults and actions", "Timeline", "Exit code"} <= set(words)
    assert "work queue" not in words and "API server" not in words, "a view's word is no control"


def test_the_label_check_compares_each_part_of_a_pair_with_the_catalog() -> None:
    words = {"Back": "后退", "Step": "单步", "Apply": "应用"}
    assert mismatched_labels("按 **后退 / 单步**（Back / Step），然后**应用**（Apply）。", words) == []
    assert mismatched_labels("按 **下一步**（Step）与 **后退 / 前进**（Back / Step）", words) == [
        "**下一步** (Step): the dashboard says '单步'", "**前进** (Step): the dashboard says '单步'"]
    assert mismatched_labels("**事件**（event）", words) == [], "a word that is no control of ours"


# ----------------------------------------------------------------------------- further reading

READING = {"zh-CN": "延伸阅读", "zh-TW": "延伸閱讀", "ru": "Что почитать"}


def further_reading(text: str, language: str) -> str:
    m = re.search(rf"^## {READING[language]}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    return m.group(1) if m else ""


def reading_problems(text: str, language: str) -> list[str]:
    """zh: the kubernetes.io/zh-cn pages; ru: English sections, said once before the list."""
    section = further_reading(text, language)
    if not section:
        return [f"no '## {READING[language]}' section"]
    if language in ("zh-CN", "zh-TW"):
        return [] if "https://kubernetes.io/zh-cn/docs/" in section else [
            "Further reading links no kubernetes.io/zh-cn page (the zh-cn Job page has every section)"]
    intro = section.strip().split("\n* ", 1)[0].split("\n\n")[0]
    if intro.startswith("* ") or "англ" not in intro:
        return ["Further reading does not say first, in one line, that the links are English "
                "(there is no Russian Job page on kubernetes.io)"]
    if section.count("англ") > 1:
        return ["Further reading says more than once that the links are English"]
    return []


LINK_TARGET = re.compile(r"\]\(([^)]*)\)")
"""The URL of a markdown link ``[text](url)``: its end is explicit, so a zh-cn anchor may be Chinese."""
BARE_URL = re.compile(r"(?<!\]\()https?://[^\s<]*")
"""A bare URL as JupyterLab (GFM autolinks) reads it: up to whitespace or ``<``."""
WELL_FORMED_URL = re.compile(r"https?://[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+(?:/[A-Za-z0-9._~%!$&'*+,;=:@/-]*)?"
                             r"(?:#[\w.~%-]+)?")


def malformed_urls(section: str) -> list[str]:
    """URLs of a Further-reading section that a browser would not open as written: a bare URL runs
    until whitespace, so one followed by Chinese text (``…#job-pod-的终止英文原文：https://…``) or by
    full-width punctuation swallows it; a bare URL must be ASCII and end at whitespace, the end of
    the line or a closing bracket."""
    bad = [url for url in LINK_TARGET.findall(section) if not WELL_FORMED_URL.fullmatch(url)]
    for m in BARE_URL.finditer(section):
        url = m.group(0).rstrip("?!.,:*_~")  # GFM leaves trailing ASCII punctuation out of the link ...
        while url.endswith(")") and url.count(")") > url.count("("):  # ... and an unbalanced ")"
            url = url[:-1].rstrip("?!.,:*_~")
        if not (url.isascii() and WELL_FORMED_URL.fullmatch(url)):
            bad.append(m.group(0))
    return bad


@pytest.mark.parametrize("language", t.LANGUAGES)
def test_every_further_reading_link_is_a_well_formed_url(language: str) -> None:
    problems = [f"{path.relative_to(ROOT)}: {url}" for path in t.translations((language,))
                for url in malformed_urls(further_reading(path.read_text(encoding="utf-8"), language))]
    assert problems == [], "\n".join(problems)


def test_the_url_check_refuses_a_url_that_runs_into_the_text_after_it() -> None:
    zh, en = "https://kubernetes.io/zh-cn/docs/job/", "https://kubernetes.io/docs/job/"
    good = (f"* Job Pod 的终止：{zh}#terminal 英文原文：{en}#termination-of-job-pods\n"
            f"* Job，[Job Pod 的终止]({zh}#job-pod-的终止)（[英文原文]({en}#termination-of-job-pods)）：信号。\n"
            f"* Jobs: {en}#a\n  (中文: {zh}#a)\n* Spark (see {en}#b).\n")
    assert malformed_urls(good) == []
    assert malformed_urls(f"* Job Pod 的终止：{zh}#job-pod-的终止英文原文：{en}#termination") == [
        f"{zh}#job-pod-的终止英文原文：{en}#termination"]
    assert malformed_urls(f"* 页面：{zh}#a）。") and malformed_urls(f"* [页面]({zh}#a 英文)")


@pytest.mark.parametrize("language", t.LANGUAGES)
def test_further_reading_points_where_the_language_has_its_pages(language: str) -> None:
    problems = [f"{path.relative_to(ROOT)}: {p}" for path in t.translations((language,))
                for p in reading_problems(path.read_text(encoding="utf-8"), language)]
    assert problems == [], "\n".join(problems)


def test_the_further_reading_check_refuses_a_russian_section_that_does_not_say_its_links_are_english() -> None:
    good = ("## Что почитать\n\nСтраницы о Job на русском нет, поэтому ссылки ведут на английские разделы.\n\n"
            "* Jobs: https://kubernetes.io/docs/concepts/workloads/controllers/job/#parallel-jobs\n\n+++\n\n## Проверка\n")
    assert reading_problems(good, "ru") == []
    silent = good.replace("Страницы о Job на русском нет, поэтому ссылки ведут на английские разделы.\n\n", "")
    assert reading_problems(silent, "ru") and reading_problems(good.replace("## Что почитать", "## Ссылки"), "ru")
    twice = good.replace("parallel-jobs\n", "parallel-jobs (на английском)\n")
    assert reading_problems(twice, "ru") == ["Further reading says more than once that the links are English"]
    assert reading_problems("## 延伸阅读\n\n* https://kubernetes.io/docs/x/#a\n", "zh-CN")


# ----------------------------------------------------------------------------- Chinese typography


@pytest.mark.parametrize("language", ["zh-CN", "zh-TW"])
def test_chinese_prose_has_no_stray_space_beside_bold_code_or_full_width_punctuation(language: str) -> None:
    problems = [f"{path.relative_to(ROOT)}: {p}" for path in t.translations((language,))
                for p in t.spacing_problems(path.read_text(encoding="utf-8"))]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("text", [
    "控制器创建 3 个 Pod，并设置 `.spec.completions` 字段。",          # Chinese | Latin, digits, code: one space
    "第四种操作 **FailIndex** 只让某个索引失败；**Pod 配额**（Pod quota）",  # a bold span of Latin text
    "按**单步**（Step），把**退出码**设为 42，然后看`期望`列。",            # bold or code of Chinese: no space
    "**你将学到**：这一课。\n\n| 中文 | English |\n|---|---|\n| **计数** | counts |",
    "A1：“需要Job負載， 其實就是對持久性負載的補充。 不過”",               # the article's own spaces, quoted
    "> 對於 工作隊列 Job，有任何 Job 成功結束之後。 不過",
    "```\n按 **单步**\n```",                                       # not prose
    "中文界面是“运行 → 运行所有单元格”，见[延伸阅读](#a)和 *Run All*。",       # italics, links: no space to Chinese
])
def test_the_spacing_check_accepts_kubernetes_io_zh_cn_spacing(text: str) -> None:
    assert t.spacing_problems(text) == []


@pytest.mark.parametrize(("text", "problem"), [
    ("然后按 **单步**（Step）", "a space between Chinese and a bold or code span of Chinese"),
    ("把 **退出码** 设为 42", "a space between a bold or code span of Chinese and Chinese"),
    ("列名是 `期望`", "a space between Chinese and a bold or code span of Chinese"),
    ("上限为 600 s。 最近：第 3 次失败", "a space beside full-width punctuation"),
    ("**同步。** Job 在创建时同步一次", "a space beside full-width punctuation"),
    ("规则 ，以及", "a space beside full-width punctuation"),
    ("中文界面是 *运行 → 运行所有单元格*", "a space between two Chinese characters"),
    ("见 [延伸阅读](#a)", "a space between two Chinese characters"),
    ("一行中文\n下一行中文", "a line break between two Chinese characters"),
    ("* 列表项的中文\n  接着写**加粗**", "a line break between two Chinese characters"),
    ("**你将学到：**这一课", "a '**' that opens or closes no bold span"),
])
def test_the_spacing_check_finds_what_renders_as_a_stray_space(text: str, problem: str) -> None:
    found = t.spacing_problems(text)
    assert any(problem in f for f in found), found


# ----------------------------------------------------------------------------- zh-TW: no mainland words

MAINLAND_TERMS = ROOT / "tools" / "zh_tw_mainland_terms.tsv"
"""Mainland words with their Taiwan replacement (data beside tools/zh_tw_overrides.tsv)."""


def mainland_terms() -> list[tuple[str, str]]:
    rows = []
    for line in MAINLAND_TERMS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            term, taiwan = line.split("\t")[:2]
            rows.append((term, taiwan))
    return rows


def _notebook_text(path: Path) -> str:
    """A lesson as a learner reads it: every cell's source (prose, code, exercise texts), from the .ipynb."""
    import json

    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n\n".join("".join(c["source"]) if isinstance(c["source"], list) else c["source"] for c in cells)


def mainland_hits(zh_tw: str, zh_cn: str, terms: list[tuple[str, str]]) -> list[str]:
    """Each listed mainland word in the generated zh-TW text, with its context and the Taiwan word.

    A quotation the converter left as written (an article quoted in traditional characters: the
    same text stands between “ ” in the zh-CN source) is the article's wording and is not counted."""
    kept = [m.span() for m in re.finditer(r"「([^「」\n]+)」", zh_tw) if f"“{m.group(1)}”" in zh_cn]
    hits = []
    for term, taiwan in terms:
        for m in re.finditer(re.escape(term), zh_tw):
            if any(a <= m.start() and m.end() <= b for a, b in kept):
                continue
            context = zh_tw[max(0, m.start() - 20): m.end() + 20].replace("\n", " ")
            hits.append(f"{term} → {taiwan}: …{context}…")
    return hits


def test_the_mainland_word_check_finds_a_word_and_spares_a_quotation() -> None:
    terms = [("列印", "輸出"), ("創建", "建立")]
    zh_cn = "Pod 打印一行字；A1 引用文件说：“刪除 Job 的操作會清除所創建的全部 Pods。”"
    zh_tw = "Pod 列印一行字；A1 引用文件說：「刪除 Job 的操作會清除所創建的全部 Pods。」"
    hits = mainland_hits(zh_tw, zh_cn, terms)
    assert len(hits) == 1 and hits[0].startswith("列印 → 輸出: …Pod 列印一行字；")       # 創建 inside the quotation is spared
    assert mainland_hits(zh_tw.replace("列印", "輸出"), zh_cn, terms) == []
    assert mainland_hits("我們創建了 Pod", "我们创建了 Pod", terms)          # our own words are not a quotation


def test_the_mainland_word_list_is_data_with_a_taiwan_word_for_each() -> None:
    terms = mainland_terms()
    assert len(terms) >= 20
    assert all(term and taiwan and term != taiwan for term, taiwan in terms)
    # what the review of 2026-12 (section 4) named is listed
    listed = {term for term, _ in terms}
    assert {"上報", "考察", "頂部", "瓦片", "預處理", "列印", "跳轉", "標籤頁", "滑塊", "實現", "**應用**"} <= listed


@pytest.mark.parametrize("lesson", sorted(p.name for p in (NOTEBOOKS / "zh-TW").glob("*.ipynb")))
def test_no_mainland_word_in_a_zh_tw_lesson(lesson: str) -> None:
    zh_tw = _notebook_text(NOTEBOOKS / "zh-TW" / lesson)
    zh_cn = _notebook_text(NOTEBOOKS / "zh-CN" / lesson)
    hits = mainland_hits(zh_tw, zh_cn, mainland_terms())
    assert not hits, (f"zh-TW/{lesson}: mainland words (fix the zh-CN source or add a reviewed line to "
                      "tools/zh_tw_overrides.tsv, then rebuild):\n  " + "\n  ".join(hits))


def test_no_mainland_word_in_the_zh_tw_catalog() -> None:
    from babel.messages.pofile import read_po

    def strings(locale: str) -> dict[object, str]:
        with open(ROOT / "k8sjobs" / "locale" / locale / "LC_MESSAGES" / "k8sjobs.po", "rb") as fh:
            cat = read_po(fh, locale=locale)
        return {(m.context, m.id if isinstance(m.id, str) else m.id[0]):
                m.string if isinstance(m.string, str) else "\n".join(m.string) for m in cat if m.id}

    zh_cn, zh_tw = strings("zh_CN"), strings("zh_TW")
    hits = [f"{key[1]!r}: {hit}" for key, text in zh_tw.items()
            for hit in mainland_hits(text, zh_cn.get(key, ""), mainland_terms())]
    assert not hits, ("zh_TW catalog: mainland words (fix the zh_CN message or add a reviewed line to "
                      "tools/zh_tw_overrides.tsv, then tools/i18n.py all):\n  " + "\n  ".join(hits))
