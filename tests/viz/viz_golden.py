"""Golden files for the text twins: compare, or rewrite them with K8SJOBS_UPDATE_GOLDEN=1."""

from __future__ import annotations

import difflib
import os
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parents[1] / "golden" / "viz"
UPDATE_ENV = "K8SJOBS_UPDATE_GOLDEN"


def check_golden(name: str, actual: str) -> None:
    """Assert ``actual`` equals ``tests/golden/viz/<name>.txt`` (or write it when the env var is 1)."""
    path = GOLDEN_DIR / f"{name}.txt"
    if os.environ.get(UPDATE_ENV) == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    if not path.exists():
        raise AssertionError(f"no golden file {path}; run with {UPDATE_ENV}=1 to create it")
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                            fromfile=f"golden/{name}.txt", tofile="actual"))
        raise AssertionError(f"{name} differs from its golden file (rerun with {UPDATE_ENV}=1 if the change "
                             f"is intended):\n{diff}")
