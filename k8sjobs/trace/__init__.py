"""Traces of simulated runs: reconcile cycles, API changes, events; time travel; stable text."""

from .recorder import Recorder, Trace, WorldState
from .records import Change, Cycle, Decision, EventRecord, Note, PodHistory, StatusSummary
from .run import Run
from .text import describe_cronjob, describe_job, get_job, render_trace

__all__ = ["Change", "Cycle", "Decision", "EventRecord", "Note", "PodHistory", "Recorder", "Run", "StatusSummary",
           "Trace", "WorldState", "describe_cronjob", "describe_job", "get_job", "render_trace"]
