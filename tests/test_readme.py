"""The READMEs: their first lines are the two commands, their Binder badges match the one address and
open their language's start page, and the lessons command opens the language asked for."""

from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tools import binder_links

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_readme_starts_with_the_lessons_command_and_the_test_command() -> None:
    commands = [line.strip() for line in README.splitlines()[1:6] if line.startswith("    ")]
    assert commands[0].startswith("sh tools/lessons.sh")
    assert commands[1].startswith("sh tools/test.sh")


def test_ci_runs_the_readmes_test_command() -> None:
    assert "sh tools/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_binder_badges_are_generated_from_the_repository_address() -> None:
    links = binder_links
    assert links.badges() in README, "run: python3 tools/binder_links.py --write"
    repo = links.repository()
    assert f"mybinder.org/v2/gh/{repo}/HEAD?urlpath=lab/tree/notebooks/en/00-start-here.ipynb" in README
    assert f"mybinder.org/v2/gh/{repo}/HEAD?urlpath=voila/render/notebooks/en/00-start-here.ipynb" in README


def test_the_badges_point_at_the_start_page_that_exists() -> None:
    assert (ROOT / binder_links.START).is_file()


# ----------------------------------------------------------------------------- one README per language

LANGUAGES = ("en", "zh-CN", "zh-TW", "ru")


def _readme(language: str) -> str:
    return (ROOT / binder_links.README[language]).read_text(encoding="utf-8")


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_each_languages_readme_starts_with_its_lessons_command_and_the_test_command(language: str) -> None:
    lines = _readme(language).splitlines()
    title = next(i for i, line in enumerate(lines) if line.startswith("# "))
    commands = [line.strip() for line in lines[title + 1:title + 6] if line.startswith("    ")]
    assert commands[0].startswith(f"sh tools/lessons.sh {language} "), commands
    assert commands[1].startswith("sh tools/test.sh"), commands


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_readme_has_the_generated_badges_of_its_language_and_links_every_other_language(language: str) -> None:
    links = binder_links
    path = ROOT / links.README[language]
    assert path.read_text(encoding="utf-8") == links.expected()[path], \
        "run: .venv/bin/python tools/binder_links.py --write (README.zh-TW.md is generated from README.zh-CN.md)"
    text = _readme(language)
    repo = links.repository()
    for app in ("lab/tree", "voila/render"):
        assert f"mybinder.org/v2/gh/{repo}/HEAD?urlpath={app}/notebooks/{language}/00-start-here.ipynb" in text
    for other in LANGUAGES:
        if other != language:
            assert f"]({links.README[other]})" in text, f"{path.name} does not link {links.README[other]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_readmes_jupyterlite_line_links_a_section_that_exists(language: str) -> None:
    links = binder_links
    target = links.lite_limits(language)
    page, fragment = target.split("#")
    text = (ROOT / page).read_text(encoding="utf-8") if page else _readme(language)
    headings = [line[3:].strip() for line in text.splitlines() if line.startswith("## ")]
    assert "#" + fragment in [links.anchor(h) for h in headings], f"{links.README[language]}: no section {target}"
    if links.lite_section(language):
        assert not page, "a README with its own JupyterLite section links it, not the English one"


@pytest.mark.parametrize("heading, fragment", [
    ("The lessons in your browser (JupyterLite)", "#the-lessons-in-your-browser-jupyterlite"),
    ("Уроки в браузере (JupyterLite)", "#уроки-в-браузере-jupyterlite"),
    ("在浏览器中学习（JupyterLite）", "#在浏览器中学习jupyterlite"),
    ("What is where", "#what-is-where"),
])
def test_a_heading_gets_the_fragment_github_gives_it(heading: str, fragment: str) -> None:
    assert binder_links.anchor(heading) == fragment


def test_the_zh_tw_readme_is_the_zh_cn_one_in_taiwan_chinese() -> None:
    zh_tw = _readme("zh-TW")
    assert zh_tw.startswith("<!-- generated from README.zh-CN.md")
    assert "sh tools/lessons.sh zh-TW" in zh_tw and "notebooks/zh-TW/00-start-here.ipynb" in zh_tw
    assert "叢集" in zh_tw and "集群" not in zh_tw, "s2twp's Taiwan words"


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_badge_opens_a_start_page_that_exists_or_is_awaiting_translation(language: str) -> None:
    from test_translations import AWAITING

    start = ROOT / binder_links.start(language)
    assert start.is_file() or (language != "en" and "00-start-here" in AWAITING[language]), start


def _lessons(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", str(ROOT / "tools" / "lessons.sh"), *args], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=60, check=False)


@pytest.mark.parametrize("args, opens", [
    ((), "notebooks/en/"),
    (("--no-browser",), "notebooks/en/"),
    (("en",), "notebooks/en/"),
    (("zh-CN",), "notebooks/zh-CN"),
    (("zh-TW", "--no-browser"), "notebooks/zh-TW"),
    (("ru",), "notebooks/ru"),
])
def test_the_lessons_command_opens_the_start_page_of_the_language_asked_for(args, opens) -> None:
    out = _lessons(*args, K8SJOBS_DRY_RUN="1")
    assert out.returncode == 0, out.stderr
    target = out.stdout.strip().splitlines()[-1]
    assert target.startswith(f"would open: lab/tree/{opens}"), target
    language = opens.split("/")[1]
    if (ROOT / "notebooks" / language / "00-start-here.ipynb").exists():
        assert target == f"would open: lab/tree/notebooks/{language}/00-start-here.ipynb"


@pytest.mark.parametrize("language", ["fr", "zh", "zh_CN", "RU"])
def test_the_lessons_command_refuses_an_unknown_language_and_names_the_known_ones(language: str) -> None:
    out = _lessons(language, K8SJOBS_DRY_RUN="1")
    assert out.returncode == 2
    assert f"unknown language '{language}': choose one of: en zh-CN zh-TW ru" in out.stderr


def test_the_lessons_command_starts_jupyterlab_on_the_languages_start_page(tmp_path: Path) -> None:
    # The real server, once: "/" redirects to the language's start page (LabApp.default_url).
    # K8SJOBS_NO_SETUP: this test runs inside the .venv, which setup must not touch meanwhile.
    env = {**os.environ, "K8SJOBS_PORT": str(_free_port()), "K8SJOBS_TOKEN": "t0ken", "K8SJOBS_NO_SETUP": "1"}
    for var in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR",
                "JUPYTERLAB_SETTINGS_DIR", "JUPYTERLAB_WORKSPACES_DIR"):
        env[var] = str(tmp_path / var)
    proc = subprocess.Popen(["sh", str(ROOT / "tools" / "lessons.sh"), "ru", "--no-browser"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        location = None
        for _ in range(720):  # up to three minutes: JupyterLab starts slowly on a busy machine
            if proc.poll() is not None:
                break  # the launcher stopped: the assertion below says so
            try:
                conn = http.client.HTTPConnection("127.0.0.1", int(env["K8SJOBS_PORT"]), timeout=2)
                conn.request("GET", "/?token=t0ken")
                location = conn.getresponse().getheader("Location")
                break
            except OSError:
                time.sleep(0.25)
        want = "/lab/tree/notebooks/ru/00-start-here.ipynb" if (ROOT / "notebooks/ru/00-start-here.ipynb").exists() \
            else "/lab/tree/notebooks/ru"
        assert location is not None and location.split("?")[0].endswith(want), location
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(30)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
