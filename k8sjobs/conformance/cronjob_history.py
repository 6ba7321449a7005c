"""The ``cronjob-history`` kind: history-limit cleanup of finished Jobs (``cleanupFinishedJobs``),
its oldest-first order (``sortByStartTime``, byJobStartTime), or a full reconcile (``sync``).

The same controller code as the simulation (k8sjobs.controller.cronjob) on upstream's test fakes.
"""

from __future__ import annotations

from typing import Any

from ..api.serialize import parse_time
from ..api.types import Job, JobStatus, ObjectMeta
from ..controller.cronjob import utils as u
from ._cronjob import Harness


def run_case(inp: dict[str, Any]) -> dict[str, Any]:
    """Run one case and report every output the kind defines."""
    op = inp.get("op") or "cleanupFinishedJobs"
    if op == "sortByStartTime":
        jobs = [Job(metadata=ObjectMeta(name=d["name"]),
                    status=JobStatus(start_time=None if d.get("startTime") is None else parse_time(d["startTime"])))
                for d in inp.get("jobs") or []]
        return {"order": [j.metadata.name for j in u.sort_by_job_start_time(jobs)]}
    h = Harness(inp)
    if op == "sync":
        out = h.full_sync()
        return {"deleted": out["deleted"], "eventCount": out["eventCount"], "events": out["events"],
                "error": out["error"], "activeCount": len(out["statusWritten"]["active"]) if out["statusWritten"]
                else len(h.cron_job.status.active), "statusUpdates": out["statusUpdates"]}
    if op != "cleanupFinishedJobs":
        raise NotImplementedError(f"op {op!r} (known: cleanupFinishedJobs, sortByStartTime, sync)")
    ref = u.Ref(h.cron_job)
    update_status = h.controller.cleanup_finished_jobs(ref, h.job_list)
    counts = h.event_counts()
    return {"deleted": list(h.job_api.deleted), "eventCount": counts["eventCount"], "events": counts["events"],
            "activeCount": len(ref.obj.status.active), "updateStatus": update_status}
