"""Stable, fixed-width text of a trace: for terminals, golden files and checked notebook cells.

No reprs, no addresses, no wall-clock times: the same run always renders byte for byte
the same. Times are simulated seconds with three decimals; the describe block shows
``kubectl describe job``-style ages relative to the end of the run.
"""

from __future__ import annotations

from typing import Any

from ..api.labels import format_selector
from ..api.serialize import EPOCH, format_time
from .recorder import Trace
from .records import Cycle

# Decisions worth a line of their own under a cycle (the rest stay in JSON).
SHOWN_RULES = ("manage.want_active", "create.", "scale_down", "delete.", "suspend.", "backoff.", "deadline.",
               "decision.", "condition.", "finish.", "expectations.unsatisfied", "sync.skip.", "sync.error",
               "status.write_failed", "track.counted", "track.cap", "pods.")


def human_duration(seconds: float) -> str:
    """Mirrors apimachinery's duration.HumanDuration (what kubectl prints as an age)."""
    s = int(seconds)
    if s < -1:
        return "<invalid>"
    if s < 0:
        return "0s"
    if s < 120:
        return f"{s}s"
    minutes = s // 60
    if minutes < 10:
        rest = s % 60
        return f"{minutes}m" if rest == 0 else f"{minutes}m{rest}s"
    if minutes < 180:
        return f"{minutes}m"
    hours = s // 3600
    if hours < 8:
        m = minutes % 60
        return f"{hours}h" if m == 0 else f"{hours}h{m}m"
    if hours < 48:
        return f"{hours}h"
    if hours < 24 * 8:
        h = hours % 24
        return f"{hours // 24}d" if h == 0 else f"{hours // 24}d{h}h"
    if hours < 24 * 365 * 2:
        return f"{hours // 24}d"
    return f"{hours // 24 // 365}y"


def _shown(rule: str) -> bool:
    return any(rule == r or (r.endswith(".") and rule.startswith(r)) for r in SHOWN_RULES)


def cycle_header() -> str:
    """The column titles of :func:`cycle_line`."""
    return f"{'CYCLE':>5}  {'T(s)':>10}  {'ACTIVE':>6} {'READY':>5} {'SUCC':>5} {'FAIL':>5} {'TERM':>5}  WHY"


def cycle_line(c: Cycle) -> str:
    """One fixed-width line: cycle number, time, status after the sync, and the headline reason."""
    a = c.after
    return (f"{c.index:>5}  {c.t:>10.3f}  {a.active:>6} {a.ready:>5} {a.succeeded:>5} {a.failed:>5} "
            f"{a.terminating:>5}  {c.headline.reason}")


def render_cycle(c: Cycle, *, details: bool = True) -> str:
    """A cycle line plus its decisions and events, indented."""
    lines = [cycle_line(c)]
    head = c.headline
    if details:
        for d in c.decisions:
            if _shown(d.rule) and d.reason not in head.reason:
                lines.append(f"{'':>19}- {d.rule}: {d.reason}")
        for e in c.events:
            lines.append(f"{'':>19}= event {e.type} {e.reason}: {e.message}")
    return "\n".join(lines)


def render_trace(trace: Trace, *, details: bool = True, limit: int | None = None) -> str:
    """The whole run as text: header, one block per cycle, then the describe summary."""
    cfg = trace.config
    lines = [f"k8sjobs run: job.batch/{trace.job_name}  seed={trace.seed}  nodes={cfg.nodes}x{cfg.pods_per_node}"
             f"  informer-lag={cfg.informer_lag:g}s",
             cycle_header()]
    cycles = trace.cycles if limit is None else trace.cycles[:limit]
    for c in cycles:
        lines.append(render_cycle(c, details=details))
    if limit is not None and len(trace.cycles) > limit:
        lines.append(f"... {len(trace.cycles) - limit} more cycles")
    lines.append("")
    lines.append(describe_job(trace))
    return "\n".join(lines) + "\n"


def _date(t: float | None) -> str:
    if t is None:
        return "<unset>"
    from datetime import timedelta

    return (EPOCH + timedelta(seconds=t)).strftime("%a, %d %b %Y %H:%M:%S +0000")


def _kv(label: str, value: Any) -> str:
    # kubectl aligns values in one column; a label as long as the column still gets a space.
    return f"{label + ':':<18}{value}" if len(label) < 17 else f"{label}:  {value}"


def describe_job(trace: Trace, cycle: int | None = None) -> str:
    """A ``kubectl describe job`` of the Job right after ``cycle`` (default: at the end of the run).

    Ages are measured from that moment, as kubectl measures them from "now".
    """
    if cycle is None:
        job, now, events = trace.final_job, trace.end_t, trace.events
        when = "by the end of the run"
    else:
        state = trace.state_at(cycle)
        job, now, events = state.job, state.t, trace.events_until(cycle)
        when = f"after cycle {cycle}"
    if job is None:
        return f'Error from server (NotFound): jobs.batch "{trace.job_name}" not found (deleted {when})'
    spec, st, meta = job.spec, job.status, job.metadata
    labels = ",".join(f"{k}={v}" for k, v in sorted(meta.labels.items())) or "<none>"
    lines = [
        _kv("Name", meta.name), _kv("Namespace", meta.namespace), _kv("Selector", format_selector(spec.selector)),
        _kv("Labels", labels), _kv("Parallelism", spec.parallelism),
        _kv("Completions", spec.completions if spec.completions is not None else "<unset>"),
        _kv("Completion Mode", spec.completion_mode), _kv("Suspend", str(bool(spec.suspend)).lower()),
        _kv("Backoff Limit", spec.backoff_limit),
    ]
    if spec.backoff_limit_per_index is not None:
        lines.append(_kv("Backoff Limit Per Index", spec.backoff_limit_per_index))
    if spec.active_deadline_seconds is not None:
        lines.append(_kv("Active Deadline Seconds", f"{spec.active_deadline_seconds}s"))
    if spec.ttl_seconds_after_finished is not None:
        lines.append(_kv("TTL Seconds After Finished", spec.ttl_seconds_after_finished))
    lines.append(_kv("Start Time", _date(st.start_time)))
    if st.completion_time is not None:
        lines.append(_kv("Completed At", _date(st.completion_time)))
        lines.append(_kv("Duration", human_duration(st.completion_time - (st.start_time or 0.0))))
    lines.append(_kv("Pods Statuses", f"{st.active} Active ({st.ready or 0} Ready) / {st.succeeded} Succeeded / "
                                      f"{st.failed} Failed"))
    if spec.completion_mode == "Indexed":
        lines.append(_kv("Completed Indexes", st.completed_indexes or "<none>"))
        if st.failed_indexes is not None:
            lines.append(_kv("Failed Indexes", st.failed_indexes or "<none>"))
    if st.conditions:
        lines.append("Conditions:")
        lines.append(f"  {'Type':<20}{'Status':<8}{'Reason':<26}Message")
        lines.append(f"  {'----':<20}{'------':<8}{'------':<26}-------")
        for c in st.conditions:
            lines.append(f"  {c.type:<20}{c.status:<8}{c.reason:<26}{c.message}")
    lines.append("Events:")
    # One row per Event object, as kubectl lists them: its count, its latest message.
    groups: dict[str, list] = {}
    for e in events:
        key = e.name or f"{e.type}/{e.reason}/{e.message}"
        if key in groups:
            groups[key][1].append(e.t)
            groups[key][0] = e
        else:
            groups[key] = [e, [e.t]]
    if not groups:
        lines.append("  <none>")
        return "\n".join(lines)
    rows = []
    for last, times in groups.values():
        age = human_duration(now - times[-1])
        if len(times) > 1:
            age = f"{age} (x{len(times)} over {human_duration(now - times[0])})"
        rows.append((times[0], last.type, last.reason, age, last.message))
    rows.sort(key=lambda r: r[0])
    w_reason = max(len("Reason"), *(len(r[2]) for r in rows))
    w_age = max(len("Age"), *(len(r[3]) for r in rows))
    lines.append(f"  {'Type':<8}{'Reason':<{w_reason + 2}}{'Age':<{w_age + 2}}{'From':<16}Message")
    lines.append(f"  {'----':<8}{'------':<{w_reason + 2}}{'---':<{w_age + 2}}{'----':<16}-------")
    for _, typ, reason, age, message in rows:
        lines.append(f"  {typ:<8}{reason:<{w_reason + 2}}{age:<{w_age + 2}}{'job-controller':<16}{message}")
    return "\n".join(lines)


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


__all__ = ["cycle_header", "cycle_line", "cycle_to_json", "describe_job", "format_time", "human_duration",
           "render_cycle", "render_trace"]
