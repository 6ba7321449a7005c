"""The official Job examples (examples/docs/*.yaml) validate and run to the outcome the docs describe.

Expectations come from examples/docs/expected.json: the conditions in the order they are added
(type, status, reason, and the message or message pattern when given), the status counters and
index strings, and the time the Job finished (``duration_seconds``: a range, or one sampled
number met within max(2 s, 10 %)). Every run uses seed 0 and 3 nodes of 110 pod slots.

Where a file needs a step the docs' reader performs (resume at 60 s, scale at 20 s, delete a pod,
patch a pod condition), the step is a simulation action at that time -- the "notebook patch" the
files name as the alternative to the proposed Job-level ``sim.k8sjobs.io/actions`` key. Proposed
keys the simulator does not implement are comments in the files (it rejects unknown
``sim.k8sjobs.io/*`` keys, so a typo cannot pass silently).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from k8sjobs.cluster.workload import KNOWN_KEYS
from k8sjobs.sim import SimConfig, Simulation
from k8sjobs.trace import Recorder, Trace

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "examples" / "docs"
EXPECTED: dict[str, dict[str, Any]] = json.loads((DOCS / "expected.json").read_text())
FILES = sorted(p.name for p in DOCS.glob("*.yaml"))
SEED, NODES = 0, 3



def first_pod(sim: Simulation) -> str:
    return sim.pods()[0].metadata.name


# The reader's steps, at the times the files give (seconds from Job creation).
STEPS = {
    "suspended-job.yaml": [(60.0, lambda sim: sim.resume())],  # "60s:patch spec.suspend=false"
    "elastic-indexed-job.yaml": [(20.0, lambda sim: sim.scale(parallelism=6, completions=6))],  # "20s:patch ..."
    "pod-replacement-policy.yaml": [(10.0, lambda sim: sim.delete_pod(first_pod(sim)))],  # delete-after 10s, pod 1
    # add-condition ConfigIssue=True after 40s, delete-after 45s on pod 1: the pod ends Failed with the condition.
    "job-pod-failure-policy-config-issue.yaml": [(45.0, lambda sim: sim.fail_pod(first_pod(sim), condition="ConfigIssue"))],
}


@dataclass
class Outcome:
    trace: Trace
    sim: Simulation
    samples: dict[float, Any] = field(default_factory=dict)


def manifest(name: str) -> dict:
    return yaml.safe_load((DOCS / name).read_text())


@cache
def outcome(name: str) -> Outcome:
    sim = Simulation(manifest(name), SimConfig(seed=SEED, nodes=NODES))
    rec = Recorder(sim)
    samples = {}
    for t, step in STEPS.get(name, []):
        sim.run_until(t - 1)
        samples[t - 1] = sim.job
        sim.run_until(t)
        step(sim)
    sim.run_until_finished(max_time=3600)
    return Outcome(rec.finish(), sim, samples)


def last_job(tr: Trace):
    """The Job as last stored (also when the run deleted it)."""
    return next(ch.obj for ch in reversed(tr.changes) if ch.kind == "Job" and ch.type != "DELETED")


def finished_at(job) -> float | None:
    return next((c.last_transition_time for c in job.status.conditions
                 if c.type in ("Complete", "Failed") and c.status == "True"), None)


def message_regex(pattern: str) -> str:
    return re.escape(pattern).replace("<ns>", "default").replace("<pod>", "[a-z0-9-]+")


def status_field(job, key: str) -> Any:
    st = job.status
    return {"succeeded": st.succeeded, "failed": st.failed, "active": st.active,
            "completedIndexes": st.completed_indexes, "failedIndexes": st.failed_indexes}[key]


# ----------------------------------------------------------------------------- the files


def test_expected_json_describes_every_example_file():
    assert sorted(EXPECTED) == FILES
    assert len(FILES) == 26


def test_unimplemented_proposed_keys_are_comments_not_annotations():
    for name in FILES:
        ann = yaml.safe_load((DOCS / name).read_text())["spec"]["template"]["metadata"].get("annotations") or {}
        unknown = [k for k in ann if k.startswith("sim.k8sjobs.io/") and k.removeprefix("sim.k8sjobs.io/")
                   not in KNOWN_KEYS]
        assert not unknown, f"{name}: the simulator rejects {unknown}"


@pytest.mark.parametrize("name", FILES)
def test_every_example_runs_with_the_run_command(name: str):
    proc = subprocess.run([sys.executable, "-m", "k8sjobs", "run", str(DOCS / name), "--format", "none"],
                          capture_output=True, cwd=ROOT, check=False, timeout=300, text=True)
    assert (proc.returncode, proc.stderr) == (0, "")


@pytest.mark.parametrize("name", FILES)
def test_every_example_validates(name: str):
    proc = subprocess.run([sys.executable, "-m", "k8sjobs", "validate", str(DOCS / name)], capture_output=True,
                          cwd=ROOT, check=False, timeout=120, text=True)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert proc.stdout == f"job.batch/{EXPECTED[name]['job']} valid\n"


@pytest.mark.parametrize("name", FILES)
def test_every_example_adds_the_documented_conditions_in_order(name: str):
    job = last_job(outcome(name).trace)
    want = EXPECTED[name]["conditions"]
    got = [(c.type, c.status, c.reason) for c in job.status.conditions]
    assert got == [(c["type"], c["status"], c["reason"]) for c in want]
    for cond, w in zip(job.status.conditions, want):
        if "message" in w:
            assert cond.message == w["message"]
        elif "message_pattern" in EXPECTED[name] and cond.type in ("FailureTarget", "Failed"):
            assert re.fullmatch(message_regex(EXPECTED[name]["message_pattern"]), cond.message), cond.message


@pytest.mark.parametrize("name", FILES)
def test_every_example_ends_with_the_documented_counts_and_indexes(name: str):
    job = last_job(outcome(name).trace)
    for key, value in EXPECTED[name]["status"].items():
        assert status_field(job, key) == value, key


@pytest.mark.parametrize("name", FILES)
def test_every_example_finishes_in_the_documented_time(name: str):
    done = finished_at(last_job(outcome(name).trace))
    want = EXPECTED[name]["duration_seconds"]
    if want is None:
        assert done is None and not outcome(name).trace.finished
    elif isinstance(want, list):
        assert want[0] <= done <= want[1]
    else:
        assert abs(done - want) <= max(2.0, 0.1 * want)


# ----------------------------------------------------------------------------- file-specific expectations


def test_the_ttl_example_is_deleted_with_its_pods_100_seconds_after_finishing():
    tr = outcome("pi-with-ttl.yaml").trace
    done = finished_at(last_job(tr))
    gone = next(ch.t for ch in tr.changes if ch.kind == "Job" and ch.type == "DELETED")
    assert gone - done == pytest.approx(EXPECTED["pi-with-ttl.yaml"]["deleted_after_finish_seconds"], abs=1)
    assert tr.final_job is None and outcome("pi-with-ttl.yaml").sim.pods() == []


def test_the_suspended_example_is_suspended_until_it_is_resumed():
    out = outcome("suspended-job.yaml")
    before = out.samples[59.0]
    assert [{"type": c.type, "status": c.status, "reason": c.reason, "message": c.message}
            for c in before.status.conditions] == EXPECTED["suspended-job.yaml"]["conditions_while_suspended"]
    assert (before.status.start_time, before.status.active) == (None, 0)
    reasons = [e.reason for e in out.trace.events]
    assert reasons.count("SuccessfulCreate") == 5
    assert reasons.index("Suspended") < reasons.index("Resumed") < reasons.index("Completed")
    assert last_job(out.trace).status.start_time == 60.0


def test_the_pod_replacement_example_waits_for_the_deleted_pod_before_replacing_it():
    tr = outcome("pod-replacement-policy.yaml").trace
    during = EXPECTED["pod-replacement-policy.yaml"]["during"]
    lo, hi = (float(x) for x in during["t"].removesuffix(" s").split("-"))
    for t in range(int(lo) + 1, int(hi)):
        after = tr.cycles[tr.cycle_at_time(t) - 1].after
        assert (after.terminating, after.active) == (during["terminating"], during["active"]), t


def test_the_indexed_example_runs_at_most_three_pods_at_once():
    tr = outcome("indexed-job.yaml").trace
    assert max(c.after.active for c in tr.cycles) == 3
    assert sorted(h.index for h in tr.pod_histories()) == [0, 1, 2, 3, 4]


def test_the_ignore_example_evicts_two_pods_without_counting_them():
    tr = outcome("job-pod-failure-policy-ignore.yaml").trace
    evicted = [h for h in tr.pod_histories() if h.disruption == "EvictionByEvictionAPI"]
    assert len(evicted) == 2 and all(h.phase == "Failed" for h in evicted)
    assert last_job(tr).status.failed == 0


def test_the_legacy_sidecar_example_never_finishes():
    out = outcome("job-sidecar-legacy.yaml")
    assert [p.status.phase for p in out.sim.pods()] == ["Running"]
    assert last_job(out.trace).status.conditions == ()
