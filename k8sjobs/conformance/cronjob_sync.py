"""The ``cronjob-sync`` kind: one ``syncCronJob`` of one CronJob at ``now``, a full reconcile of its
key (``sync``), or the Job listing step (``jobsForCronJob``).

Driven as upstream's TestControllerV2SyncCronJob drives ControllerV2: the Jobs are handed in,
the Job API is fakeJobControl (every GET answers the same Job, one error fails GET and DELETE,
another CREATE) and the CronJob API is fakeCJControl (the re-read copy, recorded status writes).
The controller code is the one the simulation runs (k8sjobs.controller.cronjob).
"""

from __future__ import annotations

from typing import Any

from ..api.apierrors import APIError
from ..controller.cronjob import utils as u
from ._cronjob import Harness, ms, status_doc


def run_case(inp: dict[str, Any]) -> dict[str, Any]:
    """Run one case and report every output the kind defines."""
    op = inp.get("op") or "syncCronJob"
    h = Harness(inp)
    if op == "jobsForCronJob":
        h.jobs.replace_all(h.job_list)
        return {"jobs": [j.metadata.name for j in h.controller.get_jobs_to_be_reconciled(h.cron_job)]}
    if op == "sync":
        return h.full_sync()
    if op != "syncCronJob":
        raise NotImplementedError(f"op {op!r} (known: syncCronJob, sync, jobsForCronJob)")
    ref = u.Ref(h.cron_job)
    requeue, update_status, err = h.controller.sync_cron_job(ref, h.job_list)
    if err is not None and not isinstance(err, (APIError, ValueError)):
        raise err
    return {
        "createdCount": len(h.job_api.created),
        "created": h.created(),
        "deletedCount": len(h.job_api.deleted),
        "deleted": list(h.job_api.deleted),
        "updateStatus": update_status,
        **h.event_counts(),
        "requeueAfterMs": ms(requeue),
        "error": err is not None,
        "status": status_doc(ref.obj),
    }
