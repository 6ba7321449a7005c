"""A plural sentence must be true of every count it is shown for.

Russian uses the form of 1 for 21, 31, 101 ... and Chinese has one form for every count. A sentence
that, after its count, goes on about "the pod" or "it" in the singular is right for 1 pod and wrong
for 21 ("удаляется 21 активный под; ..., поэтому под не считается неуспешным"), or in Chinese wrong
for 2 ("删除 2 个活跃 Pod；……那个 Pod 不计为失败").

How the Russian check finds such a sentence: it renders each plural message of the compiled
catalog at n = 21 and at n = 5 (every placeholder filled with n) and lines the words up. Where the
two renderings differ after the counted noun (the first pod, container, finalizer, index or node
noun after the number), the translator made that word agree with the count; if the n = 21 word
there is a singular form of such a noun, or a singular pronoun (он, нём, которого ...), the
sentence talks about one thing. A predicate that agrees with the counted noun ("21 под завершился")
is not such a word; a clause that is the same for every count ("под заменяется только после ...",
a general rule) is not a difference. The Chinese check looks for "that/this pod" (那个 Pod, 该 Pod
...) in the one form.
"""

from __future__ import annotations

import difflib
import gettext
import io
import re

import pytest
from babel.messages.catalog import Catalog
from i18n_support import tool

COUNTS = (1, 2, 5, 21, 22)

# Singular forms (every case) of the nouns a count in this catalog counts; plural forms are not listed.
_SINGULAR_NOUNS = {
    "под", "пода", "поду", "подом", "поде",
    "контейнер", "контейнера", "контейнеру", "контейнером", "контейнере",
    "sidecar-контейнер", "sidecar-контейнера", "sidecar-контейнеру", "sidecar-контейнером", "sidecar-контейнере",
    "финализатор", "финализатора", "финализатору", "финализатором", "финализаторе",
    "индекс", "индекса", "индексу", "индексом", "индексе",
    "узел", "узла", "узлу", "узлом", "узле",
}
_SINGULAR_PRONOUNS = {
    "он", "оно", "она", "него", "нему", "ним", "нём", "нем", "его", "ему", "её", "ее", "ней", "неё",
    "который", "которого", "которому", "которым", "котором", "которое", "которая", "которой", "которую",
    "этот", "этого", "этому", "этим", "этом",
}
_ZH_ONE_POD = re.compile(r"(那个|这个|该|此|那個|這個|該|它(?![们們]))\s*Pod")
_FIELD = re.compile(r"\{([^{}]*)\}")


def _words(text: str) -> list[str]:
    return re.findall(r"[\w-]+", text.lower())


def _fill(template: str, n: int) -> str:
    """The message with every placeholder ({n}, {count}, {names}, {delay:g} ...) replaced by n."""
    return _FIELD.sub(str(n), template.replace("{{", "(").replace("}}", ")"))


def plural_messages(locale: str, mo: gettext.GNUTranslations | None = None) -> list[tuple[str, dict[int, str]]]:
    """(English plural, {n: the translation rendered for n}) for every plural message of a catalog."""
    t = tool()
    cat = t._read(t.po_path(locale), locale)
    if mo is None:
        mo = gettext.GNUTranslations(io.BytesIO(t.mo_path(locale).read_bytes()))
    return _render(cat, mo)


def _render(cat: Catalog, mo: gettext.GNUTranslations) -> list[tuple[str, dict[int, str]]]:
    out = []
    for m in cat:
        if not m.id or not m.pluralizable:
            continue
        singular, plural = m.id
        forms = {}
        for n in COUNTS:
            text = (mo.npgettext(m.context, singular, plural, n) if m.context
                    else mo.ngettext(singular, plural, n))
            forms[n] = _fill(text, n)
        out.append((plural, forms))
    return out


def ru_problems(forms: dict[int, str]) -> list[str]:
    """Words of the n = 21 sentence that talk about one thing where the n = 5 sentence says many."""
    one, many = _words(forms[21]), _words(forms[5])
    # The counted noun: the first singular noun within three words after a "21".
    counted = None
    for i, w in enumerate(one):
        if w == "21":
            counted = next((j for j in range(i + 1, min(i + 4, len(one))) if one[j] in _SINGULAR_NOUNS), None)
            if counted is not None:
                break
    if counted is None:
        return []
    problems = []
    matcher = difflib.SequenceMatcher(a=one, b=many, autojunk=False)
    for tag, i1, i2, _j1, _j2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            for i in range(max(i1, counted + 1), i2):
                if one[i] in _SINGULAR_NOUNS or one[i] in _SINGULAR_PRONOUNS:
                    problems.append(one[i])
    return problems


def test_every_ru_plural_message_renders_at_every_count():
    rendered = plural_messages("ru")
    assert len(rendered) >= 50, "the ru catalog's plural messages were not found"
    for english, forms in rendered:
        for n, text in forms.items():
            assert text.strip() and "{" not in text, (english, n, text)


def test_no_ru_plural_sentence_talks_about_one_pod_when_n_is_21():
    bad = []
    for english, forms in plural_messages("ru"):
        words = ru_problems(forms)
        if words:
            bad.append(f"{english!r}\n  21: {forms[21]}\n   5: {forms[5]}\n  singular after the count: {words}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("locale", ["zh_CN", "zh_TW"])
def test_no_zh_plural_sentence_talks_about_one_pod(locale):
    bad = []
    for english, forms in plural_messages(locale):
        for n in (2, 21):
            if _ZH_ONE_POD.search(forms[n]):
                bad.append(f"{english!r}\n  {n}: {forms[n]}")
    assert not bad, "\n".join(bad)


# The checks themselves: each catches the sentence it was written for, and passes its fix.
@pytest.mark.parametrize(("forms", "caught"), [
    # The ru catalog of 2026-11 (review of 2026-12, messages 204, 223, 116 of its numbering).
    (("приостановлен: удаляется {count} активный под; финализатор снимается заранее, поэтому под не считается неуспешным",
      "приостановлен: удаляются все {count} активных пода; финализаторы снимаются заранее, поэтому поды не считаются неуспешными",
      "приостановлен: удаляются все {count} активных подов; финализаторы снимаются заранее, поэтому поды не считаются неуспешными"),
     ["финализатор", "под"]),
    (("{n} завершённый под ещё не учтён (на нём ещё стоит финализатор отслеживания): {names}",
      "{n} завершённых пода ещё не учтены (на них ещё стоит финализатор отслеживания): {names}",
      "{n} завершённых подов ещё не учтены (на них ещё стоит финализатор отслеживания): {names}"),
     ["нём"]),
    (("занято {used}: {outside} — подом, которого в снимке нет; считается, что он останется.",
      "занято {used}: {outside} — подами, которых в снимке нет; считается, что они останутся.",
      "занято {used}: {outside} — подами, которых в снимке нет; считается, что они останутся."),
     ["которого", "он"]),
    # Agreement with the count is not talk about one pod; a general rule the same for every count neither.
    (("успех: {n} под завершился успешно, активных подов нет",
      "успех: {n} пода завершились успешно, активных подов нет",
      "успех: {n} подов завершились успешно, активных подов нет"), []),
    (("{n} завершающийся под пока не заменяется: под заменяется только после перехода в Failed",
      "{n} завершающихся пода пока не заменяются: под заменяется только после перехода в Failed",
      "{n} завершающихся подов пока не заменяются: под заменяется только после перехода в Failed"), []),
])
def test_the_ru_check_catches_a_singular_pod_after_the_count(forms, caught):
    cat = Catalog(locale="ru", domain="k8sjobs")
    cat.add(("one {n} pod", "many {n} pods"), forms)
    mo = gettext.GNUTranslations(io.BytesIO(tool()._render_mo(cat)))
    [(_english, rendered)] = _render(cat, mo)
    assert ru_problems(rendered) == caught


def test_the_zh_check_catches_that_pod():
    assert _ZH_ONE_POD.search("已挂起：删除全部 21 个活跃 Pod；先移除那个 Pod 的 Finalizer")
    assert _ZH_ONE_POD.search("已暫停：刪除全部 21 個活躍 Pod；該 Pod 不計為失敗")
    assert not _ZH_ONE_POD.search("已挂起：删除全部 21 个活跃 Pod；先移除它们的 Finalizer，所以它们不会被计为失败")
