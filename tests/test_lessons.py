"""The lessons: every concept taught, notebooks clean and in sync with their sources, public API only.

Concept ids come from ``notebooks/concepts/concepts.md`` (a copy of the curriculum in
``../shared/lessons/concepts.md``). Lesson notebooks are ``notebooks/en/NN-*.ipynb``; each
is built from its MyST markdown twin by ``tools/build_lessons.py``.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LESSONS = sorted((ROOT / "notebooks" / "en").glob("[0-9][0-9]-*.ipynb"))
CONCEPTS_MD = ROOT / "notebooks" / "concepts" / "concepts.md"
SHARED_CONCEPTS = ROOT.parent / "shared" / "lessons" / "concepts.md"
REQUIRED = {f"C{i:02d}" for i in range(1, 29)}


def concept_ids() -> set[str]:
    return set(re.findall(r"^- (C\d\d) ", CONCEPTS_MD.read_text(encoding="utf-8"), flags=re.M))


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def code_cells(nb: dict) -> list[dict]:
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def src(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def test_there_is_a_start_page_and_lessons() -> None:
    names = [p.name for p in LESSONS]
    assert names and names[0] == "00-start-here.ipynb", names
    assert len(names) >= 12


def test_every_required_concept_is_taught_by_a_lesson() -> None:
    known = concept_ids()
    assert REQUIRED <= known
    taught: dict[str, list[str]] = {}
    for path in LESSONS:
        ids = load(path)["metadata"].get("k8sjobs", {}).get("concepts")
        assert isinstance(ids, list), f"{path.name}: metadata.k8sjobs.concepts is missing"
        unknown = set(ids) - known
        assert not unknown, f"{path.name}: unknown concept ids {sorted(unknown)}"
        for cid in ids:
            taught.setdefault(cid, []).append(path.name)
    missing = REQUIRED - set(taught)
    assert not missing, f"concepts no lesson teaches: {sorted(missing)}"


@pytest.mark.parametrize("path", [p for p in LESSONS if not p.name.startswith("00-")], ids=lambda p: p.stem)
def test_each_lesson_has_an_exercise(path: Path) -> None:
    # Its answer is confirmed in "Checking the answers" (tests/test_lesson_shape.py checks that).
    nb = load(path)
    tagged = [c for c in code_cells(nb) if "exercise" in c.get("metadata", {}).get("tags", [])]
    assert tagged, f"{path.name}: no code cell tagged 'exercise'"
    assert any("Exercise(" in src(c) for c in tagged), f"{path.name}: the exercise cell builds no Exercise"


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_lessons_import_only_the_public_api(path: Path) -> None:
    for cell in code_cells(load(path)):
        code = "\n".join(line for line in src(cell).splitlines() if not line.lstrip().startswith(("%", "!")))
        for node in ast.walk(ast.parse(code)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("k8sjobs"):
                assert node.module == "k8sjobs", f"{path.name}: imports from {node.module}"
            if isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("k8sjobs."), f"{path.name}: imports {alias.name}"


@pytest.mark.parametrize("path", [p for p in LESSONS if not p.name.startswith("00-")], ids=lambda p: p.stem)
def test_every_recorded_answer_check_says_correct(path: Path) -> None:
    # A build records whatever a checked cell prints; a wrong verdict must not become the reference.
    for cell in code_cells(load(path)):
        if ".check(" not in src(cell):
            continue
        for out in [*cell.get("outputs", []), *cell.get("metadata", {}).get("k8sjobs", {}).get("outputs", [])]:
            text = "".join(out.get("text", [])) if isinstance(out.get("text"), list) else out.get("text", "")
            for line in text.splitlines():
                if line.startswith("Verdict("):
                    assert "correct=True" in line and "valid=True" in line, f"{path.name}: {line}"


def test_the_notebooks_are_clean_and_match_their_sources() -> None:
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "build_lessons.py"), "--check"],
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_the_start_page_links_every_lesson() -> None:
    start = "".join(src(c) for c in load(LESSONS[0])["cells"] if c["cell_type"] == "markdown")
    for path in LESSONS[1:]:
        assert path.name in start, f"00-start-here does not link {path.name}"


def test_the_copied_curriculum_is_unchanged_and_matches_the_shared_one() -> None:
    from vendored import verify_copies

    assert not verify_copies(CONCEPTS_MD.parent, SHARED_CONCEPTS.parent)


def test_a_learners_folder_lists_each_lesson_once() -> None:
    # notebooks/<lang>/ holds what a learner opens; the sources are in notebooks/.src/<lang>/ (hidden)
    folders = [d for d in (ROOT / "notebooks").iterdir() if d.is_dir() and any(d.glob("*.ipynb"))]
    assert {d.name for d in folders} >= {"en", "zh-CN", "zh-TW", "ru"}
    for folder in folders:
        assert not list(folder.glob("*.md")), f"{folder.name}/ lists Markdown sources beside the notebooks"
        for nb in folder.glob("[0-9][0-9]-*.ipynb"):
            assert (ROOT / "notebooks" / ".src" / folder.name / f"{nb.stem}.md").is_file(), f"no source of {nb}"
