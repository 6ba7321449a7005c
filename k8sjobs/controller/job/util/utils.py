"""Whether a Job is finished (mirrors pkg/controller/job/util/utils.go, Kubernetes 1.35).

Upstream keeps these helpers in their own package because other controllers read them: the
ttl-after-finished controller and the CronJob controller import ``jobutil.IsJobFinished``.
"""

from __future__ import annotations

from ....api.types import ConditionStatus, Job, JobConditionType


def is_job_finished(job: Job) -> bool:
    """Complete=True or Failed=True (mirrors util.IsJobFinished)."""
    return any(c.type in (JobConditionType.COMPLETE, JobConditionType.FAILED) and c.status == ConditionStatus.TRUE
               for c in job.status.conditions)
