"""The README: its first lines are the two commands, and its Binder badges match the one address."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _binder_links():
    spec = importlib.util.spec_from_file_location("binder_links", ROOT / "tools" / "binder_links.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_starts_with_the_lessons_command_and_the_test_command() -> None:
    commands = [line.strip() for line in README.splitlines()[1:6] if line.startswith("    ")]
    assert commands[0].startswith("sh tools/lessons.sh")
    assert commands[1].startswith("sh tools/test.sh")


def test_ci_runs_the_readmes_test_command() -> None:
    assert "sh tools/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_binder_badges_are_generated_from_the_repository_address() -> None:
    links = _binder_links()
    assert links.badges() in README, "run: python3 tools/binder_links.py --write"
    repo = links.repository()
    assert f"mybinder.org/v2/gh/{repo}/HEAD?urlpath=lab/tree/notebooks/en/00-start-here.ipynb" in README
    assert f"mybinder.org/v2/gh/{repo}/HEAD?urlpath=voila/render/notebooks/en/00-start-here.ipynb" in README


def test_the_badges_point_at_the_start_page_that_exists() -> None:
    assert (ROOT / _binder_links().START).is_file()
