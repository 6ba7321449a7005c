"""A lesson opened in JupyterLite from an older browser copy says so (k8sjobs.older_copy_notice).

Checked here without a browser (the kernel's view is given: the execute request's cell id, the
folder, the site's list of build ids); tests/lite checks it in the site itself. Also: every
committed lesson carries its build id, and the site's list (tools/lite.py) is made of them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import k8sjobs
from k8sjobs import i18n, older_copy_notice

ROOT = Path(__file__).resolve().parents[1]


def lesson_copy(folder: Path, build: str | None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    meta = {"k8sjobs": {"concepts": [], **({"build": build} if build else {})}}
    (folder / "06-expectations.ipynb").write_text(json.dumps({"metadata": meta, "cells": []}), encoding="utf-8")


def request(cell_id: str = "06-expectations-000") -> dict:
    return {"header": {"msg_type": "execute_request"}, "metadata": {"cellId": cell_id}}


def test_an_older_browser_copy_of_the_lesson_is_named_with_the_way_back(tmp_path):
    lesson_copy(tmp_path / "en", "0123456789ab")
    said = older_copy_notice(request(), str(tmp_path / "en"), {"en/06-expectations.ipynb": "ba9876543210"})
    assert said is not None and "06-expectations.ipynb" in said and "Delete" in said and "older" in said


@pytest.mark.parametrize("build, shipped, cell_id", [
    ("0123456789ab", {"en/06-expectations.ipynb": "0123456789ab"}, "06-expectations-000"),  # the shipped lesson
    ("0123456789ab", {"ru/06-expectations.ipynb": "ba9876543210"}, "06-expectations-000"),  # not a lesson of the site
    ("0123456789ab", {"en/07-failures.ipynb": "ba9876543210"}, "07-failures-000"),         # no such file here
    (None, {"en/06-expectations.ipynb": "ba9876543210"}, "06-expectations-000"),            # no id in the copy
])
def test_nothing_is_said_of_a_current_or_unknown_lesson(tmp_path, build, shipped, cell_id):
    lesson_copy(tmp_path / "en", build)
    if build is None:
        assert older_copy_notice(request(cell_id), str(tmp_path / "en"), shipped) is not None, \
            "a copy saved before lessons had build ids is older than any shipped lesson"
    else:
        assert older_copy_notice(request(cell_id), str(tmp_path / "en"), shipped) is None


def test_without_a_cell_id_nothing_is_said(tmp_path):
    lesson_copy(tmp_path / "en", "0123456789ab")
    assert older_copy_notice({"metadata": {}}, str(tmp_path / "en"), {"en/06-expectations.ipynb": "x"}) is None


def test_the_notice_speaks_the_lessons_language(tmp_path):
    lesson_copy(tmp_path / "ru", "0123456789ab")
    previous = i18n.get_language()
    try:
        for language, word in (("ru", "копию"), ("zh-CN", "副本"), ("zh-TW", "副本")):
            i18n.set_language(language)
            said = older_copy_notice(request(), str(tmp_path / "ru"), {"ru/06-expectations.ipynb": "x"})
            assert word in said and "06-expectations.ipynb" in said, said
    finally:
        i18n.set_language(previous)


def test_set_language_says_nothing_outside_the_browser(capsys):
    assert sys.platform != "emscripten"
    assert k8sjobs.set_language("en") == "en"
    assert capsys.readouterr().out == ""


def test_every_lesson_carries_its_build_id_and_the_site_lists_them():
    import nbformat

    from tools import build_lessons as tool
    from tools import lite

    listed = lite.site_lessons()
    notebooks = sorted((ROOT / "notebooks").glob("*/[0-9][0-9]-*.ipynb"))
    assert len(listed) == len(notebooks) >= 64
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        assert nb.metadata["k8sjobs"]["build"] == tool.build_id(nb), path
        assert listed[f"{path.parent.name}/{path.name}"] == nb.metadata["k8sjobs"]["build"]
