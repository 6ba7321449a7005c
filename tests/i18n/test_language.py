"""Choosing the language: set_language, K8SJOBS_LANG, and what follows the choice."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from k8sjobs import i18n, set_language


def test_an_unknown_language_is_an_error_listing_the_known_ones():
    with pytest.raises(ValueError) as err:
        set_language("fr")
    assert str(err.value) == "unknown language 'fr': choose one of en, zh-CN, zh-TW, ru"
    assert i18n.get_language() == "en"


@pytest.mark.parametrize(("given", "tag"), [("zh_CN", "zh-CN"), ("ZH-tw", "zh-TW"), ("ru", "ru"), ("EN", "en")])
def test_language_tags_are_read_whatever_their_case_and_separator(given, tag):
    try:
        assert set_language(given) == tag and i18n.get_language() == tag
    finally:
        set_language("en")


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if k != i18n.ENV_VAR}
    full.update(env)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full)


def test_k8sjobs_lang_chooses_the_language_at_import():
    out = run_python("import k8sjobs; print(k8sjobs.get_language())", K8SJOBS_LANG="ru")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ru"


def test_a_bad_k8sjobs_lang_names_the_variable_and_the_known_languages_and_the_import_still_works():
    out = run_python("import k8sjobs; print(k8sjobs.i18n.get_language())", K8SJOBS_LANG="klingon")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "en"
    assert ("K8SJOBS_LANG=klingon: unknown language 'klingon': choose one of en, zh-CN, zh-TW, ru; using English"
            in out.stderr)


def test_ngettext_uses_the_russian_plural_rule():
    ru = i18n.translations("ru")
    forms = [ru._catalog and ru.plural(n) for n in (1, 2, 5, 11, 21, 22, 25)]
    assert forms == [0, 1, 2, 2, 0, 1, 2]


def test_an_explorer_and_an_exercise_created_after_the_choice_speak_that_language():
    pytest.importorskip("ipywidgets")
    from i18n_support import DOCS, tool

    from k8sjobs import Exercise, Explorer

    previous = i18n.use_translations(tool().pseudo_translations(), "pseudo")
    try:
        ex = Explorer((DOCS / "job.yaml").read_text())
        quiz = Exercise("How many?", kind="number", answer=1, run=None, explanation="One.")
    finally:
        i18n.use_translations(*previous)
    assert ex.step_button.description.startswith("\u27e6") and ex.tools.titles[0].startswith("\u27e6")
    assert quiz.check_button.description.startswith("\u27e6")
    english = Explorer((DOCS / "job.yaml").read_text())
    assert english.step_button.description == "Step"


def test_the_cli_takes_lang_before_or_after_the_command_and_refuses_an_unknown_one(capsys):
    from i18n_support import DOCS

    from k8sjobs.cli import main

    try:
        assert main(["--lang", "ru", "run", str(DOCS / "job.yaml"), "--format", "none"]) == 0
        assert i18n.get_language() == "ru"
        assert main(["run", "--lang=zh-TW", str(DOCS / "job.yaml"), "--format", "none"]) == 0
        assert i18n.get_language() == "zh-TW"
    finally:
        set_language("en")
    assert main(["--lang", "xx", "run", str(DOCS / "job.yaml")]) == 2
    err = capsys.readouterr().err
    assert "--lang: unknown language 'xx': choose one of en, zh-CN, zh-TW, ru" in err
