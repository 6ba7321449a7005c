"""Property test of run budgets: for random valid Jobs, huge ones included, a run returns within its limits
(or stops at one of them with the message naming it) and its memory stays under the stated bound."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from k8sjobs.sim import validate
from k8sjobs.trace import Run
from k8sjobs.widgets.state import DASHBOARD_BUDGET

ROOT = Path(__file__).resolve().parents[1]
ONE_SYNC = 500
"""Pods one sync may create (the controller's burst): how far past max_pods a run may stop."""
DASHBOARD_RSS_MB = 250
"""What a dashboard run may add to a kernel's resident memory (of Binder's 2 GB)."""
DEFAULT_RSS_MB = 500
"""What any run with the default limits may take, interpreter included (the issue's bound)."""

SIZES = [1, 2, 7, 100, 1000, 20_000, 100_000, 1_000_000, 10_000_000]


@st.composite
def big_jobs(draw: st.DrawFn) -> dict[str, Any]:
    """Valid Jobs of every size, from one pod to completions 10^7 and parallelism 10^6."""
    indexed = draw(st.booleans())
    cap = 100_000 if indexed else 10_000_000
    spec: dict[str, Any] = {"parallelism": min(draw(st.sampled_from(SIZES)), cap, 1_000_000)}
    if indexed or draw(st.booleans()):
        spec["completions"] = min(draw(st.sampled_from(SIZES)), cap)
    if indexed:
        spec["completionMode"] = "Indexed"
        if draw(st.booleans()):
            spec["backoffLimitPerIndex"] = draw(st.integers(0, 3))
    spec["backoffLimit"] = draw(st.sampled_from([0, 6, 1000, 2**31 - 1]))
    restart = draw(st.sampled_from(["Never", "OnFailure"]))
    if restart == "Never" and draw(st.booleans()):
        spec["podFailurePolicy"] = {"rules": [{"action": draw(st.sampled_from(["Ignore", "Count", "FailJob"])),
                                               "onExitCodes": {"operator": "In", "values": [1]}}]}
    ann = {"sim.k8sjobs.io/duration": draw(st.sampled_from(["1s", "10s", "5s..50s", "1h..2h", "never"])),
           "sim.k8sjobs.io/fail-rate": str(draw(st.sampled_from([0, 0.02, 0.5, 1])))}
    if restart == "OnFailure":
        ann["sim.k8sjobs.io/restarts"] = str(draw(st.integers(0, 20)))
    if draw(st.integers(0, 3)) == 0:
        ann["sim.k8sjobs.io/evict-after"] = "1s..30s"
    spec["template"] = {"metadata": {"annotations": ann},
                        "spec": {"restartPolicy": restart, "containers": [{"name": "main", "image": "busybox"}]}}
    return {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "big"}, "spec": spec}


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS")) / 1024


def check_within(run: Run) -> None:
    """The run stopped within its budget, and said why if the Job did not finish."""
    sim, budget = run.sim, run.budget
    assert sim.pods_created <= budget.max_pods + ONE_SYNC
    assert sim.events_run <= budget.max_events
    assert sim.cycles <= budget.max_cycles and sim.now <= max(budget.max_time, 0)
    assert sim.pod_cycles <= budget.max_pod_cycles + sim.pods_created
    assert run.complete
    if run.limit is not None:
        message = run.message("Explorer")
        assert f"({run.limit.limit}" in message and f"Explorer(..., {run.limit.limit}=" in message
        assert str(int(run.limit.value)) in message or f"{run.limit.value:g}" in message
    else:
        assert run.trace.finished or len(sim.heap) == 0, "no limit stopped it: it finished or ran out of events"


@settings(max_examples=25, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(job=big_jobs(), nodes=st.sampled_from([1, 3, 50, 1000]), seed=st.integers(0, 3))
def test_any_valid_job_stops_within_the_dashboard_limits_in_bounded_memory(job, nodes, seed):
    assert validate(job) == [], validate(job)
    before = rss_mb()
    peak = [before]
    run = Run(job, seed=seed, nodes=nodes, budget=DASHBOARD_BUDGET, progress=lambda _sim: peak.append(rss_mb()))
    peak.append(rss_mb())
    check_within(run)
    assert max(peak) - before < DASHBOARD_RSS_MB


WORST = {
    "the issue's Job (completions 10^6, parallelism 10^5)": ({"completions": 1_000_000, "parallelism": 100_000}, {}, 3),
    "crash loops of 20,000 pods": ({"completions": 20_000, "parallelism": 20_000, "backoffLimit": 1_000_000},
                                   {"sim.k8sjobs.io/restarts": "20", "sim.k8sjobs.io/duration": "1s"}, 200),
    "20,000 pods running an hour or two": ({"completions": 20_000, "parallelism": 20_000},
                                          {"sim.k8sjobs.io/duration": "1h..2h"}, 200),
}


def test_the_worst_jobs_found_stop_at_the_default_limits_under_the_memory_bound():
    # A fresh interpreter per Job, so its peak (VmHWM) is the run's and the interpreter's alone.
    code = """
import json, sys
from k8sjobs.trace import Run
spec, ann, nodes = json.loads(sys.argv[1])
restart = "OnFailure" if "sim.k8sjobs.io/restarts" in ann else "Never"
job = {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "worst"},
       "spec": {**spec, "template": {"metadata": {"annotations": ann},
                "spec": {"restartPolicy": restart, "containers": [{"name": "m", "image": "b"}]}}}}
run = Run(job, seed=0, nodes=nodes)
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM")) / 1024
print(json.dumps({"limit": run.limit and run.limit.limit, "message": run.message(), "hwm": hwm}))
"""
    for name, (spec, ann, nodes) in WORST.items():
        out = subprocess.run([sys.executable, "-c", code, json.dumps([spec, ann, nodes])], capture_output=True,
                             text=True, check=True, cwd=ROOT, timeout=600).stdout
        result = json.loads(out)
        assert result["limit"] is not None and f"({result['limit']}" in result["message"], (name, result)
        assert result["hwm"] < DEFAULT_RSS_MB, (name, result)
