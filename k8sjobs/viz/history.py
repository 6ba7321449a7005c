"""The History view: a CronJob's Jobs, which are kept and which were deleted, by whom and why.

One row per Job the CronJob created (newest at the bottom): a bar from its creation to its end,
coloured and patterned by outcome, then a pale bar while the finished Job is kept, and where it
was deleted a mark saying who deleted it: the CronJob controller's history limits
(``successfulJobsHistoryLimit`` and ``failedJobsHistoryLimit``, each counted apart, the oldest
by start time first), the ttl-after-finished controller (``ttlSecondsAfterFinished`` of the Job
template, whatever the limits), ``concurrencyPolicy: Replace`` (a running Job), or someone else.
The history limits touch only Jobs the CronJob controls; the title says what is kept now.

Above :data:`MAX_BARS` Jobs the figure draws the newest ones and counts the older ones in its
subtitle; the text twin lists at most :data:`MAX_ROWS`.
"""

from __future__ import annotations

from typing import Any

from k8sjobs.i18n import N_, Nn_, _, join_clauses, join_list, ngettext, pgettext
from k8sjobs.trace.recorder import Trace

from . import _cron
from ._common import (
    FIGURE_PX,
    INK,
    LEGEND_BOTTOM,
    MUTED,
    empty_figure,
    fit_x_title,
    make_figure,
    now_line,
    resolve,
    table,
    title,
)
from .schedule import clock, clock_ticks, cronjob_ref, date_time, not_a_cronjob, sync_label, when_word

VIEW = "history"
FITS_WIDTH = True
"""The view fits its axis labels and titles to the figure's width (``figure(..., width_px=...)``)."""
KINDS = ("CronJob",)
MAX_BARS = 40
"""At most this many Jobs (the newest) are drawn; the older ones are counted in the subtitle."""
MAX_ROWS = 100
"""At most this many Jobs (the newest) are listed in the text twin."""

# colour, pattern, legend word
RUN_STYLE: dict[str, tuple[str, str, str]] = {
    # TRANSLATORS: the History view's legend: what a CronJob's Job did, and while it is kept.
    "running": ("#0072B2", "", N_("Job running")),
    "succeeded": ("#009E73", "/", N_("Job succeeded")),
    "failed": ("#D55E00", "x", N_("Job failed")),
    "replaced": ("#CC79A7", "\\", N_("Job deleted by Replace")),
    "deleted": ("#E69F00", "-", N_("Job deleted")),
    "kept_succeeded": ("#CDEFE3", "/", N_("succeeded, kept")),
    "kept_failed": ("#F7D6C2", "x", N_("failed, kept")),
}
# symbol, legend word
DELETED_BY: dict[str, tuple[str, str]] = {
    # TRANSLATORS: who deleted a CronJob's Job (the History view's marks, legend and text twin).
    "successful": ("x-thin-open", N_("deleted: successfulJobsHistoryLimit")),
    "failed": ("cross-thin-open", N_("deleted: failedJobsHistoryLimit")),
    "ttl": ("hourglass-open", N_("deleted: ttlSecondsAfterFinished (ttl-after-finished controller)")),
    "replace": ("triangle-down-open", N_("deleted: concurrencyPolicy Replace")),
    "other": ("diamond-open", N_("deleted by someone else")),
}
COUNTS: dict[str, tuple[str, str]] = {
    "successful": Nn_("{n} by successfulJobsHistoryLimit", "{n} by successfulJobsHistoryLimit"),
    "failed": Nn_("{n} by failedJobsHistoryLimit", "{n} by failedJobsHistoryLimit"),
    "ttl": Nn_("{n} by ttlSecondsAfterFinished", "{n} by ttlSecondsAfterFinished"),
    "replace": Nn_("{n} by Replace", "{n} by Replace"),
    "other": Nn_("{n} by someone else", "{n} by someone else"),
}


def _row(j: _cron.JobLife, t: float, end_seq: int) -> dict[str, Any]:
    """A Job as of ``t``/``end_seq``: outcome, its run's end, whether it is gone and why."""
    outcome, run_end = _cron.job_outcome(j, t, end_seq)
    deleting = j.deleting if j.deleting is not None and j.deleting_seq < end_seq else None
    removed = j.removed if j.removed is not None and j.removed_seq < end_seq else None
    gone_at = deleting if deleting is not None else removed
    return {"job": j, "outcome": outcome, "run_end": run_end, "gone_at": gone_at,
            "by": (j.deleted_by or "other") if gone_at is not None else ""}


def _state(trace: Trace, cycle: int) -> dict[str, Any]:
    k, t, c = resolve(trace, cycle)
    end_seq = c.change_end if c is not None else trace.initial_changes
    m = _cron.model(trace)
    spec = _cron.spec_at(m, t, end_seq)
    if spec is None and trace.final_job is not None:
        spec = trace.final_job.spec
    zone = _cron.zone_of(spec, m.controller_zone) if spec is not None else m.controller_zone
    rows = [_row(j, t, end_seq) for j in m.jobs if j.created_seq < end_seq]
    limits = {}
    for cyc, case, _job, count, limit in m.history:
        if cyc <= k:
            limits[(cyc, case)] = (count, limit)
    return {"k": k, "t": t, "spec": spec, "zone": zone, "rows": rows, "limits": limits}


def _why(r: dict[str, Any], st: dict[str, Any]) -> str:
    """Why a Job was deleted, in words (with the history limit's numbers when the CronJob controller said them)."""
    by = r["by"]
    j: _cron.JobLife = r["job"]
    if by in ("successful", "failed"):
        found = st["limits"].get((j.deleted_in_cycle, by))
        if found is not None:
            count, limit = found
            if by == "successful":
                # TRANSLATORS: why a CronJob's Job was deleted: {count} finished Jobs of its kind, {limit} the limit.
                return ngettext("the oldest of {count} successful Job, successfulJobsHistoryLimit {limit}",
                                "the oldest of {count} successful Jobs, successfulJobsHistoryLimit {limit}",
                                count).format(count=count, limit=limit)
            return ngettext("the oldest of {count} failed Job, failedJobsHistoryLimit {limit}",
                            "the oldest of {count} failed Jobs, failedJobsHistoryLimit {limit}",
                            count).format(count=count, limit=limit)
    if by == "ttl" and j.ttl is not None:
        # TRANSLATORS: {ttl} is the Job's ttlSecondsAfterFinished in seconds.
        return _("ttlSecondsAfterFinished {ttl}: the ttl-after-finished controller deleted it {ttl} s after it "
                 "finished").format(ttl=j.ttl)
    if by == "replace":
        return _("concurrencyPolicy Replace: the next schedule time came while it ran")
    return _("not by the CronJob controller or the ttl-after-finished controller")


def _titles(trace: Trace, st: dict[str, Any], left_out: int = 0) -> tuple[str, str]:
    spec, zone, rows = st["spec"], st["zone"], st["rows"]
    # TRANSLATORS: the History view's title: {cronjob} is cronjob.batch/NAME, {when} "cycle 4 at 00:05:00.1".
    main = _("Jobs of {cronjob} kept and deleted, up to {when}").format(cronjob=cronjob_ref(trace),
                                                                       when=when_word(st["k"], st["t"], zone))
    kept = [r for r in rows if r["gone_at"] is None]
    kept_ok = sum(1 for r in kept if r["outcome"] == "succeeded")
    kept_failed = sum(1 for r in kept if r["outcome"] == "failed")
    running = sum(1 for r in kept if r["outcome"] == "running")
    clauses = []
    if spec is not None:
        # TRANSLATORS: {successful} and {failed} are the CronJob's history limits (numbers, or "unset").
        clauses.append(_("successfulJobsHistoryLimit {successful}, failedJobsHistoryLimit {failed}").format(
            successful=_limit(spec.successful_jobs_history_limit), failed=_limit(spec.failed_jobs_history_limit)))
        ttl = spec.job_template.spec.ttl_seconds_after_finished
        if ttl is not None:
            # TRANSLATORS: {ttl} is a number of seconds from the CronJob's Job template.
            clauses.append(_("the Job template's ttlSecondsAfterFinished {ttl}: each finished Job is deleted {ttl} s "
                             "later, whatever the limits").format(ttl=ttl))
    # TRANSLATORS: what a CronJob keeps now: {succeeded} and {failed} finished Jobs, {running} running ones.
    clauses.append(_("kept now: {succeeded} succeeded, {failed} failed, {running} running").format(
        succeeded=kept_ok, failed=kept_failed, running=running))
    gone: dict[str, int] = {}
    for r in rows:
        if r["gone_at"] is not None:
            gone[r["by"]] = gone.get(r["by"], 0) + 1
    if gone:
        parts = [ngettext(*COUNTS[b], gone[b]).format(n=gone[b]) for b in DELETED_BY if b in gone]
        # TRANSLATORS: {n} Jobs deleted so far, {why} counts them by who deleted them ("3 by successfulJobsHistoryLimit").
        clauses.append(ngettext("{n} Job deleted: {why}", "{n} Jobs deleted: {why}", sum(gone.values())).format(
            n=sum(gone.values()), why=join_list(parts)))
    if left_out:
        clauses.append(ngettext("the {n} oldest Job is left out of the picture",
                                "the {n} oldest Jobs are left out of the picture", left_out).format(n=left_out))
    return main, join_clauses(clauses)


def _limit(value: int | None) -> str:
    # TRANSLATORS: a history limit that is not set (the API server defaults it; 0 keeps none).
    return str(value) if value is not None else _("unset")


def _hover(r: dict[str, Any], st: dict[str, Any]) -> str:
    zone = st["zone"]
    j: _cron.JobLife = r["job"]
    lines = [f"<b>{j.name}</b>"]
    if j.scheduled is not None:
        lines.append(_("for the schedule time {time}").format(time=date_time(j.scheduled, zone)))
    lines.append(_("created at {time}").format(time=clock(j.created, zone, seconds=True)))
    if r["outcome"] in ("succeeded", "failed"):
        lines.append(_("{outcome} at {time}").format(outcome=_(RUN_STYLE[r["outcome"]][2]),
                                                     time=clock(r["run_end"], zone, seconds=True)))
    if r["gone_at"] is not None:
        lines.append(_("deleted at {time}: {why}").format(time=clock(r["gone_at"], zone, seconds=True),
                                                          why=_why(r, st)))
    return "<br>".join(lines)


def figure(trace: Trace, cycle: int, *, width_px: float = FIGURE_PX):
    """The CronJob's Jobs up to ``cycle``: their runs, how long each finished one was kept, who deleted it."""
    if trace.kind != "CronJob":
        return empty_figure(VIEW, *not_a_cronjob(trace, cycle))
    st = _state(trace, cycle)
    t, zone = st["t"], st["zone"]
    rows = st["rows"]
    left_out = max(0, len(rows) - MAX_BARS)
    shown = rows[left_out:]
    start = trace.start_t if not left_out else min(r["job"].created for r in shown)
    right = max(t, start + 60) + 0.04 * max(t - start, 60)
    names = [r["job"].name for r in shown]
    pieces: dict[str, dict[str, list[Any]]] = {k: {"x": [], "base": [], "y": [], "hovertext": []} for k in RUN_STYLE}
    marks: dict[str, dict[str, list[Any]]] = {k: {"x": [], "y": [], "hovertext": []} for k in DELETED_BY}
    for r in shown:
        j: _cron.JobLife = r["job"]
        hover = _hover(r, st)
        run_end = r["run_end"]
        for key, a, b in ((r["outcome"], j.created, run_end),
                          ("kept_" + r["outcome"], run_end, r["gone_at"] if r["gone_at"] is not None else t)):
            if key not in pieces or (b - a <= 0 and key.startswith("kept_")):
                continue
            p = pieces[key]
            p["x"].append(round(max(b - a, 0.0), 3))
            p["base"].append(round(a, 3))
            p["y"].append(j.name)
            p["hovertext"].append(hover)
        if r["gone_at"] is not None:
            mk = marks[r["by"]]
            mk["x"].append(r["gone_at"])
            mk["y"].append(j.name)
            mk["hovertext"].append(hover)
    data: list[dict[str, Any]] = []
    for key, (color, pattern, word) in RUN_STYLE.items():
        p = pieces[key]
        if not p["x"]:
            continue
        marker: dict[str, Any] = {"color": color, "line": {"color": INK, "width": 0.5}}
        if pattern:
            marker["pattern"] = {"shape": pattern, "fgcolor": "#ffffff" if not key.startswith("kept_") else "#777777",
                                 "size": 6, "solidity": 0.3}
        data.append({"type": "bar", "orientation": "h", "name": _(word), **p, "marker": marker, "hoverinfo": "text",
                     "showlegend": True})
    for by, (symbol, word) in DELETED_BY.items():
        mk = marks[by]
        if not mk["x"]:
            continue
        data.append({"type": "scatter", "mode": "markers", "name": _(word), **mk, "hoverinfo": "text",
                     "marker": {"symbol": symbol, "size": 12, "color": INK, "line": {"width": 2, "color": INK}},
                     "showlegend": True})
    shapes, notes = [], []
    if st["k"]:
        line, note = now_line(t, sync_label(st["k"]), right=right)
        shapes.append(line)
        notes.append(note)
    if not rows:
        notes.append({"text": _("no Job yet"), "showarrow": False, "xref": "paper", "yref": "paper",
                      "x": 0.5, "y": 0.5, "font": {"color": MUTED, "size": 13}})
    main, sub = _titles(trace, st, left_out)
    vals, labels = clock_ticks(start, right, zone, max(3, int((width_px - 80) // 75)))
    layout = {
        "title": title(main, sub, width_px=width_px), "barmode": "overlay", "bargap": 0.3,
        "height": min(1000, max(320, 22 * len(shown) + 230)), "margin": {"t": 105, "l": 10, "r": 20, "b": 95},
        "xaxis": {"title": {"text": _("clock time in {zone}").format(zone=zone)}, "range": [start, right],
                  "tickvals": vals, "ticktext": labels, "zeroline": False},
        "yaxis": {"type": "category", "categoryorder": "array", "categoryarray": names, "autorange": "reversed",
                  "automargin": True, "fixedrange": True},
        "shapes": shapes, "annotations": notes, "legend": LEGEND_BOTTOM,
    }
    fit_x_title(layout, width_px)
    return make_figure(data, layout, view=VIEW)


def text(trace: Trace, cycle: int) -> str:
    """The same facts as :func:`figure`, as fixed-width text."""
    if trace.kind != "CronJob":
        return "\n".join(not_a_cronjob(trace, cycle)) + "\n"
    st = _state(trace, cycle)
    zone, rows = st["zone"], st["rows"]
    left_out = max(0, len(rows) - MAX_ROWS)
    main, sub = _titles(trace, st, max(0, len(rows) - MAX_BARS))
    lines = [main, sub]
    if left_out:
        lines.append(ngettext("The {n} oldest Job is not listed.", "The {n} oldest Jobs are not listed.",
                              left_out).format(n=left_out))
    out = []
    for r in rows[left_out:]:
        j: _cron.JobLife = r["job"]
        finished = clock(r["run_end"], zone, seconds=True) if r["outcome"] != "running" else "-"
        if r["gone_at"] is None:
            now = _("kept")
        else:
            now = _("deleted at {time}: {why}").format(time=clock(r["gone_at"], zone, seconds=True), why=_why(r, st))
        out.append((j.name, date_time(j.scheduled, zone) if j.scheduled is not None else "-",
                    clock(j.created, zone, seconds=True), finished, _(RUN_STYLE[r["outcome"]][2]), now))
    lines.append(table([pgettext("table column", "JOB"), pgettext("table column", "SCHEDULED"),
                        pgettext("table column", "CREATED"), pgettext("table column", "ENDED"),
                        pgettext("table column", "OUTCOME"), pgettext("table column", "NOW")], out)
                 if out else _("(no Job yet)"))
    return "\n".join(lines) + "\n"


__all__ = ["DELETED_BY", "MAX_BARS", "figure", "text"]
