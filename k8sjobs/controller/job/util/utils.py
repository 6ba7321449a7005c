"""Whether a Job is finished (mirrors pkg/controller/job/util/utils.go, Kubernetes 1.35).

Upstream keeps these helpers in their own package because other controllers read them: the
ttl-after-finished controller and the CronJob controller import ``jobutil.IsJobFinished``.
"""

from __future__ import annotations

from ....api.types import ConditionStatus, Job, JobConditionType


def is_job_finished(job: Job) -> bool:
    """Complete=True or Failed=True (mirrors util.IsJobFinished)."""
    for c in job.status.conditions:  # (a loop, not any() over a generator: every sync of every controller asks)
        if (c.type == JobConditionType.COMPLETE or c.type == JobConditionType.FAILED) and c.status == ConditionStatus.TRUE:
            return True
    return False
