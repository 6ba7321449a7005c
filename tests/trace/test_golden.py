"""Golden texts: ``render_trace`` of a few small runs, byte for byte (tests/golden/*.txt).

A change in the trace text shows up here as a diff. When the change is intended, rewrite the
files and review them like code:

    K8SJOBS_UPDATE_GOLDEN=1 python3 -m pytest -q tests/trace/test_golden.py
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from k8sjobs.trace import Run, render_trace
from tests.manifests import DURATION, FAIL_ATTEMPTS, START_LATENCY, job_manifest

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden"
DOCS = ROOT / "examples" / "docs"
UPDATE = os.environ.get("K8SJOBS_UPDATE_GOLDEN") == "1"

SMALL = job_manifest("small", completions=4, parallelism=2,
                     annotations={START_LATENCY: "1s", DURATION: "10s..20s", FAIL_ATTEMPTS: "1"})


def compare_golden(name: str, actual: str) -> None:
    """Assert ``actual`` equals tests/golden/<name>; with K8SJOBS_UPDATE_GOLDEN=1, rewrite the file instead."""
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(actual, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"{path} is missing: create it with K8SJOBS_UPDATE_GOLDEN=1 and review it")
    expected = path.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), f"golden/{name}",
                                            "actual", n=2))
        pytest.fail(f"render_trace differs from tests/golden/{name} "
                    f"(K8SJOBS_UPDATE_GOLDEN=1 rewrites it):\n{diff[:6000]}")


def with_actions() -> Run:
    """Suspend at cycle 3, resume two cycles later, then scale to 1."""
    run = Run(SMALL, seed=1).fork(3, "suspend")
    run = run.fork(5, "resume")
    return run.fork(8, "scale", parallelism=1)


RUNS: dict[str, Callable[[], Run]] = {
    "pi.txt": lambda: Run((DOCS / "job.yaml").read_text(), seed=0, nodes=3),
    "pr54415-backoff.txt": lambda: Run((DOCS / "job-pod-failure-backoff.yaml").read_text(), seed=0, nodes=3),
    "failindex.txt": lambda: Run((DOCS / "job-backoff-limit-per-index-failindex.yaml").read_text(), seed=0, nodes=3),
    "suspend-resume-scale.txt": with_actions,
}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_the_trace_text_matches_its_golden_file(name: str):
    compare_golden(name, render_trace(RUNS[name]().trace))


def test_the_golden_helper_reports_a_difference_as_a_diff(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(f"{__name__}.GOLDEN", tmp_path)
    monkeypatch.setattr(f"{__name__}.UPDATE", False)
    (tmp_path / "x.txt").write_text("a\nb\n")
    compare_golden("x.txt", "a\nb\n")
    with pytest.raises(pytest.fail.Exception, match=r"(?s)differs from tests/golden/x.txt.*-b\n\+c"):
        compare_golden("x.txt", "a\nc\n")
    with pytest.raises(pytest.fail.Exception, match="missing: create it with K8SJOBS_UPDATE_GOLDEN=1"):
        compare_golden("absent.txt", "a\n")
