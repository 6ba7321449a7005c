"""Explain a real CronJob: its sync at the snapshot's instant, when its next run is due, and what that sync does.

:func:`explain_cronjob` puts the snapshot's CronJob and its Jobs in the simulated API server
(:class:`~k8sjobs.sim.Simulation` from a :class:`~k8sjobs.api.snapshot.CronJobSnapshot`), starts
kube-controller-manager as after a restart (both controllers have their objects queued at the
snapshot's instant) and records what the real ``sync_cron_job`` does: at that instant, and at the
next schedule time (the Jobs in between run for the assumed duration). Nothing here decides
anything: the answer is the syncs' decisions (rule ids and fields), their Jobs created and
deleted, their events and requeues. :meth:`CronExplanation.forecast` plays the next N runs.

What the snapshot cannot show is assumed and listed (notes, :mod:`k8sjobs.snapshot.notes`),
worded here for the surface that shows them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..api.snapshot import CronJobSnapshot
from ..controller.cronjob import utils as u
from ..controller.cronjob.cronjob_controllerv2 import ScheduleError, format_schedule, parse_cron_schedule
from ..i18n import _, join_list, ngettext
from ..sim import Budget, SimConfig
from ..trace.records import Cycle, Decision
from ..trace.run import Run
from . import notes as nt
from ._text import names as _names
from ._text import plain as _plain
from ._text import seconds as _seconds
from .errors import API, option
from .notes import SnapshotNote

DEFAULT_RUNS = 5
"""How many schedule times a CronJob's forecast plays by default."""

MAX_RUNS = 1000
"""The most schedule times one forecast plays."""

_SCHEDULE_RULES = ("cronjob.create", "cronjob.skip.forbid", "cronjob.skip.too_late", "cronjob.skip.already_processed",
                   "cronjob.create.exists", "cronjob.create.failed", "cronjob.create.namespace_terminating")
"""The decisions that settle a schedule time: a Job for it, or why none."""


@dataclass
class CronSync:
    """One sync of the CronJob, as the simulation recorded it."""

    t: float
    decisions: list[Decision]
    created: list[str]
    deleted: list[str]
    events: list[tuple[str, str, str]]
    """(type, reason, message) of each Event it recorded, in order."""
    requeue_after: float | None
    error: str | None

    @classmethod
    def of(cls, cycle: Cycle) -> CronSync:
        """The summary of one recorded CronJob cycle."""
        return cls(t=cycle.t, decisions=[d for d in cycle.decisions if d.rule not in _HIDDEN],
                   created=list(cycle.created), deleted=list(cycle.deleted),
                   events=[(e.type, e.reason, e.message) for e in cycle.events], requeue_after=cycle.requeue_after,
                   error=cycle.error)

    def settles(self) -> Decision | None:
        """The decision that settles a schedule time in this sync (a Job made, or why none), if any."""
        return next((d for d in self.decisions if d.rule in _SCHEDULE_RULES), None)

    def to_json(self, snap: CronJobSnapshot) -> dict[str, Any]:
        """``{"at", "createdJobs", "deletedJobs", "requeueAfter", "events", "decisions", "error"}``."""
        return {"at": snap.real_time(self.t), "createdJobs": list(self.created), "deletedJobs": list(self.deleted),
                "requeueAfter": self.requeue_after,
                "events": [{"type": t, "reason": r, "message": m} for t, r, m in self.events],
                "decisions": [{"rule": d.rule, "reason": d.reason, **_plain(d.fields)} for d in self.decisions],
                "error": self.error}


_HIDDEN = {"cronjob.sync.begin", "cronjob.jobs.listed"}


@dataclass
class CronExplanation:
    """A CronJob's sync at the snapshot's instant, its next schedule time, and the sync at that time."""

    snapshot: CronJobSnapshot
    sync: CronSync
    next_schedule: Any
    """The next schedule time after the snapshot's instant (an aware datetime in the schedule's zone), or None."""
    next_job: str | None
    zone: str
    """The zone the schedule is read in (spec.timeZone, a TZ= prefix, else kube-controller-manager's)."""
    next_sync: CronSync | None
    """The sync at the next schedule time (None: no sync comes then, e.g. the CronJob is suspended)."""
    woken: int
    """Syncs between the two, woken by changes of its Jobs."""
    notes: list[SnapshotNote] = field(default_factory=list)
    config: SimConfig = field(default_factory=SimConfig)
    surface: str = API
    kind: str = "CronJob"

    def __str__(self) -> str:
        return self.render_text()

    def __repr__(self) -> str:
        return f"<Explanation of CronJob {self.snapshot.key} at {self.snapshot.real_time(self.snapshot.now)}>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(self.render_text())

    # ------------------------------------------------------------------ reading

    @property
    def decisions(self) -> list[Decision]:
        """The decisions of the sync at the snapshot's instant, in order."""
        return self.sync.decisions

    def note_text(self, note: SnapshotNote) -> str:
        """One note in words, in the current language, for :attr:`surface`."""
        return _NOTE_TEXTS[note.id](self.surface, **note.fields)

    def assumptions(self) -> list[str]:
        """What the snapshot cannot show and the answer takes for granted, in words."""
        return [self.note_text(n) for n in self.notes if n.kind == nt.ASSUMPTION]

    def missed(self) -> list[str]:
        """Why schedule times passed without a Job, from the sync at the snapshot's instant, in words."""
        return _missed_texts(self.sync, self.snapshot, self.config.controller_zone)

    def schedule_json(self) -> dict[str, Any]:
        """The next schedule time in the schedule's zone and in UTC, and the name its Job gets."""
        t = self.next_schedule
        return {"zone": self.zone, "local": None if t is None else u.format_rfc3339(t),
                "utc": None if t is None else u.format_rfc3339(t.astimezone(_utc()))}

    def to_json(self) -> dict[str, Any]:
        """The answer for scripts."""
        snap = self.snapshot
        nxt = self.schedule_json()
        return {
            "cronjob": snap.key,
            "apiVersion": snap.api_version,
            "now": snap.real_time(snap.now),
            "schedule": snap.cronjob.spec.schedule,
            "timeZone": self.zone,
            "nextSchedule": nxt["utc"],
            "nextScheduleLocal": nxt["local"],
            "nextJob": self.next_job,
            "sync": self.sync.to_json(snap),
            "next": None if self.next_sync is None else {**self.next_sync.to_json(snap), "wokenBefore": self.woken},
            "missed": self.missed(),
            "assumptions": self.assumptions(),
            "notes": [{"id": n.id, "kind": n.kind, **n.fields, "text": self.note_text(n)} for n in self.notes],
            "jobs": {"shown": list(j.metadata.name for j in snap.jobs if j.metadata.name not in snap.unseen_jobs),
                     "standIns": list(snap.unseen_jobs), "leftOut": list(snap.other_jobs)},
            "ignored": [{"kind": i.kind, "field": i.field, "objects": i.count} for i in snap.ignored],
        }

    def to_json_text(self) -> str:
        """:meth:`to_json` as indented JSON text."""
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False, default=str) + "\n"

    # ------------------------------------------------------------------ text

    def render_text(self) -> str:
        """The answer for people: the next schedule time, the sync now, the sync then, why runs were missed, the
        assumptions."""
        snap = self.snapshot
        cj = snap.cronjob
        out: list[list[str]] = []
        head = [_("CronJob {key} at {now} (schedule {schedule}, zone {zone})").format(
            key=snap.key, now=snap.real_time(snap.now), schedule=cj.spec.schedule, zone=self.zone)]
        nxt = self.schedule_json()
        if nxt["utc"] is None:
            head.append("  " + _("no next schedule time: the schedule never fires again (or cannot be read)"))
        else:
            head.append("  " + _("next schedule time: {local} ({zone}), {utc}; its Job is {job}").format(
                local=nxt["local"], zone=self.zone, utc=nxt["utc"], job=self.next_job))
        st = cj.status
        head.append("  " + _("status: lastScheduleTime {last}, lastSuccessfulTime {ok}, active {active}").format(
            last=snap.real_time(st.last_schedule_time) or "<none>", ok=snap.real_time(st.last_successful_time)
            or "<none>", active=join_list(a.name for a in st.active) or "<none>"))
        out.append(head)
        out.append([_("Its sync at {now}").format(now=_when(snap, self.sync.t)), *_sync_lines(self.sync, snap)])
        missed = self.missed()
        if missed:
            out.append([_("Missed schedule times"), *(f"  - {m}" for m in missed)])
        if self.next_sync is not None:
            title = _("Its sync at the next schedule time, {at}").format(at=_when(snap, self.next_sync.t))
            lines = [title]
            if self.woken:
                lines.append("  " + ngettext(
                    "(before it, {n} sync woken by a change of its Jobs; the forecast lists it)",
                    "(before it, {n} syncs woken by changes of its Jobs; the forecast lists them)",
                    self.woken).format(n=self.woken))
            out.append(lines + _sync_lines(self.next_sync, snap))
        elif nxt["utc"] is not None:
            out.append([_("No sync comes at the next schedule time (see the sync above: the CronJob is suspended, "
                          "or its schedule cannot be used).")])
        out.append([_("What the snapshot cannot show (assumed)"), *(f"  - {a}" for a in self.assumptions())])
        left = []
        if snap.other_jobs:
            left.append(_("Left out: Jobs this CronJob does not own: {names}").format(names=_names(list(snap.other_jobs))))
        if snap.ignored or snap.other_kinds:
            parts = [f"{i.kind}: {i.field}" for i in snap.ignored[:12]] + [f"{n} {k}" for k, n in snap.other_kinds]
            left.append(_("Not used by the model (ignored): {fields}").format(fields=join_list(parts)))
        if left:
            out.append(left)
        return "\n\n".join("\n".join(b) for b in out) + "\n"

    # ------------------------------------------------------------------ forecast

    def forecast(self, runs: int = DEFAULT_RUNS, assume_duration: float | None = None, *, until: float | None = None,
                 max_cycles: int | None = None, max_pods: int | None = None, max_events: int | None = None,
                 max_pod_cycles: int | None = None, budget: Budget | None = None) -> CronForecast:
        """The next ``runs`` schedule times played in the simulated cluster (a :class:`CronForecast`).

        The runs are the schedule times the syncs settle from the snapshot's instant on (a Job made, or why
        none), the first ``runs`` of them: a missed time the sync at the snapshot's instant starts is the first.

        Each Job's pods run ``assume_duration`` seconds (default: the median time the snapshot's
        completed Jobs took, else 60 s) and succeed. ``until``: stop this many simulated seconds
        after the snapshot at the latest. The run has the limits of any run (see
        :meth:`k8sjobs.snapshot.explain.Explanation.forecast`).
        """
        if isinstance(runs, bool) or not isinstance(runs, int) or not 1 <= runs <= MAX_RUNS:
            from .errors import SnapshotError

            raise SnapshotError("runs.invalid", value=runs, limit=MAX_RUNS)
        from .read import check_duration

        check_duration(assume_duration)
        ahead = self.snapshot.assuming(assume_duration)
        horizon = _horizon(self, runs, ahead.assumed_duration or 0.0)
        if until is not None:
            horizon = min(horizon, ahead.now + until)
        run = Run(ahead, self.config, budget=budget, max_time=horizon, max_cycles=max_cycles, max_pods=max_pods,
                  max_events=max_events, max_pod_cycles=max_pod_cycles, checkpoints=False)
        syncs = [CronSync.of(c) for c in run.cluster.cronjobs()[0].cycles]
        played = [s for s in syncs if s.settles() is not None][:runs]
        return CronForecast(snapshot=ahead, run=run, runs=played, syncs=syncs, wanted=runs, explanation=self)


@dataclass
class CronForecast:
    """The next schedule times of a CronJob played forward: each run's sync, and the whole run."""

    snapshot: CronJobSnapshot
    run: Run
    runs: list[CronSync]
    syncs: list[CronSync]
    wanted: int
    explanation: CronExplanation

    def assumptions(self) -> list[str]:
        """What the forecast assumes, in words (the explanation's, and the Jobs' run time)."""
        snap = self.snapshot
        how = {"given": "given", "finished-jobs": "finished-jobs", "default": "default"}[snap.duration_source]
        note = SnapshotNote("assume.cron_job_duration", nt.ASSUMPTION, {
            "duration": snap.assumed_duration, "source": how, "jobs": snap.duration_jobs})
        return [*self.explanation.assumptions(), self.explanation.note_text(note)]

    def to_json(self) -> dict[str, Any]:
        """``{"runs": [...], "assumedDuration", "durationFrom", "assumptions", "limit"}``."""
        snap = self.snapshot
        out = []
        for s in self.runs:
            d = s.settles()
            out.append({"at": snap.real_time(s.t), "scheduled": _scheduled_text(d, snap),
                        "job": d.fields.get("job") if d is not None else None,
                        "outcome": d.rule if d is not None else None, **s.to_json(snap)})
        limit = self.run.limit
        deletions = [{"at": snap.real_time(s.t), "job": name} for s in self.syncs for name in s.deleted]
        return {"runs": out, "deletions": deletions, "assumedDuration": snap.assumed_duration,
                "durationFrom": snap.duration_source,
                "assumptions": self.assumptions(), "limit": None if limit is None else limit.limit}

    def render_text(self) -> str:
        """The runs as text, then the assumptions."""
        snap = self.snapshot
        lines = [ngettext("Forecast of the next {n} schedule time", "Forecast of the next {n} schedule times",
                          self.wanted).format(n=self.wanted)]
        for i, s in enumerate(self.runs, 1):
            d = s.settles()
            lines.append(f"  {i:>2}. {_when(snap, s.t)}  [{d.rule}] {' '.join(d.reason.split())}")
            if s.deleted:
                lines.append("      " + _("deletes {names}").format(names=_names(s.deleted)))
            for t, r, m in s.events:
                lines.append(f"      = event {t} {r}: {m}")
        if len(self.runs) < self.wanted:
            lines.append("  " + ngettext("(only {n} schedule time came before the forecast stopped)",
                                         "(only {n} schedule times came before the forecast stopped)",
                                         len(self.runs)).format(n=len(self.runs)))
        lines += ["", _("The forecast assumes, besides what the explanation assumes"),
                  f"  - {self.assumptions()[-1]}"]
        return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- building


def explain_cronjob(snapshot: CronJobSnapshot, config: SimConfig | None = None) -> CronExplanation:
    """The CronJob's sync at the snapshot's instant and at its next schedule time (see the module docstring)."""
    config = config or SimConfig()
    ahead = snapshot.assuming(None)
    cj = snapshot.cronjob
    nxt = _next_time(cj, snapshot.now, snapshot.origin, u.load_location(config.controller_zone) or _utc())
    next_job = u.get_job_name(cj, nxt) if nxt is not None else None
    horizon = snapshot.now + 1.0
    if nxt is not None:
        horizon = max(horizon, u.from_time(nxt, snapshot.origin) + 1.0)
    run = Run(ahead, config, max_time=horizon, checkpoints=False)
    zone = run.sim.cronjob_controller._schedule_zone(cj)
    shown = nxt
    if nxt is not None:
        try:
            loc = u.load_location(zone)
        except ValueError:
            loc = None
        shown = nxt.astimezone(loc) if loc is not None else nxt
    trace = run.cluster.cronjobs()[0]
    if not trace.cycles:
        raise RuntimeError("the CronJob controller did not sync the snapshot's CronJob")  # a bug: it is queued now
    syncs = [CronSync.of(c) for c in trace.cycles]
    first = syncs[0]
    later = None
    woken = 0
    if nxt is not None:
        due = u.from_time(nxt, snapshot.origin)
        for s in syncs[1:]:
            if s.t >= due:
                later = s
                break
            woken += 1
    return CronExplanation(snapshot=snapshot, sync=first, next_schedule=shown, next_job=next_job, zone=zone,
                           next_sync=later, woken=woken if later is not None else 0, config=config,
                           notes=nt.cronjob_assumptions(snapshot, zone, config.controller_zone))


def _next_time(cj: Any, now: float, origin: float, controller_zone: Any) -> Any:
    """The first schedule time strictly after ``now`` (an aware datetime), or None (no schedule, none within 5 years)."""
    try:
        sched = parse_cron_schedule(format_schedule(cj, None))
    except ScheduleError:
        return None
    loc = controller_zone
    if cj.spec.time_zone:
        try:
            loc = u.load_location(cj.spec.time_zone) or controller_zone
        except ValueError:
            return None
    t = sched.next(u.to_time(now, loc, origin))
    return None if t is None or t == u.GO_ZERO else t


def _horizon(ex: CronExplanation, runs: int, duration: float) -> float:
    """Simulated time just after the ``runs``-th schedule time from the snapshot's instant (or a year)."""
    snap = ex.snapshot
    cj = snap.cronjob
    t = snap.now
    try:
        sched = parse_cron_schedule(format_schedule(cj, None))
    except ScheduleError:
        return snap.now + 1.0
    try:
        zone = u.load_location(cj.spec.time_zone or ex.config.controller_zone)
    except ValueError:
        zone = None
    at = u.to_time(t, zone or u.load_location(ex.config.controller_zone) or _utc(), snap.origin)
    end = snap.now + 365 * 86400.0
    for _i in range(runs + 1):
        n = sched.next(at)
        if n is None or n == u.GO_ZERO:
            return min(end, u.from_time(at, snap.origin) + duration + 1.0)
        at = n
        if u.from_time(at, snap.origin) > end:
            return end
    return u.from_time(at, snap.origin) + 1.0


def _utc() -> Any:
    import datetime as _dt

    return _dt.UTC


# ---------------------------------------------------------------------------- words


def _when(snap: CronJobSnapshot, t: float) -> str:
    """An instant as the cluster's RFC 3339 date, a fraction of a second without trailing zeros (``00:00:00.1Z``)."""
    text = snap.real_time(t) or ""
    if "." not in text:
        return text
    head, frac = text[:-1].split(".", 1)
    frac = frac.rstrip("0")
    return f"{head}.{frac}Z" if frac else f"{head}Z"


def _scheduled_text(d: Decision | None, snap: CronJobSnapshot) -> str | None:
    if d is None or d.fields.get("scheduled") is None:
        return None
    return snap.real_time(d.fields["scheduled"])


def _sync_lines(s: CronSync, snap: CronJobSnapshot) -> list[str]:
    lines = []
    for i, d in enumerate(s.decisions, 1):
        lines.append(f"  {i:>2}. [{d.rule}] {' '.join(d.reason.split())}")
    if s.created:
        lines.append("  " + _("creates {names}").format(names=_names(s.created)))
    if s.deleted:
        lines.append("  " + _("deletes {names}").format(names=_names(s.deleted)))
    if not s.created and not s.deleted:
        lines.append("  " + _("creates and deletes no Job"))
    for t, r, m in s.events:
        lines.append(f"  = event {t} {r}: {m}")
    if s.error:
        lines.append("  " + _("the sync returns an error and is retried (rate limited): {error}").format(error=s.error))
    elif s.requeue_after is not None:
        lines.append("  " + _("it asks to be synced again in {s} s, at {at}").format(
            s=_seconds(s.requeue_after), at=_when(snap, s.t + s.requeue_after)))
    else:
        lines.append("  " + _("no delayed sync requested: the next sync comes when the CronJob or one of its Jobs "
                              "changes"))
    return lines


def _missed_texts(s: CronSync, snap: CronJobSnapshot, controller_zone: str = "UTC") -> list[str]:
    out = []
    for d in s.decisions:
        f = d.fields
        deadline = snap.cronjob.spec.starting_deadline_seconds
        if d.rule == "cronjob.schedule.none_due" and deadline is not None:
            # The search starts at now - startingDeadlineSeconds: a time after the last one run but before
            # that start is passed over without a word (no event).
            st = snap.cronjob.status
            last = st.last_schedule_time if st.last_schedule_time is not None else snap.cronjob.metadata.creation_timestamp
            loc = u.load_location(controller_zone) or _utc()
            first = _next_time(snap.cronjob, last or 0.0, snap.origin, loc)
            if first is not None and u.from_time(first, snap.origin) <= (f.get("earliest") or 0.0):
                # TRANSLATORS: startingDeadlineSeconds and MissSchedule stay English.
                out.append(_("The schedule time {scheduled} passed more than startingDeadlineSeconds ({deadline} s) "
                             "before the sync, and no Job was made for it: the controller looks back only to "
                             "{earliest}, so it passes over that time without a word (not even a MissSchedule "
                             "event). A sync comes that late when kube-controller-manager was down or busy, or its "
                             "clock is off.").format(scheduled=u.format_rfc3339(first), deadline=deadline,
                                                     earliest=u.format_rfc3339(u.to_time(
                                                         f.get("earliest") or 0.0, first.tzinfo, snap.origin))))
        if d.rule == "cronjob.schedule.due" and (f.get("missed") or 0) > 1:
            n = int(f["missed"]) - 1
            out.append(ngettext(
                "{n} earlier schedule time since {earliest} passed without a Job (the controller was not running, "
                "or it was not synced then): only the most recent one, {scheduled}, is started now; the CronJob "
                "controller never starts the others.",
                "about {n} earlier schedule times since {earliest} passed without a Job (the controller was not "
                "running, or it was not synced then): only the most recent one, {scheduled}, is started now; the "
                "CronJob controller never starts the others.", n).format(
                n=n, earliest=snap.real_time(f.get("earliest")), scheduled=snap.real_time(f.get("scheduled"))))
        elif d.rule == "cronjob.schedule.too_many_missed":
            # TRANSLATORS: TooManyMissedTimes is an Event reason; startingDeadlineSeconds a field: they stay English.
            out.append(_("More than {limit} schedule times were missed (about {missed}): the controller records the "
                         "TooManyMissedTimes warning and still starts the most recent one. Setting "
                         "startingDeadlineSeconds limits how far back it looks.").format(
                limit=f.get("limit"), missed=f.get("missed")))
        elif d.rule == "cronjob.skip.too_late":
            # TRANSLATORS: MissSchedule is an Event reason; startingDeadlineSeconds a field: they stay English.
            out.append(_("The most recent schedule time, {scheduled}, is more than startingDeadlineSeconds ({deadline} "
                         "s) before the sync: it is missed (MissSchedule) and no Job is started for it. A sync comes "
                         "that late when kube-controller-manager was down or busy, or its clock is off.").format(
                scheduled=snap.real_time(f.get("scheduled")), deadline=f.get("deadline")))
        elif d.rule == "cronjob.skip.suspended":
            # TRANSLATORS: spec.suspend and startingDeadlineSeconds stay English.
            out.append(_("The CronJob is suspended (spec.suspend: true): no schedule time gets a Job while it "
                         "stays so. When it is resumed, the controller starts only the most recent schedule time "
                         "it missed (with startingDeadlineSeconds, only if that time is recent enough), never the "
                         "others."))
        elif d.rule == "cronjob.skip.forbid":
            # A skipped time leaves lastScheduleTime as it was: the sync that the active Job's end wakes finds the
            # time still without a Job and starts it, if no later schedule time came first (and, with
            # startingDeadlineSeconds, if that deadline has not passed), as the upstream documentation says.
            # TRANSLATORS: Forbid, JobAlreadyActive, lastScheduleTime and startingDeadlineSeconds stay English.
            out.append(_("The schedule time {scheduled} is skipped: concurrencyPolicy Forbid and {jobs} still active "
                         "(JobAlreadyActive). lastScheduleTime stays as it was: when that Job finishes, the sync its "
                         "change wakes starts the skipped time late, unless the next schedule time came first (then "
                         "only that one is started) or startingDeadlineSeconds has passed.").format(
                scheduled=snap.real_time(f.get("scheduled")), jobs=_names(list(f.get("jobs") or []))))
    return out


def _cron_unseen_jobs(surface: str, names: list[str], command: str) -> str:
    return ngettext(
        "The snapshot holds no Job, and status.active names {n} ({names}): it is taken as existing and running "
        "as the CronJob's template says (its pods too), created at the time its name says. Finished Jobs are not "
        "known either, so the history limits delete none here. To see the Jobs, take the snapshot with `{command}`.",
        "The snapshot holds no Job, and status.active names {n} ({names}): they are taken as existing and running "
        "as the CronJob's template says (their pods too), created at the times their names say. Finished Jobs are "
        "not known either, so the history limits delete none here. To see the Jobs, take the snapshot with "
        "`{command}`.", len(names)).format(n=len(names), names=_names(names), command=command)


def _cron_no_jobs(surface: str, command: str) -> str:
    return _("The snapshot holds no Job and status.active names none: the CronJob is taken to have no running Job, "
             "and the finished ones are not known, so the history limits delete none here. To see the Jobs, take the "
             "snapshot with `{command}`.").format(command=command)


_NOTE_TEXTS: dict[str, Any] = {
    "assume.cron_sync_time": lambda surface, now: _(
        "The CronJob controller syncs the CronJob at {now}, as right after a restart of kube-controller-manager "
        "(it lists every CronJob then); it also syncs at each schedule time plus 100 ms and whenever one of its "
        "Jobs changes.").format(now=now),
    "assume.cron_latest_time": lambda surface, now: _(
        "The time of the sync is the latest time recorded in the snapshot ({now}); a CronJob's YAML does not say "
        "when it was printed: give {option} to choose the time.").format(now=now, option=option("now", surface)),
    "assume.cron_unseen_jobs": _cron_unseen_jobs,
    "assume.cron_no_jobs": _cron_no_jobs,
    "assume.cron_controller_zone": lambda surface, zone: _(
        "The CronJob has no spec.timeZone: its schedule is read in kube-controller-manager's own time zone, taken "
        "to be {zone}; a controller manager that runs in another zone starts the Jobs at other instants.").format(
        zone=zone),
    "assume.cron_old_api": lambda surface, version: _(
        "The CronJob was printed as {version} (Kubernetes before 1.25): it is read as batch/v1, and the answer "
        "is what the Kubernetes 1.35 controller does with it; the cluster that printed it ran an older "
        "controller, which may have behaved otherwise.").format(version=version),
    # TRANSLATORS: {names} are Job names; NAME-<Unix minutes> is a pattern of names: keep it as is.
    "assume.cron_old_job_names": lambda surface, names, seconds, time: ngettext(
        "{names} carries the schedule time in Unix seconds ({seconds} s is {time}), as the CronJob controller before "
        "Kubernetes 1.21 named its Jobs: it is read at that second. The Kubernetes 1.35 controller names the Jobs "
        "it creates NAME-<Unix minutes>.",
        "{names} carry the schedule time in Unix seconds ({seconds} s is {time}), as the CronJob controller before "
        "Kubernetes 1.21 named its Jobs: they are read at those seconds. The Kubernetes 1.35 controller names the "
        "Jobs it creates NAME-<Unix minutes>.", len(names)).format(
        names=_names(list(names)), seconds=seconds, time=time),
    "assume.cron_job_duration": lambda surface, duration, source, jobs: (
        _("Every Job's pods run {d} s and succeed: the median time the {n} completed Jobs in the snapshot took.")
        if source == "finished-jobs" else
        _("Every Job's pods run {d} s and succeed (given).") if source == "given" else
        _("Every Job's pods run {d} s and succeed: no completed Job in the snapshot shows how long they take; "
          "give {option} to choose.")).format(d=f"{duration:g}", n=jobs, option=option("assume_duration", surface)),
}
"""Note id -> its sentence, given the surface and the note's fields."""


__all__ = ["DEFAULT_RUNS", "MAX_RUNS", "CronExplanation", "CronForecast", "CronSync", "explain_cronjob"]
