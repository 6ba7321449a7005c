"""The ``scenario`` kind: many reconcile cycles with events between them.

Runs through the same :class:`~k8sjobs.sim.Simulation` the lessons use, in manual mode
(see ``vocabulary.harness`` of scenario.json): after each step's event exactly one Job
controller sync runs at the step's time, then the ttl-after-finished controller; caches
are current; delayed requeues run only where a ``sync`` step is written. Pods are named
p1, p2, ... in creation order; a deleted pod keeps its phase until a ``terminate`` step.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from ..api.types import JOB_COMPLETION_INDEX_ANNOTATION, ConditionStatus, Phase, Pod
from ..cluster import kubelet as kl
from ..ids import IdSource
from ..sim import Simulation
from . import _build

NODE = "node-1"


class _SequentialNames(IdSource):
    """Pods are p1, p2, ...; other generated names keep the seeded suffixes."""

    def __init__(self) -> None:
        super().__init__(0)
        self.pods = 0

    def generate_name(self, base: str, kind: str = "") -> str:
        if kind != "Pod":
            return super().generate_name(base, kind)
        self.pods += 1
        return f"p{self.pods}"


def _harness_grace(pod: Pod, requested: int | None) -> int:
    # Every deleted pod that has not finished stays terminating until a terminate step.
    if pod.status.phase in (Phase.SUCCEEDED, Phase.FAILED):
        return 0
    return 30 if requested is None else max(requested, 0)


def _job_doc(doc: dict[str, Any]) -> dict[str, Any]:
    doc = dict(doc)
    doc.setdefault("apiVersion", "batch/v1")
    doc.setdefault("kind", "Job")
    return doc


def _select(sim: Simulation, step: dict[str, Any], *, terminating: bool = False) -> list[Pod]:
    pods = sim.pods()
    if "pods" in step:
        wanted = set(step["pods"])
        return [p for p in pods if p.metadata.name in wanted]
    if "indexes" in step:
        wanted_ix = {str(i) for i in step["indexes"]}
        return [p for p in pods if p.metadata.deletion_timestamp is None
                and p.status.phase not in (Phase.SUCCEEDED, Phase.FAILED)
                and p.metadata.annotations.get(JOB_COMPLETION_INDEX_ANNOTATION) in wanted_ix]
    if step.get("all"):
        if terminating:
            return [p for p in pods if p.metadata.deletion_timestamp is not None
                    and p.status.phase not in (Phase.SUCCEEDED, Phase.FAILED)]
        return [p for p in pods if p.metadata.deletion_timestamp is None
                and p.status.phase not in (Phase.SUCCEEDED, Phase.FAILED)]
    return []


def _write(sim: Simulation, pod: Pod) -> None:
    cur = sim.store.get("Pod", pod.metadata.namespace, pod.metadata.name)
    sim.store.patch("Pod", cur.metadata.namespace, cur.metadata.name,
                    lambda c: replace(c, spec=pod.spec, status=pod.status), verb="harness")


def _with_conditions(pod: Pod, conditions: list[dict[str, Any]], t: float) -> Pod:
    for c in conditions or []:
        pod = kl.set_condition(pod, c["type"], c.get("status", ConditionStatus.TRUE), t)
    return pod


def _apply(sim: Simulation, step: dict[str, Any]) -> None:
    t = float(step["t"])
    ev = step["event"]
    if ev in ("create", "sync"):
        return
    if ev == "podsRunning":
        for pod in _select(sim, step):
            running = kl.start(kl.bind(pod, NODE, t), t, ready=bool(step.get("ready")))
            _write(sim, running)
    elif ev == "podsSucceeded":
        for pod in _select(sim, step):
            _write(sim, kl.finish(pod, t, 0))
    elif ev == "podsFailed":
        for pod in _select(sim, step):
            failed = kl.finish(pod, t, int(step.get("exitCode", 1)), step.get("container"))
            _write(sim, _with_conditions(failed, step.get("conditions"), t))
    elif ev == "podsDeleted":
        for pod in _select(sim, step):
            if step.get("conditions"):
                _write(sim, _with_conditions(pod, step["conditions"], t))
            sim.store.delete("Pod", pod.metadata.namespace, pod.metadata.name)
    elif ev == "terminate":
        for pod in _select(sim, step, terminating=True):
            _write(sim, kl.finish(pod, t, kl.EXIT_SIGKILL))
            if sim.store.try_get("Pod", pod.metadata.namespace, pod.metadata.name) is not None:
                sim.store.delete("Pod", pod.metadata.namespace, pod.metadata.name, grace_period_seconds=0)
    elif ev == "containerRestarted":
        for pod in _select(sim, step):
            _write(sim, kl.set_restart_count(pod, int(step["restartCount"])))
    elif ev == "suspend":
        sim.suspend()
    elif ev == "resume":
        sim.resume()
    elif ev == "scale":
        sim.scale(parallelism=step.get("parallelism"), completions=step.get("completions"))
    else:
        raise NotImplementedError(f"scenario event {ev!r}")


def run_case(inp: dict[str, Any]) -> dict[str, Any]:
    """Run every step and report what each sync did."""
    sim = Simulation(_job_doc(inp["job"]), manual=True, ids=_SequentialNames(), pod_grace_period=_harness_grace)
    after: list[dict[str, Any]] = []
    for i, step in enumerate(inp["steps"]):
        t = float(step["t"])
        if t > sim.clock.now():
            sim.clock.set(t)
        events_before = _event_counts(sim)
        limit = step.get("podLimit")
        if limit is not None:
            sim.store.faults.fail_next_creates = 0
            _limit_creates(sim, int(limit))
        _apply(sim, step)
        result = sim.sync()
        if limit is not None:
            sim.store.faults.reactors.clear()
        job = sim.job
        entry: dict[str, Any] = {"stepIndex": i}
        if job is not None:
            st = job.status
            entry["status"] = {
                "active": st.active, "ready": st.ready or 0, "succeeded": st.succeeded, "failed": st.failed,
                "terminating": st.terminating or 0, "completedIndexes": st.completed_indexes,
                "failedIndexes": st.failed_indexes, "startTime": st.start_time,
            }
            entry["conditions"] = _build.condition_list(job)
        entry["created"] = len(result.created) if result is not None else 0
        entry["createdIndexes"] = sorted(result.created_indexes) if result is not None else []
        entry["deleted"] = sorted(result.deleted) if result is not None else []
        entry["requeueAfterSeconds"] = result.requeue_after if result is not None else None
        entry["events"] = dict(_event_counts(sim) - events_before)
        entry["jobDeleted"] = job is None or job.metadata.deletion_timestamp is not None
        after.append(entry)
    return {"after": after}


def _event_counts(sim: Simulation) -> Counter:
    # What the controller recorded (upstream's tests count FakeRecorder calls), filtered or not.
    return Counter(reason for _, _, _, reason, _ in sim.recorder.calls)


def _limit_creates(sim: Simulation, limit: int) -> None:
    from ..api.apierrors import APIError, Reason

    state = {"n": 0}

    def reactor(verb: str, kind: str, obj: Any) -> APIError | None:
        if verb == "create" and kind == "Pod":
            state["n"] += 1
            if state["n"] > limit:
                return APIError(Reason.FORBIDDEN, f'pods "{obj.metadata.generate_name}" is forbidden: '
                                "exceeded quota: pods (harness podLimit)")
        return None

    sim.store.faults.reactors.append(reactor)
