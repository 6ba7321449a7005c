"""Property: a Job's YAML without its pods never makes explain create a pod the status counts as active.

A random Job is simulated; at a random cycle its ``kubectl get job -o yaml`` (the Job alone, as
people paste it) is explained. The status's ``active`` pods stand in for the pods the snapshot
cannot show, so the sync creates at most ``parallelism - status.active`` pods (the controller
never runs more than ``parallelism``), and the pods it stands in are named as such.
"""

from __future__ import annotations

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from k8sjobs import Run, explain, get_job

PROFILE = settings(max_examples=30, deadline=None, derandomize=True, database=None,
                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@st.composite
def manifests(draw: st.DrawFn) -> str:
    spec = {"parallelism": draw(st.integers(1, 5)), "completions": draw(st.integers(1, 8)),
            "backoffLimit": draw(st.integers(0, 4))}
    if draw(st.booleans()):
        spec["completionMode"] = "Indexed"
    annotations = {"sim.k8sjobs.io/duration": f"{draw(st.integers(5, 90))}s"}
    if draw(st.booleans()):
        annotations["sim.k8sjobs.io/fail-rate"] = str(draw(st.sampled_from([0.3, 0.6])))
    doc = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "prop"},
           "spec": {**spec, "template": {"metadata": {"annotations": annotations},
                                         "spec": {"restartPolicy": "Never",
                                                  "containers": [{"name": "main", "image": "busybox"}]}}}}
    return yaml.safe_dump(doc)


@PROFILE
@given(manifest=manifests(), seed=st.integers(0, 3), at=st.floats(0.0, 1.0))
def test_explain_never_creates_a_pod_the_status_counts_as_active(manifest: str, seed: int, at: float) -> None:
    run = Run(manifest, seed=seed, max_cycles=200)
    cycle = 1 + int(at * (len(run) - 1))
    dump = get_job(run.trace, cycle, output="yaml")
    status = yaml.safe_load(dump).get("status") or {}
    active = status.get("active", 0)
    parallelism = yaml.safe_load(dump)["spec"]["parallelism"]
    answer = explain(dump)
    assert len(answer.created) <= max(0, parallelism - active), (cycle, status, answer.created)
    assert len(answer.snapshot.unseen) == (active + status.get("terminating", 0)
                                           if active + status.get("terminating", 0) and not any(
                                               c["type"] in ("Complete", "Failed") and c["status"] == "True"
                                               for c in status.get("conditions", [])) else 0)
    assert answer.observed_json()["active"] == (active if answer.snapshot.unseen else 0)
