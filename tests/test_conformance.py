"""Every public upstream-derived case, run through ``python -m k8sjobs conformance``.

The cases live in ``tests/conformance/`` (a copy of ``../shared/conformance/``, the CronJob
and cron families in ``cronjob/``, so that a fresh checkout can run them); a failure names
the case id and title and lists each difference between ``expect`` and ``actual``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from k8sjobs.conformance.compare import mismatches

CASES_DIR = Path(__file__).parent / "conformance"
SHARED_DIR = Path(__file__).resolve().parents[2] / "shared" / "conformance"
CRONJOB_DIR = CASES_DIR / "cronjob"
FILES = sorted(CASES_DIR.glob("*.json")) + sorted(CRONJOB_DIR.glob("*.json"))


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


def test_the_case_files_cover_all_seven_job_kinds() -> None:
    kinds = {json.loads(p.read_text())["family"] for p in CASES_DIR.glob("*.json")}
    assert kinds == {"validation", "indexes", "ordering", "slowstart", "backoff", "sync", "scenario"}


def test_the_cronjob_case_files_cover_all_six_cronjob_and_cron_kinds() -> None:
    kinds = {json.loads(p.read_text())["family"] for p in CRONJOB_DIR.glob("*.json")}
    assert kinds == {"cron-parse", "cron-next", "cronjob-validation", "cronjob-sync", "cronjob-schedule",
                     "cronjob-history"}


@pytest.mark.parametrize(("local", "shared"), [(CASES_DIR, SHARED_DIR), (CRONJOB_DIR, SHARED_DIR / "cronjob")],
                         ids=["job", "cronjob"])
def test_the_copied_cases_are_unchanged_and_match_the_shared_ones(local: Path, shared: Path) -> None:
    from vendored import verify_copies

    assert not verify_copies(local, shared)


def test_the_slowstart_runner_reads_a_pod_limit_of_zero_as_a_quota_of_zero_pods() -> None:
    from k8sjobs.conformance.slowstart import run_case

    none = run_case({"count": 5, "initialBatch": 1, "podLimit": 0})
    assert (none["created"], none["failed"], none["batches"]) == (0, 1, [1]), "the first create call is refused"
    assert none["skipped"] == 4 and none["error"] is True
    unlimited = run_case({"count": 5, "initialBatch": 1})
    assert (unlimited["created"], unlimited["failed"]) == (5, 0), "no podLimit: no quota"
    two = run_case({"count": 5, "initialBatch": 1, "podLimit": 2})
    assert (two["created"], two["failed"]) == (2, 1)
