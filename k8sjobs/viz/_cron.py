"""What the CronJob views read from a CronJob's trace: its Jobs' lives, its schedule times and why
each one ran or did not, the controller's downtime and the CronJob's suspensions.

Built once per trace from the run's shared API changes in one pass (a day of an every-minute
schedule leaves some 1,440 Jobs and 20,000 changes: reading them once per Job would cost
seconds), read on from where it stopped when the trace grows, then cut at a cycle by change
number and time, as the Job views cut pod histories. Language-neutral: the views say it in words.
"""

from __future__ import annotations

import bisect
import datetime as _dt
import weakref
from dataclasses import dataclass, field
from typing import Any

from k8sjobs.api.serialize import EPOCH
from k8sjobs.api.store import DELETED
from k8sjobs.cron import ConstantDelaySchedule, CronParseError, is_zero, load_location, parse_standard
from k8sjobs.trace.recorder import Trace

MAX_TIMES = 200_000
"""The most schedule times listed (a run of a year of an every-minute schedule stops there)."""

JOB_OUTCOMES = ("running", "succeeded", "failed", "replaced", "deleted")
"""What became of a Job as of a cycle: still running, finished, deleted by Replace while it ran,
or deleted otherwise before it finished."""
MISSES = ("forbid", "too_late", "down", "suspended", "missed", "due")
"""Why a schedule time has no Job (as of a cycle): skipped by Forbid, later than
startingDeadlineSeconds, the controller manager down, the CronJob suspended, missed otherwise
(only the most recent missed time runs), or due and not handled yet."""
DELETIONS = ("successful", "failed", "ttl", "replace", "other")
"""Who deleted a Job: successfulJobsHistoryLimit, failedJobsHistoryLimit, the ttl-after-finished
controller, concurrencyPolicy Replace, or someone else (kubectl delete)."""


@dataclass(slots=True)
class JobLife:
    """One Job of the CronJob, from the API changes (times in simulated seconds, ``*_seq`` change numbers)."""

    name: str
    uid: str
    created: float
    created_seq: int
    scheduled: float | None = None
    finished: float | None = None
    finished_seq: int = -1
    outcome: str = ""
    """``succeeded`` or ``failed`` once finished."""
    start_time: float | None = None
    deleting: float | None = None
    deleting_seq: int = -1
    removed: float | None = None
    removed_seq: int = -1
    deleted_by: str = ""
    """A key of :data:`DELETIONS` once a deletion was requested."""
    deleted_in_cycle: int = 0
    """The CronJob's cycle that deleted it (0: not the CronJob controller)."""
    ttl: int | None = None
    """The Job's ttlSecondsAfterFinished."""


@dataclass(frozen=True, slots=True)
class Segment:
    """The CronJob's spec from ``t`` (change ``seq``) on."""

    t: float
    seq: int
    spec: Any


@dataclass
class CronModel:
    """Everything the CronJob views read, for the whole trace (cut at a cycle with the helpers below)."""

    jobs: list[JobLife]
    by_scheduled: dict[float, JobLife]
    segments: list[Segment]
    times: list[float]
    """Every schedule time from the CronJob's creation to the end of the trace, ascending."""
    time_segment: list[int]
    """For each schedule time, the index of the spec segment it belongs to."""
    decisions: list[tuple[int, str, float]]
    """(cycle, rule, scheduled) of every cronjob.skip.forbid / cronjob.skip.too_late decision."""
    downtime: list[tuple[float, float, int]]
    """(from, until, cycles ended before) of every stop of the controller manager."""
    controller_zone: str
    history: list[tuple[int, str, str, int, int]] = field(default_factory=list)
    """(cycle, case, job, count, limit) of every cronjob.history.limit decision."""


def _zone_of(spec: Any, controller_zone: str) -> str:
    """The zone the schedule is evaluated in: a TZ= prefix's, else spec.timeZone's, else the controller's."""
    schedule = spec.schedule
    if schedule.startswith(("TZ=", "CRON_TZ=")) and " " in schedule:
        name = schedule[schedule.index("=") + 1:schedule.index(" ")]
        return name or "UTC"
    if spec.time_zone:
        try:
            load_location(spec.time_zone)
            return spec.time_zone
        except ValueError:
            pass
    return controller_zone


class RunZone(str):
    """A zone's IANA name that also knows where the run's simulated time 0 is on the wall clock
    (:attr:`Trace.origin <k8sjobs.trace.recorder.Trace.origin>`: seconds after EPOCH, set by a
    run's ``start``), so every time the views print is the run's own date, not the default one."""

    origin: float

    def __new__(cls, name: str, origin: float = 0.0) -> RunZone:
        z = super().__new__(cls, name)
        z.origin = origin
        return z


def _origin(zone: str) -> float:
    return getattr(zone, "origin", 0.0)


def zone_of(spec: Any, controller_zone: str) -> str:
    """The IANA name of the zone a CronJob spec's times are read in (see :func:`_zone_of`), keeping the
    run's origin when ``controller_zone`` is a :class:`RunZone`."""
    return RunZone(_zone_of(spec, controller_zone), _origin(controller_zone))


def tz(name: str) -> _dt.tzinfo:
    """The tzinfo of a zone name (UTC for one that does not load)."""
    try:
        return load_location(name) or _dt.UTC
    except ValueError:
        return _dt.UTC


def to_local(t: float, zone: str) -> _dt.datetime:
    """Simulated seconds as an aware datetime in ``zone``."""
    return (EPOCH + _dt.timedelta(seconds=t + _origin(zone))).astimezone(tz(zone))


def _schedule_text(spec: Any) -> str:
    schedule = spec.schedule
    if "TZ" in schedule:
        return schedule
    if spec.time_zone:
        try:
            load_location(spec.time_zone)
        except ValueError:
            return schedule
        return f"TZ={spec.time_zone} {schedule}"
    return schedule


def _times_between(spec: Any, start: float, end: float, controller_zone: str, room: int) -> list[float]:
    """The schedule's times in (start, end], at most ``room``."""
    try:
        sched = parse_standard(_schedule_text(spec))
    except CronParseError:
        return []
    origin = _origin(controller_zone)
    zone = tz(controller_zone)
    out: list[float] = []
    if isinstance(sched, ConstantDelaySchedule):
        t = start + sched.delay_seconds
        while t <= end and len(out) < room:
            out.append(float(int(t)))
            t = out[-1] + sched.delay_seconds
        return out
    w = (EPOCH + _dt.timedelta(seconds=start + origin)).astimezone(zone)
    while len(out) < room:
        w = sched.next(w)
        if is_zero(w):
            break
        d = w - EPOCH
        s = d.days * 86400 + d.seconds - origin
        if s > end:
            break
        out.append(float(s))
    return out


def _end_of(trace: Trace) -> float:
    ends = [trace.end_t, trace.start_t]
    if trace.cycles:
        ends.append(trace.cycles[-1].t)
    if trace.changes:
        ends.append(trace.changes[-1].t)
    return max(ends)


class _Builder:
    """Reads a CronJob's trace into a :class:`CronModel`, and reads on from where it stopped when the trace
    grows (a dashboard extends a run slice by slice: reading a week of an every-minute schedule again
    at every step would cost most of a second)."""

    def __init__(self, trace: Trace) -> None:
        self.uid = trace.job_uid
        self.zone = RunZone(trace.config.controller_zone, trace.origin)
        self.jobs: dict[str, JobLife] = {}
        self.by_name: dict[str, JobLife] = {}
        self.changes = 0
        self.cycles = 0
        self.times_for = 0
        """How many spec segments the schedule times were listed for (a new one lists them again)."""
        self.times_end = float("-inf")
        self.model = CronModel([], {}, [], [], [], [], [], self.zone, [])

    def stale(self, trace: Trace) -> bool:
        """The trace is not this one grown (it shrank: rebuild)."""
        return len(trace.changes) < self.changes or len(trace.cycles) < self.cycles

    def update(self, trace: Trace) -> CronModel:
        m = self.model
        if len(trace.changes) == self.changes and len(trace.cycles) == self.cycles and \
                self.times_end >= _end_of(trace):
            return m
        self._read_changes(trace.changes, m)
        self._read_cycles(trace.cycles, m)
        self._read_notes(trace, m)
        self._list_times(m, _end_of(trace))
        m.jobs = sorted(self.jobs.values(), key=lambda j: j.created_seq)
        m.by_scheduled = {j.scheduled: j for j in m.jobs if j.scheduled is not None}
        return m

    def _read_changes(self, changes: list[Any], m: CronModel) -> None:
        uid, jobs = self.uid, self.jobs
        for i in range(self.changes, len(changes)):
            ch = changes[i]
            kind = ch.kind
            if kind == "CronJob":
                obj = ch.obj
                if ch.type == DELETED or obj.metadata.uid != uid:
                    continue
                if not m.segments or m.segments[-1].spec != obj.spec:
                    m.segments.append(Segment(ch.t, ch.seq, obj.spec))
                continue
            if kind != "Job":
                continue
            job = ch.obj
            meta = job.metadata
            life = jobs.get(meta.uid)
            if life is None:
                if ch.type == DELETED or not any(r.uid == uid for r in meta.owner_references):
                    continue
                life = jobs[meta.uid] = JobLife(meta.name, meta.uid, ch.t, ch.seq,
                                                ttl=job.spec.ttl_seconds_after_finished)
                self.by_name[meta.name] = life
            if ch.type == DELETED:
                if life.removed is None:
                    life.removed, life.removed_seq = ch.t, ch.seq
                continue
            st = job.status
            if life.start_time is None and st.start_time is not None:
                life.start_time = st.start_time
            if life.finished is None:
                for c in st.conditions:
                    if c.status == "True" and c.type in ("Complete", "Failed"):
                        life.finished, life.finished_seq = ch.t, ch.seq
                        life.outcome = "succeeded" if c.type == "Complete" else "failed"
                        break
            if life.deleting is None and meta.deletion_timestamp is not None:
                life.deleting, life.deleting_seq = ch.t, ch.seq
        self.changes = len(changes)

    def _read_cycles(self, cycles: list[Any], m: CronModel) -> None:
        by_name = self.by_name
        for i in range(self.cycles, len(cycles)):
            c = cycles[i]
            for d in c.decisions:
                rule = d.rule
                if rule == "cronjob.create":
                    life = by_name.get(d.fields.get("job", ""))
                    if life is not None and life.scheduled is None:
                        life.scheduled = d.fields.get("scheduled")
                elif rule in ("cronjob.skip.forbid", "cronjob.skip.too_late"):
                    m.decisions.append((c.index, rule, d.fields.get("scheduled")))
                elif rule == "cronjob.delete":
                    life = by_name.get(d.fields.get("job", ""))
                    if life is not None and not life.deleted_by:
                        life.deleted_by = d.fields.get("case") or "other"
                        life.deleted_in_cycle = c.index
                elif rule == "cronjob.history.limit":
                    m.history.append((c.index, d.fields.get("case", ""), "", int(d.fields.get("count", 0)),
                                      int(d.fields.get("limit", 0))))
        self.cycles = len(cycles)

    def _read_notes(self, trace: Trace, m: CronModel) -> None:
        # The ttl-after-finished controller's deletions are notes on the Jobs' own traces: look at the Jobs
        # being deleted whose deleter is not known yet (few).
        unknown = {j.uid: j for j in self.jobs.values()
                   if not j.deleted_by and (j.deleting is not None or j.removed is not None)}
        if unknown and trace.cluster is not None:
            for tr in trace.cluster.jobs():
                life = unknown.get(tr.job_uid)
                if life is not None and any(n.rule == "ttl.deleted" for n in tr.notes):
                    life.deleted_by = "ttl"
        m.downtime = [(n.t, n.t + float(n.fields.get("seconds", 0)), n.after_cycle) for n in trace.notes
                      if n.rule == "action.stop_controllers"]

    def _list_times(self, m: CronModel, end: float) -> None:
        segs = m.segments
        if not segs:
            return
        if self.times_for != len(segs):
            m.times.clear()
            m.time_segment.clear()
            for i, seg in enumerate(segs[:-1]):
                found = [x for x in _times_between(seg.spec, seg.t, segs[i + 1].t, self.zone, MAX_TIMES - len(m.times))
                         if x <= segs[i + 1].t]
                m.times.extend(found)
                m.time_segment.extend([i] * len(found))
            self.times_for = len(segs)
            self.times_end = segs[-1].t
        last = len(segs) - 1
        if end > self.times_end:
            # From the last time listed in this segment (an @every schedule counts from it), else its start.
            since = m.times[-1] if m.times and m.time_segment[-1] == last else segs[last].t
            found = _times_between(segs[last].spec, since, end, self.zone, MAX_TIMES - len(m.times))
            m.times.extend(found)
            m.time_segment.extend([last] * len(found))
            self.times_end = end


_MODELS: dict[int, tuple[weakref.ref, _Builder]] = {}


def model(trace: Trace) -> CronModel:
    """The CronJob's :class:`CronModel`, built once per trace and read on as the trace grows."""
    key = id(trace)
    hit = _MODELS.get(key)
    if hit is None or hit[0]() is not trace or hit[1].stale(trace):
        def _drop(_ref: weakref.ref, key: int = key) -> None:
            _MODELS.pop(key, None)

        hit = _MODELS[key] = (weakref.ref(trace, _drop), _Builder(trace))
    return hit[1].update(trace)


# ------------------------------------------------------------------ as of a cycle


def spec_at(m: CronModel, t: float, end_seq: int | None = None) -> Any:
    """The CronJob's spec at time ``t`` (and before change ``end_seq``)."""
    spec = m.segments[0].spec if m.segments else None
    for seg in m.segments:
        if seg.t <= t and (end_seq is None or seg.seq < end_seq):
            spec = seg.spec
    return spec


def downtime_until(m: CronModel, t: float) -> list[tuple[float, float]]:
    """The controller manager's stops known at ``t`` (merged, in order)."""
    spans = sorted((a, b) for a, b, _k in m.downtime if a <= t)
    out: list[tuple[float, float]] = []
    for a, b in spans:
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def suspended_until(m: CronModel, t: float, end_seq: int) -> list[tuple[float, float | None]]:
    """The spans the CronJob was suspended in, up to ``t`` (None: still suspended)."""
    out: list[tuple[float, float | None]] = []
    on: float | None = None
    for seg in m.segments:
        if seg.seq >= end_seq or seg.t > t:
            break
        if seg.spec.suspend and on is None:
            on = seg.t
        elif not seg.spec.suspend and on is not None:
            out.append((on, seg.t))
            on = None
    if on is not None:
        out.append((on, None))
    return out


def _inside(spans: list[tuple[float, float | None]], x: float) -> bool:
    return any(a <= x and (b is None or x < b) for a, b in spans)


@dataclass(frozen=True, slots=True)
class Slot:
    """One schedule time as of a cycle: what became of it."""

    scheduled: float
    what: str
    """A key of :data:`JOB_OUTCOMES` (a Job was started for it) or of :data:`MISSES`."""
    job: JobLife | None
    start: float | None
    end: float | None
    deadline: int | None
    """startingDeadlineSeconds of the spec it belongs to."""
    waited_for_forbid: bool = False
    """The Job started late: Forbid held it back while an earlier Job ran."""


def job_outcome(j: JobLife, t: float, end_seq: int) -> tuple[str, float]:
    """(outcome, end of its bar) of a Job as of ``t`` / change ``end_seq``."""
    finished = j.finished is not None and j.finished_seq < end_seq
    deleting = j.deleting is not None and j.deleting_seq < end_seq
    if finished and not (deleting and j.deleting < j.finished):
        return j.outcome, j.finished
    if deleting:
        return ("replaced" if j.deleted_by == "replace" else "deleted"), j.deleting
    removed = j.removed is not None and j.removed_seq < end_seq
    if removed:
        return ("replaced" if j.deleted_by == "replace" else "deleted"), j.removed
    return "running", t


def slots(trace: Trace, cycle: int, t: float, end_seq: int) -> list[Slot]:
    """Every schedule time up to ``t`` with what became of it as of ``cycle``."""
    m = model(trace)
    n = bisect.bisect_right(m.times, t)
    decided: dict[float, str] = {}
    forbid_seen: set[float] = set()
    for k, rule, sched in m.decisions:
        if k <= cycle and sched is not None:
            decided[sched] = "forbid" if rule == "cronjob.skip.forbid" else "too_late"
            if rule == "cronjob.skip.forbid":
                forbid_seen.add(sched)
    down = downtime_until(m, t)
    susp = suspended_until(m, t, end_seq)
    handled = [s for s, j in m.by_scheduled.items() if j.created_seq < end_seq] + list(decided)
    last_handled = max(handled) if handled else float("-inf")
    out: list[Slot] = []
    for i in range(n):
        s = m.times[i]
        seg = m.segments[m.time_segment[i]]
        deadline = seg.spec.starting_deadline_seconds
        j = m.by_scheduled.get(s)
        if j is not None and j.created_seq < end_seq:
            what, end = job_outcome(j, t, end_seq)
            out.append(Slot(s, what, j, j.created, end, deadline, s in forbid_seen))
            continue
        what = decided.get(s)
        if what is None:
            if _inside([(a, b) for a, b in down], s):
                what = "down"
            elif _inside(susp, s):
                what = "suspended"
            elif s < last_handled:
                what = "missed"
            else:
                what = "due"
        out.append(Slot(s, what, None, None, None, deadline))
    return out


def next_time(trace: Trace, t: float, spec: Any = None) -> float | None:
    """The first schedule time after ``t``: one the trace knows of, else the next of ``spec`` (None: none
    within robfig's five years, or no spec)."""
    m = model(trace)
    i = bisect.bisect_right(m.times, t)
    if i < len(m.times):
        return m.times[i]
    found = _times_between(spec, t, float("inf"), m.controller_zone, 1) if spec is not None else []
    return found[0] if found else None


SCHEDULE_PROBLEMS = ("cronjob.skip.invalid_schedule", "cronjob.skip.unparseable", "cronjob.skip.unknown_time_zone",
                     "cronjob.schedule.too_many_missed", "cronjob.schedule.tz_in_schedule")
"""Decisions about the schedule itself that the Schedule view repeats (the last one up to the cycle)."""


def schedule_problem(trace: Trace, cycle: int) -> Any:
    """The last decision of :data:`SCHEDULE_PROBLEMS` up to ``cycle`` (None: none)."""
    for c in reversed(trace.cycles[:cycle]):
        for d in c.decisions:
            if d.rule in SCHEDULE_PROBLEMS:
                return d
    return None


__all__ = ["DELETIONS", "JOB_OUTCOMES", "MISSES", "CronModel", "JobLife", "Segment", "Slot", "downtime_until",
           "job_outcome", "model", "next_time", "schedule_problem", "slots", "spec_at", "suspended_until", "to_local", "tz", "zone_of"]
