"""API defaulting of the Jobs the cases describe (what a real API server would store)."""

from __future__ import annotations

from ..api.defaults import set_defaults_job
from ..api.types import Job


def default_case_job(job: Job) -> Job:
    """Apply SetDefaults_Job: the cases always give backoffLimit, so only the other defaults apply."""
    return set_defaults_job(job)
