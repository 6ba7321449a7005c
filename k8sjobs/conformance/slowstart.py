"""The ``slowstart`` kind: the batch sizes of pod creation in one sync, with failing calls.

Runs the real ``sync_job``/``manage_job`` for a fresh Job that wants ``count`` pods, with
a pod control that fails the create calls the case names (``failAt``), refuses calls
past a quota (``podLimit``) or rejects everything because the namespace is terminating.
The batches are read from the controller's own ``create.slow_start_batch`` reports.
"""

from __future__ import annotations

from typing import Any

from ..api.apierrors import NAMESPACE_TERMINATING_CAUSE, APIError, Reason
from ..api.informer import Informer
from ..api.types import Job
from ..clock import FakeClock
from ..controller.controller_utils import FakePodControl, key_func
from ..controller.job.job_controller import JobController
from ..hooks import Collector
from . import _build
from .defaults import default_case_job


class _ScriptedPodControl(FakePodControl):
    """Fails the create calls whose 1-based ordinal is listed, or past a limit, or all (namespace terminating).

    ``limit`` is a quota: only that many creations succeed (0 = none); None means no quota.
    """

    def __init__(self, fail_at: set[int], limit: int | None, namespace_terminating: bool) -> None:
        super().__init__()
        self.fail_at = fail_at
        self.limit = limit
        self.namespace_terminating = namespace_terminating
        self.calls = 0
        self.succeeded = 0
        self.failed = 0

    def create_pods_with_generate_name(self, namespace, template, job, controller_ref, generate_name):
        self.calls += 1
        if self.namespace_terminating:
            raise APIError(Reason.FORBIDDEN, "namespace is terminating", cause=NAMESPACE_TERMINATING_CAUSE)
        if self.calls in self.fail_at or (self.limit is not None and self.succeeded >= self.limit):
            self.failed += 1
            raise APIError(Reason.FORBIDDEN, f"create call {self.calls} refused")
        self.succeeded += 1
        return super().create_pods_with_generate_name(namespace, template, job, controller_ref, generate_name)


class _Client:
    def __init__(self, job: Job) -> None:
        self.job = job

    def update_status(self, job: Job) -> Job:
        self.job = job
        return job

    def get(self, namespace: str, name: str) -> Job:
        return self.job


class _Recorder:
    def event(self, obj: Any, type: str, reason: str, message: str) -> None:
        pass


def run_case(inp: dict[str, Any]) -> dict[str, Any]:
    """Run one slow-start case."""
    count = int(inp.get("count", 0))
    now = _build.NOW
    clock = FakeClock(now)
    deleting = inp.get("op") == "delete"
    job_doc = {"metadata": {"name": "slowstart", "namespace": "default"},
               "spec": {"parallelism": 0 if deleting else count,
                        "completions": 0 if deleting else max(count, 1), "backoffLimit": 6,
                        "template": {"spec": {"restartPolicy": "Never"}}}}
    job = _build.ensure_selector(default_case_job(_build.job_from_case(job_doc, now)))
    pods = []
    if deleting:
        pods = [_build.pod_from_case({"name": f"p{i}", "phase": "Running"}, job, now) for i in range(count)]
    jobs_inf = Informer(None, "Job")
    jobs_inf.replace_all([job])
    pods_inf = Informer(None, "Pod")
    pods_inf.replace_all(pods)
    limit = inp.get("podLimit")
    control = _ScriptedPodControl(set(inp.get("failAt") or []), None if limit is None else int(limit),
                                  bool(inp.get("namespaceTerminating")))
    emit = Collector()
    ctrl = JobController(jobs=jobs_inf, pods=pods_inf, pod_control=control, job_client=_Client(job), clock=clock,
                         recorder=_Recorder(), emit=emit, register_handlers=False)
    key = key_func(job)
    active_before = len(pods)
    err = ctrl.sync_job(key)
    batches = [f["size"] for k, f in emit.records if k == "create.slow_start_batch"]
    skipped = sum(f["skipped"] for k, f in emit.records if k == "create.slow_start_stop")
    exp = ctrl.expectations.get_expectations(key)
    status = ctrl.job_client.job.status
    return {
        "batches": batches,
        "created": control.succeeded,
        "failed": control.failed,
        "skipped": skipped,
        "activeDelta": status.active - active_before,
        "pendingCreateExpectations": exp.add if exp is not None else 0,
        "error": err is not None,
        "deleted": len(control.deleted),
    }

