"""Explain a real Job: run the controller's next sync on a snapshot and say what it does, and why.

:func:`explain` builds the snapshot's world in the simulated API server and informers
(:class:`~k8sjobs.sim.Simulation` from a :class:`~k8sjobs.api.snapshot.Snapshot`) and lets
the real ``sync_job`` run once at the snapshot's instant, recorded like any cycle. Nothing
here decides anything: the answer is what that sync wrote (pods created and deleted,
finalizers removed, the Job's status and conditions) and the decisions it emitted, with
their rule ids and reasons, in order.

What a snapshot cannot show is assumed as after a controller restart, and said so: the
controller's expectations are satisfied (it has none), and its backoff record is rebuilt by
the sync itself from the finish times of the pods it has not counted yet.
"""

from __future__ import annotations

import gc
import json
import os
from dataclasses import dataclass, field
from typing import Any

from ..api.serialize import to_dict
from ..api.snapshot import CronJobSnapshot, Ignored, LeftOut, Snapshot
from ..api.types import Phase
from ..controller.job import backoff_utils as bu
from ..i18n import _, join_clauses, join_list, ngettext
from ..sim import Budget, SimConfig, Simulation
from ..trace.recorder import Recorder
from ..trace.records import Cycle, Decision
from ..trace.run import Run
from . import notes as nt
from ._text import names as _names
from ._text import plain as _plain
from ._text import seconds as _seconds
from .cronexplain import CronExplanation, explain_cronjob
from .errors import API, option
from .notes import SnapshotNote
from .read import MAX_SNAPSHOT_PODS, assume, load_snapshot

FOREVER = 365 * 24 * 3600.0
"""A forecast without ``until`` runs until the Job finishes (at most a simulated year)."""

_TERMINAL = (Phase.SUCCEEDED, Phase.FAILED)
_HIDDEN = {"sync.observed"}
"""Decisions shown under "observes", not among the decisions."""


class _RecordingBackoffStore(bu.BackoffStore):
    """The controller's backoff store, remembering the record the sync built (what it waits on)."""

    __slots__ = ("built",)

    def __init__(self) -> None:
        super().__init__()
        self.built: bu.BackoffRecord | None = None

    def new_backoff_record(self, key, new_succeeded_pods, new_failed_pods):  # noqa: D102 -- as the base class
        self.built = super().new_backoff_record(key, new_succeeded_pods, new_failed_pods)
        return self.built


@dataclass
class Explanation:
    """The next sync of a snapshot's Job: what the controller observed, did, and assumed."""

    snapshot: Snapshot
    cycle: Cycle
    job_after: Any
    created: list[str]
    create_attempts: int
    created_indexes: list[int]
    deleted: list[str]
    finalizer_removals: int
    requeue_after: float | None
    retry_after_error: bool
    error: str | None
    backoff: bu.BackoffRecord | None
    uncounted: list[str]
    uncounted_in_status: dict[str, list[str]]
    notes: list[SnapshotNote] = field(default_factory=list)
    """Assumptions, warnings and odd states, as ids and fields (worded by :meth:`note_text`)."""
    config: SimConfig = field(default_factory=SimConfig)
    surface: str = API
    """Who shows the answer: ``"api"`` (names keyword arguments) or ``"cli"`` (names options)."""

    def __str__(self) -> str:
        return self.render_text()

    def __repr__(self) -> str:
        return f"<Explanation of {self.snapshot.key} at {self.snapshot.real_time(self.snapshot.now)}>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        # IPython shows the text answer when an explanation is a cell's last expression.
        printer.text(self.render_text())

    def forecast(self, assume_duration: float | None = None, *, until: float | None = None,
                 max_cycles: int | None = None, max_pods: int | None = None, max_events: int | None = None,
                 max_pod_cycles: int | None = None, budget: Budget | None = None, assume_sync: bool = False) -> Run:
        """The Job played forward in the simulated cluster from the snapshot (a :class:`~k8sjobs.trace.Run`).

        Running pods end after the duration their ``sim.k8sjobs.io`` annotations give, else
        after ``assume_duration`` seconds from their start (default: the median run time of
        the snapshot's succeeded pods, else 60 s) and succeed. ``until``: stop this many
        simulated seconds after the snapshot (default: when the Job finishes). Cycle 1 of the
        run is the sync this explanation describes.

        The forecast has the limits of any run (:class:`~k8sjobs.sim.Budget`'s defaults, or
        ``budget``, with the keywords given set): a huge Job stops at one of them, and
        ``run.limit`` / ``run.message("forecast", "explain --forecast")`` say which and how to
        raise it; the cycles up to there are usable like any run's.

        A stuck Job (started, no pod, no condition: the note ``state.started_without_pods``) has no
        sync due by itself, and its forecast starts none: nothing happens, as the explanation says.
        ``assume_sync=True`` plays what follows if a sync comes at the snapshot's instant (cycle 1 is
        the sync explained).
        """
        ahead = assume(self.snapshot, assume_duration)
        if self.stuck and not assume_sync:
            from dataclasses import replace

            ahead = replace(ahead, sync_due=False)
        horizon = ahead.now + (until if until is not None else FOREVER)
        return Run(ahead, self.config, budget=budget, max_time=horizon, max_cycles=max_cycles, max_pods=max_pods,
                   max_events=max_events, max_pod_cycles=max_pod_cycles)

    # ------------------------------------------------------------------ reading

    @property
    def stuck(self) -> bool:
        """True when no sync is due by itself (the note ``state.started_without_pods``)."""
        return any(n.id == "state.started_without_pods" for n in self.notes)

    @property
    def decisions(self) -> list[Decision]:
        """The sync's decisions in order (the observation line aside)."""
        return [d for d in self.cycle.decisions if d.rule not in _HIDDEN]

    def backoff_json(self) -> dict[str, Any]:
        """The backoff record the sync built: failures since the last success, the wait left."""
        rec = self.backoff
        snap = self.snapshot
        n = rec.failures_after_last_success if rec is not None else 0
        last = rec.last_failure_time if rec is not None else None
        remaining = bu.get_remaining_time(rec, snap.now) if rec is not None else 0.0
        return {"failuresAfterLastSuccess": n, "lastFailureTime": snap.real_time(last),
                "delay": bu.backoff_delay(n), "remaining": remaining,
                "until": snap.real_time(snap.now + remaining) if remaining > 0 else None}

    def observed_json(self) -> dict[str, Any]:
        """What the controller observed at the start of the sync."""
        o = self.cycle.observed
        if "active" not in o:  # the sync returned before counting (a finished Job): count as it would
            o = nt.observed_from_snapshot(self.snapshot)
        q = self.snapshot.quota
        return {
            "pods": o.get("pods", 0), "byPhase": dict(o.get("by_phase", {})),
            "active": o.get("active", 0), "ready": o.get("ready", 0), "terminating": o.get("terminating", 0),
            "succeeded": o.get("succeeded", 0), "failed": o.get("failed", 0),
            "newlyFinished": {"succeeded": o.get("new_succeeded", 0), "failed": o.get("new_failed", 0)},
            "uncounted": list(self.uncounted), "uncountedInStatus": self.uncounted_in_status,
            "backoff": self.backoff_json(),
            "expectations": {"satisfied": bool(o.get("satisfied", True)), "assumed": True},
            "quota": None if q is None else {"name": q.name, "resource": q.resource, "hard": q.hard, "used": q.used,
                                             "mine": q.mine, "outside": q.outside},
        }

    def status_json(self) -> dict[str, Any]:
        """The Job's status after the sync, with every counter present (as the issue's JSON has it)."""
        job = self.job_after
        if job is None:
            return {}
        st = job.status
        doc = to_dict(st)
        doc.pop("conditions", None)
        for name, value in (("active", st.active), ("ready", st.ready), ("succeeded", st.succeeded),
                            ("failed", st.failed), ("terminating", st.terminating),
                            ("completedIndexes", st.completed_indexes), ("failedIndexes", st.failed_indexes)):
            doc[name] = value
        unc = st.uncounted_terminated_pods
        doc["uncountedTerminatedPods"] = {"succeeded": list(unc.succeeded) if unc else [],
                                          "failed": list(unc.failed) if unc else []}
        snap = self.snapshot
        for name, value in (("startTime", st.start_time), ("completionTime", st.completion_time)):
            doc[name] = snap.real_time(value)
        return doc

    def conditions_json(self) -> list[dict[str, Any]]:
        """The Job's conditions after the sync, in order."""
        job = self.job_after
        if job is None:
            return []
        snap = self.snapshot
        return [{"type": c.type, "status": c.status, "reason": c.reason, "message": c.message,
                 "lastTransitionTime": snap.real_time(c.last_transition_time)} for c in job.status.conditions]

    def to_json(self) -> dict[str, Any]:
        """The answer for scripts (the shape issue 16 gives)."""
        snap = self.snapshot
        return {
            "job": snap.key,
            "now": snap.real_time(snap.now),
            "observed": self.observed_json(),
            "sync": {
                "creations": self.create_attempts,
                "created": list(self.created),
                "createdIndexes": sorted(self.created_indexes),
                "deletions": list(self.deleted),
                "finalizerRemovals": self.finalizer_removals,
                "status": self.status_json(),
                "conditions": self.conditions_json(),
                "requeueAfter": self.requeue_after,
                "error": self.error,
            },
            "decisions": [{"rule": d.rule, "reason": d.reason, **_plain(d.fields)} for d in self.decisions],
            "assumptions": self.assumptions(),
            "warnings": list(self.warnings),
            "states": self.states(),
            "notes": self.notes_json(),
            "leftOut": [{"pod": x.name, "namespace": x.namespace, "why": x.why, **({"owner": x.owner} if x.owner else {})}
                        for x in snap.left_out],
            "ignored": [{"kind": i.kind, "field": i.field, "objects": i.count} for i in snap.ignored],
        }

    def _texts(self, kind: str) -> list[str]:
        return [self.note_text(n) for n in self.notes if n.kind == kind]

    def assumptions(self) -> list[str]:
        """What the snapshot cannot show and the answer takes for granted, in words."""
        return self._texts(nt.ASSUMPTION)

    @property
    def warnings(self) -> list[str]:
        """Where the snapshot disagrees with itself, in words."""
        return self._texts(nt.WARNING)

    def states(self) -> list[str]:
        """The Job's stuck or odd states, each with what to check, in words."""
        return self._texts(nt.STATE)

    def note_text(self, note: SnapshotNote) -> str:
        """One note in words, in the current language, for :attr:`surface`."""
        return _NOTE_TEXTS[note.id](self.surface, **note.fields)

    def notes_json(self) -> list[dict[str, Any]]:
        """Every note: its id, kind, fields and text."""
        return [{"id": n.id, "kind": n.kind, **n.fields, "text": self.note_text(n)} for n in self.notes]

    # ------------------------------------------------------------------ text

    PARTS = ("heading", "observes", "decisions", "result", "states", "assumptions", "left_out", "ignored")
    """The parts of the text answer, in order (:meth:`render_text` can print some of them)."""

    def render_text(self, parts: tuple[str, ...] | list[str] | None = None) -> str:
        """The answer for people: observations, decisions in order, the result, the assumptions.

        ``parts`` (default: all) chooses some of :attr:`PARTS`, e.g. ``("decisions", "result")``.
        """
        wanted = self.PARTS if parts is None else tuple(parts)
        unknown = [p for p in wanted if p not in self.PARTS]
        if unknown:
            raise ValueError(_("parts: unknown {unknown}; the parts are {parts}").format(
                unknown=join_list(unknown), parts=join_list(self.PARTS)))
        blocks = [lines for key, lines in self._blocks() if key in wanted and lines]
        return "\n\n".join("\n".join(b) for b in blocks) + "\n"

    def _blocks(self) -> list[tuple[str, list[str]]]:
        snap = self.snapshot
        o = self.observed_json()
        out: list[tuple[str, list[str]]] = []
        out.append(("heading", [_("Job {key} at {now} ({age} s after its creation)").format(
            key=snap.key, now=snap.real_time(snap.now), age=_seconds(snap.now))]))
        lines = [_("What the controller observes")]
        phases = join_list(f"{n} {phase}" for phase, n in sorted(o["byPhase"].items())) or _("none")
        lines.append("  " + ngettext("{n} pod ({phases})", "{n} pods ({phases})", o["pods"]).format(
            n=o["pods"], phases=phases))
        if snap.unseen:
            lines.append("  " + ngettext(
                "{n} of them is not in the snapshot: it stands for a pod the status counts ({names})",
                "{n} of them are not in the snapshot: they stand for pods the status counts ({names})",
                len(snap.unseen)).format(n=len(snap.unseen), names=_names(list(snap.unseen))))
        lines.append("  " + _("active {active}, ready {ready}, terminating {terminating}; succeeded {succeeded}, "
                              "failed {failed} (the status counters plus the finished pods not counted yet)").format(
            **{k: o[k] for k in ("active", "ready", "terminating", "succeeded", "failed")}))
        if self.uncounted:
            lines.append("  " + ngettext("{n} finished pod is not counted yet (it still carries the tracking "
                                         "finalizer): {names}",
                                         "{n} finished pods are not counted yet (they still carry the tracking "
                                         "finalizer): {names}", len(self.uncounted)).format(
                n=len(self.uncounted), names=_names(self.uncounted)))
        else:
            lines.append("  " + _("every finished pod is counted in the Job's status already"))
        b = o["backoff"]
        if snap.job.spec.backoff_limit_per_index is not None:
            lines.append("  " + _("backoff: per index (backoffLimitPerIndex is set), from each index's last failed "
                                  "pod; the Job-wide backoff record is not used"))
        elif b["failuresAfterLastSuccess"]:
            wait = (_("wait {s} s more, until {until}").format(s=_seconds(b["remaining"]), until=b["until"])
                    if b["remaining"] > 0 else _("that wait is over"))
            lines.append("  " + ngettext(
                "backoff record: {n} failure since the last success, the last at {last}: {delay} s after it; {wait}",
                "backoff record: {n} failures since the last success, the last at {last}: {delay} s after it; {wait}",
                b["failuresAfterLastSuccess"]).format(n=b["failuresAfterLastSuccess"], last=b["lastFailureTime"],
                                                      delay=_seconds(b["delay"]), wait=wait))
        else:
            lines.append("  " + _("backoff record: no failure since the last success: no wait"))
        for w in self.warnings:
            lines.append("  ! " + w)
        out.append(("observes", lines))
        lines = [_("What its next sync does, in order")]
        if not self.decisions:
            lines.append("  " + _("nothing"))
        for i, d in enumerate(self.decisions, 1):
            lines.append(f"  {i:>2}. [{d.rule}] {' '.join(d.reason.split())}")
        out.append(("decisions", lines))
        out.append(("result", [_("Result"), *("  " + line for line in self._result_lines())]))
        found = self.states()
        out.append(("states", [_("What looks stuck or odd, and what to check"), *(f"  - {t}" for t in found)]
                    if found else []))
        out.append(("assumptions", [_("What the snapshot cannot show (assumed)"),
                                    *(f"  - {a}" for a in self.assumptions())]))
        left = snap.left_out
        lines = []
        if left:
            lines.append(_("Left out"))
            lines.extend(f"  - {_left_out_text(x)}" for x in left[:20])
            if len(left) > 20:
                lines.append("  - " + _("... and {n} more").format(n=len(left) - 20))
        out.append(("left_out", lines))
        lines = []
        if snap.ignored or snap.other_kinds:
            lines.append(_("Not used by the model (ignored): {fields}").format(fields=_ignored_text(snap)))
        out.append(("ignored", lines))
        return out

    def _result_lines(self) -> list[str]:
        out = []
        if self.created:
            idx = (" " + _("(indexes {indexes})").format(indexes=_indexes(self.created_indexes))
                   if self.created_indexes else "")
            out.append(ngettext("creates {n} pod{indexes}: {names}", "creates {n} pods{indexes}: {names}",
                                len(self.created)).format(n=len(self.created), indexes=idx, names=_names(self.created)))
        failed = self.create_attempts - len(self.created)
        if failed > 0:
            out.append(ngettext("{n} pod creation fails", "{n} pod creations fail", failed).format(n=failed))
        if self.deleted:
            out.append(ngettext("deletes {n} pod, in this order: {names}", "deletes {n} pods, in this order: {names}",
                                len(self.deleted)).format(n=len(self.deleted), names=_names(self.deleted)))
        if not self.created and not self.deleted and self.create_attempts == 0:
            out.append(_("creates and deletes no pod"))
        if self.finalizer_removals:
            out.append(ngettext("removes the tracking finalizer from {n} pod",
                                "removes the tracking finalizer from {n} pods",
                                self.finalizer_removals).format(n=self.finalizer_removals))
        s = self.status_json()
        if s:
            out.append(_("status after it: active={active} ready={ready} succeeded={succeeded} failed={failed} "
                         "terminating={terminating}").format(**{k: s.get(k) for k in (
                             "active", "ready", "succeeded", "failed", "terminating")}))
            if s.get("completedIndexes") or s.get("failedIndexes"):
                out.append(_("completed indexes: {done}; failed indexes: {failed}").format(
                    done=s.get("completedIndexes") or "-", failed=s.get("failedIndexes") or "-"))
        conds = self.conditions_json()
        if conds:
            out.append(_("conditions: {list}").format(list=join_clauses(
                f"{c['type']}={c['status']} ({c['reason']})" for c in conds)))
        if self.error:
            out.append(_("the sync returns an error and is retried (rate limited): {error}").format(error=self.error))
        elif self.requeue_after is not None:
            out.append(_("it asks to be synced again in {s} s, at {at}").format(
                s=_seconds(self.requeue_after), at=self.snapshot.real_time(self.snapshot.now + self.requeue_after)))
        else:
            out.append(_("no delayed sync requested: the next sync comes when a pod or the Job changes"))
        return out

    def to_json_text(self) -> str:
        """:meth:`to_json` as indented JSON text."""
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False, default=str) + "\n"


def _indexes(indexes: list[int]) -> str:
    return ",".join(str(i) for i in sorted(indexes))


def _left_out_text(x: LeftOut) -> str:
    if x.why == "other-controller":
        return _("pod {name}: its controller is {owner}, not this Job").format(name=x.name, owner=x.owner)
    if x.why == "other-namespace":
        return _("pod {name}: it is in namespace {ns}, not the Job's").format(name=x.name, ns=x.namespace)
    return _("pod {name}: finished and counted already (the tracking finalizer is gone); the next sync does not "
             "read it, and the simulation has room for {limit} pods").format(name=x.name, limit=f"{MAX_SNAPSHOT_PODS:,}")


def _ignored_text(snap: Snapshot) -> str:
    by_kind: dict[str, list[Ignored]] = {}
    for i in snap.ignored:
        by_kind.setdefault(i.kind, []).append(i)
    parts = []
    for kind, items in by_kind.items():
        parts.append(f"{kind}: " + join_list(i.field for i in items))
    for kind, n in snap.other_kinds:
        parts.append(ngettext("{n} {kind} object", "{n} {kind} objects", n).format(n=n, kind=kind))
    return join_clauses(parts)


def _uncounted(snapshot: Snapshot) -> tuple[list[str], dict[str, list[str]]]:
    """Finished pods still carrying the tracking finalizer, and the status's uncounted UIDs by name."""
    names = nt.uncounted_names(snapshot)
    by_uid = {p.metadata.uid: p.metadata.name for p in snapshot.pods}
    unc = snapshot.job.status.uncounted_terminated_pods
    in_status = {"succeeded": [by_uid.get(u, u) for u in (unc.succeeded if unc else ())],
                 "failed": [by_uid.get(u, u) for u in (unc.failed if unc else ())]}
    return names, in_status


def explain(snapshot: Snapshot | CronJobSnapshot | str | bytes | dict | os.PathLike,
            config: SimConfig | None = None, *, job: str | None = None,
            now: str | float | None = None) -> Explanation | CronExplanation:
    """Run the controller's next sync on a real Job's (or CronJob's) snapshot and say what it did, and why.

    A snapshot holding a CronJob (``kubectl get cronjob NAME -o yaml``, alone or with its Jobs) gives a
    :class:`~k8sjobs.snapshot.cronexplain.CronExplanation`: the next schedule time, the CronJob
    controller's sync at ``now`` and at that time, missed runs, and ``forecast(runs)``.

    ``snapshot`` is what ``kubectl get job,pods -l batch.kubernetes.io/job-name=NAME -o yaml``
    (or ``-o json``) printed: its text, a path to the file, the parsed document, or a
    :class:`~k8sjobs.api.snapshot.Snapshot`. ``job`` chooses the Job (``NAME`` or
    ``NAMESPACE/NAME``) when there are several; ``now`` (RFC 3339) is when the sync happens
    (default: the latest time recorded in the snapshot). ``print()`` the answer for the text
    ``python -m k8sjobs explain`` prints; :meth:`Explanation.to_json` is the JSON for scripts;
    :meth:`Explanation.forecast` plays the Job forward. Bad input raises
    :class:`~k8sjobs.api.errors.DecodeError` naming the object and field.
    """
    snapshot = load_snapshot(snapshot, job=job, now=now)
    if isinstance(snapshot, CronJobSnapshot):
        return explain_cronjob(snapshot, config)
    # Building the world makes a few objects per pod, none of them cyclic: the cyclic
    # collector would only walk the whole snapshot again and again (most of the time of a
    # 10,000-pod explain), so it waits until the answer is ready.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _explain(snapshot, config)
    finally:
        if enabled:
            gc.enable()


def _explain(snapshot: Snapshot, config: SimConfig | None) -> Explanation:
    sim = Simulation(snapshot, config or SimConfig())
    store = _RecordingBackoffStore()
    sim.controller.pod_backoff_store = store
    recorder = Recorder(sim)
    if not sim.next_cycle(max_time=snapshot.now):
        raise RuntimeError("the controller did not sync the snapshot's Job")  # a bug: the sync is queued at now
    cycle = recorder.trace.cycles[0]
    result = sim.controller.last_result
    key = sim.job_key
    queue = sim.controller.queue
    requeue = queue.waiting.get(key)
    uncounted, in_status = _uncounted(snapshot)
    job_after = sim.job
    if job_after is None:  # removed by the sync (its last finalizer went): its last status still tells
        job_after = next((ch.obj for ch in reversed(recorder.trace.changes) if ch.kind == "Job"), None)
    return Explanation(
        snapshot=snapshot, cycle=cycle, job_after=job_after, created=list(result.created),
        create_attempts=result.create_attempts, created_indexes=list(result.created_indexes),
        deleted=list(result.deleted), finalizer_removals=result.finalizer_patches,
        requeue_after=None if requeue is None else requeue - sim.clock.now(),
        retry_after_error=result.error is not None, error=result.error, backoff=store.built,
        uncounted=uncounted, uncounted_in_status=in_status, config=sim.config,
        notes=[*nt.warnings(snapshot, cycle.observed, len(uncounted)),
               *nt.states(snapshot, [str(d.fields.get("error")) for d in cycle.decisions
                                     if d.rule == "status.write_failed"]),
               *nt.assumptions(snapshot)])


def _latest_time(surface: str, now: str) -> str:
    # TRANSLATORS: {option} is --now (command line) or now= (Python): how to choose the sync's time.
    return _("The time of the sync is the latest time recorded in the snapshot ({now}); give {option} to choose "
             "another.").format(now=now, option=option("now", surface))


def _unseen(surface: str, job: str, active: int, ready: int, terminating: int, names: list[str], now: str,
            command: str) -> str:
    # TRANSLATORS: active, ready and terminating are the Job's status counters; keep the command as it is.
    return _("The snapshot holds none of the Job's pods, so its status counters stand for pods it cannot show: "
             "active {active} (ready {ready}) are taken as existing and running, terminating {terminating} as "
             "being deleted. Their names are unknown ({names} stand for them), and so are their nodes and start "
             "times (a forecast starts them at {now}); the controller creates no pod to replace them. To see the "
             "real pods, take the snapshot with `{command}`.").format(
        active=active, ready=ready, terminating=terminating, names=_names(names), now=now, command=command)


def _no_pods_shown(surface: str, job: str, command: str) -> str:
    return _("The snapshot holds no pod of the Job and no pod list, and the Job's status counts no active or "
             "terminating pod: the answer takes the Job to have no pods. Finished pods not counted yet would "
             "change it: take the pods too with `{command}` (for a Job without pods it prints an empty list, "
             "which says so).").format(command=command)


def _quota_used(surface: str, name: str, hard: int, resource: str, used: int, mine: int, outside: int) -> str:
    return ngettext(
        "ResourceQuota {name} allows {hard} {resource} in the namespace and its status says {used} are used: "
        "{mine} by this Job's pods in the snapshot, {outside} by a pod the snapshot does not show, taken to "
        "stay while the Job runs.",
        "ResourceQuota {name} allows {hard} {resource} in the namespace and its status says {used} are used: "
        "{mine} by this Job's pods in the snapshot, {outside} by pods the snapshot does not show, taken to "
        "stay while the Job runs.", outside).format(
        name=name, hard=hard, resource=resource, used=used, mine=mine, outside=outside)


def _started_without_pods(surface: str, job: str, started: str, since: float, namespace: str) -> str:
    ns = "" if namespace == "default" else f" -n {namespace}"
    # TRANSLATORS: FailedCreate is an Event reason, startTime a field: they stay English; keep the command.
    return _("The Job started at {started} ({since} s before the sync) but has no pod, no active pod in its "
             "status and no condition: the sync that set startTime created none. A controller syncs a Job again "
             "only when the Job or one of its pods changes (or a failed sync is retried), so the sync above is "
             "not due by itself: it is what happens when one comes. Check `kubectl describe job {job}{ns}` for "
             "FailedCreate events (a ResourceQuota, a LimitRange, an admission webhook or a policy refused the "
             "pods; each retry, rate limited, adds another); the controller's expectations, in "
             "kube-controller-manager's log (pods it created or deleted and never saw keep it waiting until they "
             "expire, 5 minutes later, at a sync); and whether a Job of the same name was deleted and re-created "
             "a moment before (the controller keys its expectations by namespace and name, so what it still "
             "expected of the old Job holds the new one back until they expire).").format(
        started=started, since=_seconds(since), job=job, ns=ns)


def _deleting(surface: str, job: str, at: str, finalizers: list[str], case: str, pods: int) -> str:
    if case == "foreground":
        # TRANSLATORS: foregroundDeletion, blockOwnerDeletion and deletionTimestamp stay English.
        return ngettext(
            "The Job is being deleted (deletionTimestamp {at}) with foreground propagation (finalizer "
            "foregroundDeletion): the garbage collector deletes its pods first ({pods} not finished in the "
            "snapshot; a pod with blockOwnerDeletion holds the Job until it is gone), then removes the finalizer, "
            "and the Job is gone. Meanwhile its controller still syncs it: it counts finished pods and removes "
            "their tracking finalizers, and creates no pod. If it stays, check the pods that do not go: "
            "`kubectl get pods -l batch.kubernetes.io/job-name={job}` (a finalizer of their own, a node that is "
            "gone).",
            "The Job is being deleted (deletionTimestamp {at}) with foreground propagation (finalizer "
            "foregroundDeletion): the garbage collector deletes its pods first ({pods} not finished in the "
            "snapshot; a pod with blockOwnerDeletion holds the Job until it is gone), then removes the finalizer, "
            "and the Job is gone. Meanwhile its controller still syncs it: it counts finished pods and removes "
            "their tracking finalizers, and creates no pod. If it stays, check the pods that do not go: "
            "`kubectl get pods -l batch.kubernetes.io/job-name={job}` (a finalizer of their own, a node that is "
            "gone).", pods).format(at=at, pods=pods, job=job)
    if case == "orphan":
        return _("The Job is being deleted (deletionTimestamp {at}) with orphan propagation (finalizer orphan): the "
                 "garbage collector removes the Job from its pods' ownerReferences, then the finalizer, and the Job "
                 "is gone; its pods stay and run on without a controller. Meanwhile its controller syncs it as "
                 "above and creates no pod.").format(at=at)
    if case == "finalizers":
        return _("The Job is being deleted (deletionTimestamp {at}) but finalizers hold it: {finalizers}. Whoever "
                 "added them (another controller, an operator) must remove them; until then the Job stays, and its "
                 "controller syncs it as above and creates no pod. Check `kubectl get job {job} -o "
                 "jsonpath='{{.metadata.finalizers}}'` and the controller that owns each finalizer.").format(
            at=at, finalizers=join_list(finalizers), job=job)
    return _("The Job is being deleted (deletionTimestamp {at}) and no finalizer holds it: the API server removes "
             "it at once (a snapshot rarely catches this), and with background propagation the garbage collector "
             "then deletes its pods. The sync above is what the controller does if it still sees the Job; once "
             "it is gone, a sync finds nothing and does nothing.").format(at=at)


def _status_refused(surface: str, job: str, error: str, case: str) -> str:
    if case == "suspended_finish":
        # TRANSLATORS: {error} is the API server's message (English); startTime, Complete, Failed and spec.suspend stay English.
        return _("The API server refuses the sync's status write: {error}. The Job is suspended, so the controller "
                 "leaves startTime unset, and since Kubernetes 1.32 a finished Job must have one: the real "
                 "controller gets the same refusal at every retry (rate limited, at most a minute apart), and the "
                 "Job gets no Complete or Failed condition while it stays suspended (kubernetes/kubernetes#132144). "
                 "Resuming it (spec.suspend: false) makes the controller set startTime.").format(error=error)
    return _("The API server refuses the sync's status write: {error}. The real controller gets the same refusal: "
             "the sync returns an error and is retried with rate-limited back-off (1 s, doubling up to a minute), "
             "and the status stays as the snapshot shows until what breaks the rule changes; the controller's log "
             "(kube-controller-manager) shows this message at each retry.").format(error=error)


_NOTE_TEXTS: dict[str, Any] = {
    "assume.expectations": lambda surface: _(
        "The controller's expectations are taken as satisfied, as right after a controller restart: "
        "a creation or deletion it is still waiting to see would make it wait instead."),
    "assume.backoff_record": lambda surface: _(
        "The backoff record is rebuilt from the finish times of the finished pods the controller has not "
        "counted yet, as upstream does after a restart; failures it counted before are not in it."),
    "assume.sync_time": lambda surface, now: _(
        "The sync runs at {now}; when it really runs depends on the work queue (1 s batching of pod "
        "events, rate-limited retries), which a snapshot does not show.").format(now=now),
    "assume.informer_caches": lambda surface: _("The controller's informer caches are taken to hold exactly the "
                                                "snapshot."),
    "assume.latest_time": _latest_time,
    "assume.unseen_pods": _unseen,
    "assume.no_pods_shown": _no_pods_shown,
    "assume.quota_used": _quota_used,
    "assume.quota_unknown_use": lambda surface, name, hard, resource, mine: _(
        "ResourceQuota {name} allows {hard} {resource} in the namespace; its status.used is not in "
        "the snapshot, so only this Job's {mine} non-finished pods are counted as using it.").format(
        name=name, hard=hard, resource=resource, mine=mine),
    "assume.no_quota": lambda surface: _("No ResourceQuota is in the snapshot: pod creations are assumed to "
                                         "succeed."),
    "warn.pods_missing": lambda surface, status, n, command: _(
        "the Job's status says {status} active pods, the snapshot has {n}: pods may be missing from "
        "it (take it with the job-name label selector, as `kubectl get job,pods -l "
        "batch.kubernetes.io/job-name=NAME` does)").format(status=status, n=n),
    "state.started_without_pods": _started_without_pods,
    "state.deleting": _deleting,
    "state.status_refused": _status_refused,
}
"""Note id -> its sentence, given the surface and the note's fields (:mod:`k8sjobs.snapshot.notes`)."""


__all__ = ["FOREVER", "Explanation", "explain"]
