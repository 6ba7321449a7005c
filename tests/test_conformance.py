"""Every public upstream-derived case, run through ``python -m k8sjobs conformance``.

The cases live in ``tests/conformance/`` (a copy of ``../shared/conformance/`` so that a
fresh checkout can run them); a failure names the case id and title and lists each
difference between ``expect`` and ``actual``.
"""

from __future__ import annotations

import filecmp
import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from k8sjobs.conformance.compare import mismatches

CASES_DIR = Path(__file__).parent / "conformance"
SHARED_DIR = Path(__file__).resolve().parents[2] / "shared" / "conformance"
FILES = sorted(CASES_DIR.glob("*.json"))


@cache
def _results(path: Path) -> dict[str, dict]:
    proc = subprocess.run(
        [sys.executable, "-m", "k8sjobs", "conformance", str(path)],
        capture_output=True, text=True, check=False,
    )
    assert proc.returncode == 0, f"conformance command failed on {path.name}: {proc.stderr}"
    return {r["id"]: r for r in json.loads(proc.stdout)["results"]}


def _cases() -> list:
    params = []
    for path in FILES:
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            params.append(pytest.param(path, case, id=case["id"]))
    return params


@pytest.mark.parametrize(("path", "case"), _cases())
def test_public_case(path: Path, case: dict) -> None:
    result = _results(path)[case["id"]]
    header = f"{case['id']} ({case['title']})"
    assert "error" not in result, f"{header}: the model could not run it: {result['error']}"
    diffs = mismatches(case["expect"], result["actual"])
    assert not diffs, header + "\n  " + "\n  ".join(diffs)


def test_the_case_files_cover_all_seven_kinds() -> None:
    kinds = {json.loads(p.read_text())["family"] for p in FILES}
    assert kinds == {"validation", "indexes", "ordering", "slowstart", "backoff", "sync", "scenario"}


@pytest.mark.skipif(not SHARED_DIR.is_dir(), reason="no ../shared checkout next to this repository")
def test_the_copied_cases_match_the_shared_ones() -> None:
    shared = sorted(p.name for p in SHARED_DIR.glob("*.json"))
    assert shared == [p.name for p in FILES]
    _, mismatch, errors = filecmp.cmpfiles(SHARED_DIR, CASES_DIR, shared, shallow=False)
    assert not mismatch and not errors, f"tests/conformance differs from ../shared/conformance: {mismatch + errors}"
