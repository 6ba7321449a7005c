"""Upstream's TestSyncJob-style expectations hold on snapshots.

Every public ``sync`` case with no controller memory in it (no expectations, backoff
record or API faults) is written as the List a real cluster would print (generated here
from the case, see ``case_snapshots``), given to ``python -m k8sjobs explain --format
json``, and the answer's creations, deletions, finalizer removals, status and conditions
are compared with the case's expect by the conformance contract's rules.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from case_snapshots import CHECKED, NOW_TEXT, as_conformance_actual, case_to_yaml, exclusion

from k8sjobs.cli import main
from k8sjobs.conformance.compare import mismatches

CASES = json.loads((Path(__file__).resolve().parents[1] / "conformance" / "sync.json").read_text())["cases"]
SNAPSHOT_CASES = [c for c in CASES if exclusion(c) is None]


@pytest.mark.parametrize("case", SNAPSHOT_CASES, ids=[c["id"] for c in SNAPSHOT_CASES])
def test_explain_predicts_the_sync_of_a_case_written_as_a_snapshot(case: dict, tmp_path: Path, capsys) -> None:
    path = tmp_path / f"{case['id']}.yaml"
    path.write_text(case_to_yaml(case), encoding="utf-8")
    status = main(["explain", str(path), "--now", NOW_TEXT, "--format", "json"])
    out, err = capsys.readouterr()
    assert status == 0, f"{case['id']}: explain refused the snapshot: {err}"
    answer = json.loads(out)
    expect = {k: v for k, v in case["expect"].items() if k in CHECKED}
    assert expect, f"{case['id']} asserts nothing this test checks"
    diffs = mismatches(expect, as_conformance_actual(answer))
    assert not diffs, f"{case['id']} ({case['title']})\n  " + "\n  ".join(diffs)


def test_every_public_sync_case_is_checked_through_a_snapshot_or_excluded_for_a_stated_reason() -> None:
    reasons: dict[str, list[str]] = {}
    for c in CASES:
        why = exclusion(c)
        if why is not None:
            reasons.setdefault(why, []).append(c["id"])
    assert len(SNAPSHOT_CASES) + sum(map(len, reasons.values())) == len(CASES) == 84
    # Seven cases carry controller memory or API faults; the other 77 are checked above.
    assert len(SNAPSHOT_CASES) == 77, reasons


def test_a_generated_snapshot_looks_like_what_a_real_cluster_prints() -> None:
    import yaml

    case = next(c for c in SNAPSHOT_CASES if c["input"].get("pods"))
    doc = yaml.safe_load(case_to_yaml(case))
    assert doc["kind"] == "List" and doc["apiVersion"] == "v1"
    job, pod = doc["items"][0], doc["items"][1]
    assert job["kind"] == "Job" and job["metadata"]["managedFields"] and len(job["metadata"]["uid"]) == 36
    assert pod["metadata"]["ownerReferences"][0]["uid"] == job["metadata"]["uid"]
    assert pod["status"]["qosClass"] == "BestEffort" and "creationTimestamp" in pod["metadata"]
