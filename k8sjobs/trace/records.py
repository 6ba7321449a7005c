"""What a run leaves behind: reconcile cycles, API changes, events and notes.

A :class:`Cycle` is one ``sync_job`` of the Job: what the controller observed, each
decision with its rule id and numbers (its sentence is rendered when shown, in the current
language: :mod:`k8sjobs.trace.reasons`), what it wrote, and the events it recorded. A
:class:`Change` is one API write (the finer steps between cycles). A :class:`Trace`
holds them all and rebuilds the world at any cycle from checkpoints plus changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from ..api.types import JOB_COMPLETION_INDEX_ANNOTATION, Job, Phase, Pod
from .reasons import render

CHECKPOINT_EVERY = 64
"""A full (shallow) copy of the world every this many cycles; changes fill the gaps."""

# Which decision explains a cycle best, most important first.
HEADLINE_ORDER = (
    "condition.failed", "condition.complete", "condition.failure_target", "condition.success_criteria_met",
    "decision.dropped", "finish.delayed_terminating", "finish.delayed_uncounted", "condition.suspended",
    "condition.resumed", "suspend.delete", "scale_down", "create.slow_start_stop", "create.failed",
    "create.plan", "backoff.wait", "backoff.wait_index", "create.wait_terminating", "expectations.unsatisfied",
    "sync.skip.managed_by", "sync.skip.finished", "sync.skip.not_found", "sync.skip.unknown_mode",
    "status.write_failed", "track.counted", "create.no_pending_index",
    # a CronJob's syncs
    "cronjob.sync.error", "cronjob.create.failed", "cronjob.create.namespace_terminating", "cronjob.create",
    "cronjob.create.exists", "cronjob.skip.forbid", "cronjob.replace.get_failed", "cronjob.delete.failed",
    "cronjob.delete", "cronjob.schedule.too_many_missed", "cronjob.skip.too_late", "cronjob.skip.suspended",
    "cronjob.skip.deleting", "cronjob.skip.unknown_time_zone", "cronjob.skip.unparseable",
    "cronjob.skip.invalid_schedule", "cronjob.skip.already_processed", "cronjob.sync.not_found",
    "cronjob.active.saw_completed", "cronjob.active.missing", "cronjob.schedule.none_due", "cronjob.requeue",
)


@dataclass(frozen=True, slots=True)
class Decision:
    """One thing the controller decided: the rule behind it and its numbers (language-neutral)."""

    rule: str
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def reason(self) -> str:
        """The decision in words, in the current language (rendered from the rule's template)."""
        return render(self.rule, self.fields)


@dataclass(frozen=True, slots=True)
class Change:
    """One API write: ``type`` ADDED, MODIFIED or DELETED of ``kind``/``name`` at ``t``."""

    seq: int
    t: float
    type: str
    kind: str
    name: str
    obj: Any
    old: Any = None


@dataclass(frozen=True, slots=True)
class EventRecord:
    """One occurrence of a Kubernetes Event about the Job (repeats are separate records)."""

    t: float
    type: str
    reason: str
    message: str
    cycle: int
    name: str = ""
    """The Event object it was written to (repeats and aggregates share one)."""


@dataclass(frozen=True, slots=True)
class Note:
    """Something outside the controller: the cluster, a learner action, the ttl controller."""

    t: float
    rule: str
    fields: dict[str, Any] = field(default_factory=dict)
    after_cycle: int = 0
    """How many cycles had ended when it happened: orders it against cycles at the same ``t``."""

    @property
    def reason(self) -> str:
        """What happened, in words, in the current language (rendered from the rule's template)."""
        return render(self.rule, self.fields)


@dataclass(frozen=True, slots=True)
class StatusSummary:
    """The Job status numbers a learner watches (what ``kubectl get job`` shows and more)."""

    active: int = 0
    ready: int = 0
    succeeded: int = 0
    failed: int = 0
    terminating: int = 0
    completed_indexes: str = ""
    failed_indexes: str | None = None
    start_time: float | None = None
    completion_time: float | None = None
    conditions: tuple[tuple[str, str, str, str], ...] = ()

    @classmethod
    def of(cls, job: Job | None) -> StatusSummary:
        """Summarise a Job's status (zeros when there is no Job)."""
        if job is None:
            return cls()
        s = job.status
        return cls(active=s.active, ready=s.ready or 0, succeeded=s.succeeded, failed=s.failed,
                   terminating=s.terminating or 0, completed_indexes=s.completed_indexes,
                   failed_indexes=s.failed_indexes, start_time=s.start_time, completion_time=s.completion_time,
                   conditions=tuple((c.type, c.status, c.reason, c.message) for c in s.conditions))

    def to_dict(self) -> dict[str, Any]:
        """camelCase, as in the batch/v1 status."""
        return {"active": self.active, "ready": self.ready, "succeeded": self.succeeded, "failed": self.failed,
                "terminating": self.terminating, "completedIndexes": self.completed_indexes,
                "failedIndexes": self.failed_indexes, "startTime": self.start_time,
                "completionTime": self.completion_time,
                "conditions": [{"type": t, "status": s, "reason": r, "message": m} for t, s, r, m in self.conditions]}


@dataclass(frozen=True, slots=True)
class Cycle:
    """One reconcile cycle: one ``sync_job`` of the Job."""

    index: int
    t: float
    observed: dict[str, Any]
    decisions: tuple[Decision, ...]
    created: tuple[str, ...]
    created_indexes: tuple[int, ...]
    deleted: tuple[str, ...]
    before: StatusSummary
    after: StatusSummary
    events: tuple[EventRecord, ...]
    error: str | None
    requeue_after: float | None
    skipped: str | None
    change_start: int
    change_end: int
    position: int
    """Heap events run when the cycle ended (where a fork starts)."""
    parallelism: int | None
    completions: int | None
    expectations: tuple[int, int, int, int] = (0, 0, 0, 0)
    """(creations, deletions) still expected before the sync, then after it."""
    satisfied: bool = True
    """Whether the expectations were met when the sync started."""
    suspended: bool = False
    """spec.suspend of the Job when the cycle ended."""

    def rules(self) -> list[str]:
        """The rule ids of this cycle's decisions, in order."""
        return [d.rule for d in self.decisions]

    def find(self, rule: str) -> list[Decision]:
        """Decisions of one rule (a prefix such as ``"create."`` matches a family)."""
        return [d for d in self.decisions if d.rule == rule or (rule.endswith(".") and d.rule.startswith(rule))]

    @property
    def headline(self) -> Decision:
        """The decision that explains this cycle best."""
        for rule in HEADLINE_ORDER:
            found = self.find(rule)
            if found:
                return found[0] if rule != "create.failed" else found[-1]
        a = self.after
        want = self.find("manage.want_active")
        if want:
            return Decision("sync.nothing_to_do", {"case": "want", "active": a.active, "want": want[0].fields})
        return Decision("sync.nothing_to_do", {"active": a.active, "succeeded": a.succeeded, "failed": a.failed})


@dataclass(frozen=True, slots=True)
class PodHistory:
    """A pod's life, read from the API changes."""

    name: str
    uid: str
    index: int | None
    created: float
    scheduled: float | None = None
    node: str = ""
    started: float | None = None
    ready: float | None = None
    finished: float | None = None
    phase: str = Phase.PENDING
    exit_code: int | None = None
    deleting: float | None = None
    removed: float | None = None
    restarts: int = 0
    created_in_cycle: int = 0
    disruption: str = ""
    seqs: dict[str, int] = field(default_factory=dict)
    """Change number at which each event above happened (``"started": 412``), for :meth:`until`."""

    def until(self, end: int) -> PodHistory:
        """The history as it stood after the first ``end`` changes (a cycle's ``change_end``).

        Two changes can share a time; cutting by change number keeps what a later cycle did at
        the same instant out of an earlier cycle's picture.
        """
        late = [name for name, seq in self.seqs.items() if seq >= end]
        if not late:
            return self
        changes: dict[str, Any] = {}
        for name in late:
            if name in ("node", "disruption"):
                changes[name] = ""
            elif name == "finished":
                changes.update(finished=None, phase=Phase.PENDING, exit_code=None)
            else:
                changes[name] = None
        return replace(self, **changes, seqs={k: v for k, v in self.seqs.items() if v < end})

    @property
    def end(self) -> float | None:
        """When it stopped running: finished, or removed, whichever is first."""
        ends = [x for x in (self.finished, self.removed) if x is not None]
        return min(ends) if ends else None

    def outcome(self, at: float | None = None) -> str:
        """running | pending | succeeded | failed | terminating | deleted, as of ``at`` (default: the end)."""
        t = float("inf") if at is None else at
        if self.finished is not None and self.finished <= t:
            if self.deleting is not None and self.deleting <= self.finished and self.phase == Phase.FAILED:
                return "deleted"
            return "succeeded" if self.phase == Phase.SUCCEEDED else "failed"
        if self.removed is not None and self.removed <= t:
            return "deleted"
        if self.deleting is not None and self.deleting <= t:
            return "terminating"
        if self.started is not None and self.started <= t:
            return "running"
        return "pending"


def pod_index(pod: Pod) -> int | None:
    """The pod's completion index, if it has a valid one."""
    text = pod.metadata.annotations.get(JOB_COMPLETION_INDEX_ANNOTATION)
    return int(text) if text is not None and text.isdigit() else None
