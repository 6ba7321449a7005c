"""The catalogs: extracted from the source, merged, compiled and converted (zh-TW) exactly as
tools/i18n.py makes them, with every translated message's placeholders intact."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from functools import cache

import pytest
from i18n_support import ROOT, tool

from k8sjobs import i18n


def test_the_pot_po_and_mo_files_are_what_the_source_makes():
    stale = [str(p.relative_to(ROOT)) for p in tool().stale()]
    assert stale == [], f"stale catalogs {stale}: run .venv/bin/python tools/i18n.py all"


@cache
def _catalogs_from_the_current_source() -> dict:
    """Each shipped catalog merged with a fresh extraction: a message added to the source since the
    last ``tools/i18n.py all`` is in it, untranslated."""
    from babel.messages.pofile import read_po

    t = tool()
    files = t.expected_files()
    return {loc: read_po(io.BytesIO(files[t.po_path(loc)]), locale=loc, domain=t.DOMAIN) for loc in t.LOCALES}


@pytest.mark.parametrize("locale", ["zh_CN", "zh_TW", "ru"])
def test_every_shipped_catalog_translates_every_message_of_the_source_with_none_fuzzy(locale):
    t = tool()
    cat = _catalogs_from_the_current_source()[locale]
    assert t.incomplete(cat) == [], f"translate these in {t.po_path(locale if locale != 'zh_TW' else 'zh_CN')}"
    counts = t.stats(cat)
    assert counts["messages"] == len(t.extract()) and counts["untranslated"] == counts["fuzzy"] == 0, counts
    # What ships is that same catalog (nothing stale against the .pot), so a learner reads it too.
    assert t.po_path(locale).read_bytes() == t._render_po(cat)


def test_the_completeness_check_catches_untranslated_fuzzy_and_half_translated_plural_messages():
    from babel.messages.catalog import Catalog

    t = tool()
    cat = Catalog(locale="ru", domain="k8sjobs")
    cat.add("Step", "Шаг")
    cat.add("Play", "")
    cat.add("Back", "Назад", flags=("fuzzy",))
    cat.add(("{n} pod", "{n} pods"), ("{n} под", "{n} пода", ""))
    cat.add(("{n} node", "{n} nodes"), ("{n} узел", "{n} узла", "{n} узлов"))
    cat.add("created", "", context="deletion-order column")
    problems = t.incomplete(cat)
    assert problems == [
        "ru: 'Play': untranslated",
        "ru: 'Back': fuzzy (check the suggestion, then remove the flag)",
        "ru: '{n} pod': untranslated (1 of 3 forms missing)",
        "ru: 'created' (context 'deletion-order column'): untranslated",
    ]
    assert t.stats(cat)["untranslated"] == 3 and t.stats(cat)["fuzzy"] == 1


def test_a_message_added_to_the_source_since_the_last_extraction_counts_as_untranslated():
    from babel.messages.catalog import Catalog

    t = tool()
    template = Catalog(domain="k8sjobs")
    template.add("Step")
    template.add("a message added since")
    shipped = Catalog(locale="zh_CN", domain="k8sjobs")
    shipped.add("Step", "单步")
    assert t.incomplete(t.merged("zh_CN", template, shipped)) == ["zh_CN: 'a message added since': untranslated"]


def test_zh_tw_is_what_opencc_and_the_overrides_make_of_zh_cn():
    t = tool()
    zh_cn = t._read(t.po_path("zh_CN"), "zh_CN")
    assert t._render_po(t.make_zh_tw(zh_cn)) == t.po_path("zh_TW").read_bytes(), \
        "zh_TW is stale against zh_CN: run .venv/bin/python tools/i18n.py zh-tw (then compile)"


@pytest.mark.parametrize(("zh_cn", "zh_tw"), [
    ("创建集群的程序默认数据", "建立叢集的程式預設資料"),
    ("容器退出代码为 42", "容器結束代碼為 42"),
    ("并行运行 {count} 个 Pod", "平行執行 {count} 個 Pod"),
    ("权限不足", "權限不足"),
])
def test_zh_tw_conversion_uses_taiwan_phrases_and_the_reviewed_overrides(zh_cn, zh_tw):
    import opencc

    t = tool()
    assert t.to_taiwan(zh_cn, opencc.OpenCC("s2twp"), t.load_overrides()) == zh_tw


@pytest.mark.parametrize("locale", ["zh_CN", "zh_TW", "ru"])
def test_babel_format_checks_pass_for_every_translated_message(locale):
    t = tool()
    cat = t._read(t.po_path(locale), locale)
    assert t.format_problems(cat) == []


def test_the_format_check_catches_a_changed_or_missing_placeholder():
    from babel.messages.catalog import Catalog

    t = tool()
    cat = Catalog(locale="ru")
    cat.add("waiting {delay:g} s", "ожидание {delay} с")
    cat.add("deleted {pod}", "удалён")
    cat.add(("{n} pod", "{n} pods"), ("{n} под", "{n} пода", "{count} подов"))
    problems = t.format_problems(cat)
    assert len(problems) == 3, problems


def test_placeholders_are_read_with_their_format_specs():
    assert tool().placeholders("t={t:g} s, {pod!r}, {{literal}}") == ["pod!r", "t:g"]


def test_every_language_has_a_compiled_catalog_with_its_plural_rule():
    for language in i18n.LANGUAGES[1:]:
        catalog = i18n.translations(language)
        assert catalog.info()["language"] == i18n.locale_name(language)
    ru = i18n.translations("ru")
    assert "nplurals=3" in ru.info()["plural-forms"]


def test_the_compiled_catalogs_ship_as_package_data():
    text = (ROOT / "pyproject.toml").read_text()
    assert '"locale/*/LC_MESSAGES/*.mo"' in text
    for loc in ("zh_CN", "zh_TW", "ru"):
        assert (ROOT / "k8sjobs" / "locale" / loc / "LC_MESSAGES" / "k8sjobs.mo").is_file()


def test_the_check_command_reports_up_to_date_catalogs():
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "i18n.py"), "check"], capture_output=True,
                         text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "up to date" in out.stdout


def test_the_template_marks_plurals_and_contexts():
    cat = tool().extract()
    assert any(m.pluralizable for m in cat) and any(m.context for m in cat)
    ids = [m.id if isinstance(m.id, str) else " / ".join(m.id) for m in cat if m.id]
    assert [i for i in ids if re.search(r"[a-z]\(s\)", i)] == [], "a count meets a noun: use ngettext, not (s)"


@pytest.mark.parametrize(("locale", "n", "shown"), [
    ("zh_CN", 1, "deleting all 1 active pod"), ("zh_CN", 2, "deleting all 2 active pods"),
    ("ru", 1, "deleting all 1 active pod"), ("ru", 21, "deleting all 21 active pods"),
    ("ru", 5, "deleting all 5 active pods"),
])
def test_an_untranslated_plural_message_shows_the_english_form_for_its_count(locale, n, shown):
    # Babel compiles a missing plural form as the English singular (form 0) or plural (the others):
    # Chinese has one form, so a half-translated catalog said "deleting all 2 active pod".
    import gettext
    import io

    from babel.messages.catalog import Catalog

    t = tool()
    cat = Catalog(locale=locale, domain="k8sjobs")
    cat.add(("deleting all {n} active pod", "deleting all {n} active pods"), ("",) * cat.num_plurals)
    cat.add(("{n} pod", "{n} pods"), ("{n} 个 Pod",) if locale == "zh_CN" else ("{n} под", "{n} пода", "{n} подов"))
    mo = gettext.GNUTranslations(io.BytesIO(t._render_mo(cat)))
    assert mo.ngettext("deleting all {n} active pod", "deleting all {n} active pods", n).format(n=n) == shown
    translated = mo.ngettext("{n} pod", "{n} pods", n).format(n=n)
    assert translated != f"{n} pod" and translated != f"{n} pods", "a translated plural is still compiled"
