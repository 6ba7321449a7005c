"""Stable, fixed-width text of a trace: for terminals, golden files and checked notebook cells.

No reprs, no addresses, no wall-clock times: the same run always renders byte for byte
the same. Times are simulated seconds with three decimals; the describe block at the end is
``kubectl describe job`` (see :mod:`k8sjobs.trace.kubectl`), ages relative to the end of the run.
"""

from __future__ import annotations

from typing import Any

from ..api.serialize import format_time
from ..i18n import _, display_width, join_list, ljust, ngettext, pgettext, rjust
from .kubectl import describe_cronjob, describe_job, get_cronjobs_and_jobs, get_job, get_jobs, human_duration
from .recorder import ClusterTrace, Trace
from .records import Cycle

# Decisions worth a line of their own under a cycle (the rest stay in JSON).
SHOWN_RULES = ("manage.want_active", "create.", "scale_down", "delete.", "suspend.", "backoff.", "deadline.",
               "decision.", "condition.", "finish.", "expectations.unsatisfied", "sync.skip.", "sync.error",
               "status.write_failed", "track.counted", "track.cap", "pods.", "cronjob.")
_NOT_SHOWN = ("cronjob.jobs.listed",)


def _shown(rule: str) -> bool:
    if rule in _NOT_SHOWN:
        return False
    return any(rule == r or (r.endswith(".") and rule.startswith(r)) for r in SHOWN_RULES)


def _titles() -> tuple[str, ...]:
    """The column titles of the trace table in the current language (see :func:`cycle_header`)."""
    # TRANSLATORS: a column title of the trace table (cycle number); keep column titles short.
    cycle = pgettext("trace column", "CYCLE")
    # TRANSLATORS: a column title of the trace table: simulated time in seconds.
    t = pgettext("trace column", "T(s)")
    # TRANSLATORS: column titles of the trace table: the Job's status counters after the sync.
    active, ready = pgettext("trace column", "ACTIVE"), pgettext("trace column", "READY")
    succ, fail = pgettext("trace column", "SUCC"), pgettext("trace column", "FAIL")
    term = pgettext("trace column", "TERM")
    # TRANSLATORS: a column title of the trace table: why the controller did what it did.
    why = pgettext("trace column", "WHY")
    return cycle, t, active, ready, succ, fail, term, why


_COUNTER_WIDTHS = (6, 5, 5, 5, 5)
"""The widths of the five status-counter columns; a wider translated title widens its column."""


def _counter_widths(titles: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(max(w, display_width(title)) for w, title in zip(_COUNTER_WIDTHS, titles[2:7]))


def cycle_header() -> str:
    """The column titles of :func:`cycle_line`."""
    titles = _titles()
    cycle, t, *counters, why = titles
    # rjust by display width: a translated title (周期) takes two columns per character.
    cols = " ".join(rjust(c, w) for c, w in zip(counters, _counter_widths(titles)))
    return f"{rjust(cycle, 5)}  {rjust(t, 10)}  {cols}  {why}"


def cycle_line(c: Cycle, kind: str = "Job") -> str:
    """One fixed-width line: cycle number, time, status after the sync, and the headline reason (a
    CronJob's sync: its active Jobs, the pod counters left empty)."""
    a = c.after
    values = (a.active, a.ready, a.succeeded, a.failed, a.terminating) if kind == "Job" else (
        a.active, "-", "-", "-", "-")
    cols = " ".join(f"{v:>{w}}" for v, w in zip(values, _counter_widths(_titles())))
    return f"{c.index:>5}  {c.t:>10.3f}  {cols}  {c.headline.reason}"


def render_cycle(c: Cycle, *, details: bool = True, kind: str = "Job") -> str:
    """A cycle line plus its decisions and events, indented."""
    lines = [cycle_line(c, kind)]
    head = c.headline
    if details:
        for d in c.decisions:
            if _shown(d.rule) and d.reason not in head.reason:
                lines.append(f"{'':>19}- {d.rule}: {d.reason}")
        for e in c.events:
            # TRANSLATORS: {type}, {reason} and {message} are the Kubernetes Event's own (stay English).
            lines.append(f"{'':>19}" + _("= event {type} {reason}: {message}").format(
                type=e.type, reason=e.reason, message=e.message))
    return "\n".join(lines)


def run_header(trace: Trace) -> str:
    """The first line of a rendered run: the Job and the run's settings (a snapshot's own nodes)."""
    cfg = trace.config
    lag = f"{cfg.informer_lag:g}"
    if trace.snapshot_at is None:
        # TRANSLATORS: the first line of a trace; seed=, nodes= and informer-lag= name the run's settings
        # (keep them as they are).
        return _("k8sjobs run: job.batch/{job}  seed={seed}  nodes={nodes}x{pods_per_node}  informer-lag={lag}s").format(
            job=trace.job_name, seed=trace.seed, nodes=cfg.nodes, pods_per_node=cfg.pods_per_node, lag=lag)
    nodes = [ch.name for ch in trace.changes[:trace.initial_changes] if ch.kind == "Node"]
    shown = join_list(nodes[:5])
    if len(nodes) > 5:
        # TRANSLATORS: the first five node names of a snapshot and a mark that more follow.
        shown = _("{names}, ...").format(names=shown)
    # TRANSLATORS: the first line of a run from a real cluster's snapshot; {time} is the snapshot's RFC 3339
    # time, {names} the nodes its pods ran on; seed=, nodes= and informer-lag= as in the line above.
    return _("k8sjobs run: job.batch/{job} from the snapshot of {time}  seed={seed}  nodes={nodes}x{pods_per_node} "
             "({names})  informer-lag={lag}s").format(job=trace.job_name, time=trace.snapshot_at, seed=trace.seed,
                                                      nodes=len(nodes), pods_per_node=cfg.pods_per_node,
                                                      names=shown, lag=lag)


def _start_line(trace: Trace) -> str:
    # TRANSLATORS: the second line of a trace with a CronJob: when t=0 is on the wall clock and the zone of
    # kube-controller-manager (where a schedule without a time zone is evaluated); {zone} stays as it is.
    return _("t=0 s is {start}; kube-controller-manager's time zone: {zone}").format(
        start=format_time(trace.origin), zone=trace.config.controller_zone)


def render_trace(trace: Trace, *, details: bool = True, limit: int | None = None) -> str:
    """The whole run of one object as text: header, one block per cycle (sync), then the describe summary.

    A CronJob's trace renders its own syncs and ends with ``kubectl describe cronjob``."""
    if trace.kind == "CronJob":
        cfg = trace.config
        # TRANSLATORS: the first line of a trace of one CronJob's syncs; seed=, nodes= and informer-lag= as above.
        lines = [_("k8sjobs run: cronjob.batch/{job}  seed={seed}  nodes={nodes}x{pods_per_node}  informer-lag={lag}s")
                 .format(job=trace.job_name, seed=trace.seed, nodes=cfg.nodes, pods_per_node=cfg.pods_per_node,
                         lag=f"{cfg.informer_lag:g}"),
                 _start_line(trace), cycle_header()]
    else:
        lines = [run_header(trace), cycle_header()]
    cycles = trace.cycles if limit is None else trace.cycles[:limit]
    for c in cycles:
        lines.append(render_cycle(c, details=details, kind=trace.kind))
    if limit is not None and len(trace.cycles) > limit:
        more = len(trace.cycles) - limit
        lines.append(ngettext("... {n} more cycle", "... {n} more cycles", more).format(n=more))
    lines.append("")
    lines.append(describe_job(trace))
    return "\n".join(lines) + "\n"


def render_run(cluster: ClusterTrace, *, details: bool = True, limit: int | None = None) -> str:
    """A run as text: one Job as :func:`render_trace` renders it; several Jobs with every sync in the
    order it ran, each line naming its object (``job/a``), then ``kubectl get jobs`` and a
    ``kubectl describe job`` of each."""
    traces = list(cluster.traces.values())
    if len(traces) == 1 and traces[0].kind == "Job":
        return render_trace(traces[0], details=details, limit=limit)
    first = traces[0]
    cfg = first.config
    crons = [tr for tr in traces if tr.kind == "CronJob"]
    names = join_list([f"{tr.kind.lower()}.batch/{tr.job_name}" for tr in traces[:5]]
                      + ([_("{n} more").format(n=len(traces) - 5)] if len(traces) > 5 else []))
    # TRANSLATORS: the first line of a trace of several Jobs; {names} lists them; seed=, nodes= and
    # informer-lag= name the run's settings (keep them as they are).
    lines = [_("k8sjobs run: {names}  seed={seed}  nodes={nodes}x{pods_per_node}  informer-lag={lag}s").format(
        names=names, seed=first.seed, nodes=cfg.nodes, pods_per_node=cfg.pods_per_node, lag=f"{cfg.informer_lag:g}")]
    if crons:
        lines.append(_start_line(first))
    objects = [f"{tr.kind.lower()}/{tr.job_name}" for tr in traces]
    width = max(display_width(o) for o in objects)
    # TRANSLATORS: a column title of the trace table of several Jobs: which object the sync served.
    head = pgettext("trace column", "OBJECT")
    width = max(width, display_width(head))
    lines.append(f"{ljust(head, width)}  {cycle_header()}")
    syncs = cluster.syncs if limit is None else cluster.syncs[:limit]
    for key, index in syncs:
        tr = cluster.traces[key]
        text = render_cycle(tr.cycles[index - 1], details=details, kind=tr.kind)
        head, _nl, rest = text.partition("\n")
        label = f"{tr.kind.lower()}/{tr.job_name}"
        lines.append(f"{label:<{width}}  {head}")
        if rest:
            lines.extend(f"{'':<{width}}  {ln}" for ln in rest.split("\n"))
    if limit is not None and len(cluster.syncs) > limit:
        more = len(cluster.syncs) - limit
        lines.append(ngettext("... {n} more cycle", "... {n} more cycles", more).format(n=more))
    jobs = [tr for tr in traces if tr.kind == "Job"]
    if crons:
        lines += ["", "$ kubectl get cronjob,jobs", get_cronjobs_and_jobs(crons, jobs)]
        for tr in crons:
            lines += ["", f"$ kubectl describe cronjob {tr.job_name}", describe_cronjob(tr)]
    else:
        lines += ["", "$ kubectl get jobs", get_jobs(jobs)]
    for tr in jobs:
        if tr.final_job is not None or not crons:
            lines += ["", f"$ kubectl describe job {tr.job_name}", describe_job(tr)]
    return "\n".join(lines) + "\n"


def cycle_to_json(c: Cycle) -> dict[str, Any]:
    """A cycle as a JSON document (the ``cycles`` entries of ``run --format json``)."""
    return {
        "cycle": c.index, "t": c.t,
        "why": {"rule": c.headline.rule, "reason": c.headline.reason},
        "observed": _jsonable(c.observed),
        "decisions": [{"rule": d.rule, "reason": d.reason, **_jsonable(d.fields)} for d in c.decisions],
        "created": list(c.created), "createdIndexes": list(c.created_indexes), "deleted": list(c.deleted),
        "status": c.after.to_dict(), "events": [{"type": e.type, "reason": e.reason, "message": e.message}
                                                for e in c.events],
        "error": c.error, "requeueAfterSeconds": c.requeue_after,
    }


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value) if isinstance(value, (set, frozenset)) else value
        return [_jsonable(v) for v in items]
    if isinstance(value, float) and value == float("inf"):
        return "inf"
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


__all__ = ["cycle_header", "cycle_line", "cycle_to_json", "describe_job", "format_time", "get_job", "get_jobs",
           "human_duration", "render_cycle", "render_run", "render_trace"]
