"""The sentence of every decision, rendered when shown, in the current language.

A decision (or note) in a trace is language-neutral: its rule id and its fields (numbers,
pod names, Kubernetes' own texts such as a condition message). :func:`render` turns them
into a sentence at the moment it is shown, from the template registered under the rule id
in :data:`REASONS`, translated by gettext. The same trace therefore renders in any language,
and nothing is formatted while the simulation runs.

An entry of :data:`REASONS` is one :class:`Template`, or a dict of templates keyed by the
decision's ``case`` field when one rule has several sentences. A template is:

* ``text``: ``N_("...")`` or, when a count meets a noun, ``Nn_("singular", "plural")`` with
  ``count`` naming the field that picks the form (Russian has three);
* placeholders ``{field}`` (with format specs such as ``{delay:g}``) filled from the fields;
* ``derive``: an optional pure function of the fields giving extra placeholders (a nested
  sentence, a difference), for the few sentences the fields do not hold directly.

Adding a decision: ``emit(rule_id, **fields)`` where it happens, then a template here
under the same id (``tests/trace/test_reasons.py`` fails for an emitted rule without one).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..controller.job.job_controller import ALL_REMAINING, RemovalPlan
from ..i18n import N_, Nn_, _, join_list, ngettext


@dataclass(frozen=True, slots=True)
class Template:
    """One sentence of a rule: its English text (marked), the count field, derived placeholders."""

    text: str | tuple[str, str]
    count: str = ""
    derive: Callable[[Mapping[str, Any]], Mapping[str, Any]] | None = None

    def render(self, fields: Mapping[str, Any]) -> str:
        """The sentence in the current language for these fields."""
        values = fields if self.derive is None else {**fields, **self.derive(fields)}
        if isinstance(self.text, tuple):
            pattern = ngettext(self.text[0], self.text[1], int(values[self.count]))
        else:
            pattern = _(self.text)
        return pattern.format_map(values)


def T(text: str | tuple[str, str], count: str = "", derive: Callable | None = None) -> Template:
    """Shorthand for :class:`Template` in the table below."""
    return Template(text, count, derive)


# --------------------------------------------------------------------------------------
# Why a pod is deleted: the deletion order's rules, the Indexed pre-steps, "all"
# --------------------------------------------------------------------------------------

ORDER_RULE_SENTENCES: dict[str, str] = {
    "unassigned-first": N_("unassigned pods go first"),
    # TRANSLATORS: Pending, Unknown and Running are pod phases (stay English).
    "earlier-phase-first": N_("Pending pods go before Unknown ones, Unknown before Running"),
    "not-ready-first": N_("pods that are not ready go first"),
    "recently-ready-first": N_("the pod ready for less time goes first (unset time first)"),
    "more-restarts-first": N_("the pod with more container restarts goes first"),
    "more-sidecar-restarts-first": N_("with equal restarts, the pod with more sidecar restarts goes first"),
    "newer-first": N_("the newer pod goes first (unset creation time first)"),
    "name": N_("tied on every rule (upstream may take either; k8sjobs takes names in order)"),
}
"""Rule id of the deletion order (:data:`k8sjobs.controller.controller_utils.ORDER_RULES` and
``name``, our tie-breaker) -> its learner sentence (English, marked: show it with ``_()``)."""

PRESTEP_RULES: dict[str, str] = {
    "no-index": N_("no valid completion index"),
    "index-out-of-range": N_("index {index} is out of range for completions {completions}"),
    "duplicate-index": N_("duplicate index {index}"),
}
"""Indexed Jobs remove these pods before anything else, whatever the number to remove (English,
marked: show with ``_(...).format(index=..., completions=...)``); the ids are
:data:`k8sjobs.controller.job.indexed_job_utils.PRESTEP_RULE_IDS`."""

WHY_SENTENCES: dict[str, str] = {**ORDER_RULE_SENTENCES, **PRESTEP_RULES,
                                 ALL_REMAINING: N_("every remaining pod had to go")}
"""Every reason a removal can have (deletion-order rules, pre-steps, ``all``) -> its sentence."""

def why_sentence(rule_id: str, numbers: Mapping[str, Any] | None = None) -> str:
    """The sentence of a removal reason in the current language (``numbers`` fill a pre-step's)."""
    text = WHY_SENTENCES.get(rule_id)
    return rule_id if text is None else _(text).format_map(dict(numbers or {}))


def deletion_sentence(order_rule: str, fields: Mapping[str, Any]) -> str:
    """Why a scale-down picked a pod (a deletion-order rule or a pre-step), in the current language."""
    return why_sentence(order_rule, fields)


def removal_reasons(plan: RemovalPlan) -> dict[str, str]:
    """Pod name -> ``"deleted: <why>"`` in the current language, for every pod the plan deletes."""
    return {name: _("deleted: {why}").format(why=why_sentence(rule, numbers))
            for name, (rule, numbers) in plan.why.items()}


def removal_text(plan: RemovalPlan) -> str:
    """A stable, readable explanation of a plan: one line per pod, in deletion order."""
    lines = []
    for name, rule_id in plan.prestep:
        why = why_sentence(rule_id, plan.why[name][1])
        lines.append(_("{pod}: deleted first: {why}").format(pod=name, why=why))
    picked = {p.metadata.name for p in plan.to_delete}
    reasons = removal_reasons(plan)
    for i, pod in enumerate(plan.ranking):
        name = pod.metadata.name
        verdict = reasons[name] if name in picked else _("kept")
        # TRANSLATORS: {rule} is the id of a deletion-order rule (e.g. not-ready-first), kept in English.
        rule = _("  [before next: {rule}]").format(rule=plan.pair_rules[i]) if i < len(plan.pair_rules) else ""
        lines.append(f"{name}: {verdict}{rule}")
    return "\n".join(lines)


def _want_remaining(f: Mapping[str, Any]) -> Mapping[str, Any]:
    return {"remaining": f["completions"] - f["succeeded"]}


def _deletion_why(f: Mapping[str, Any]) -> Mapping[str, Any]:
    return {"why": deletion_sentence(f["order_rule"], f)}


def _unsatisfied_what(f: Mapping[str, Any]) -> Mapping[str, Any]:
    add, dele = f.get("add", 0), f.get("dele", 0)
    parts = []
    if add:
        # TRANSLATORS: part of "waiting for the informer to show {what}": pod creations not yet seen.
        parts.append(ngettext("{n} creation", "{n} creations", add).format(n=add))
    if dele:
        # TRANSLATORS: part of "waiting for the informer to show {what}": pod deletions not yet seen.
        parts.append(ngettext("{n} deletion", "{n} deletions", dele).format(n=dele))
    if not parts:
        # TRANSLATORS: "waiting for the informer to show {what}" when no count is known.
        return {"what": _("earlier changes")}
    if len(parts) == 1:
        return {"what": parts[0]}
    # TRANSLATORS: joins "{n} creations" and "{n} deletions" in "waiting for the informer to show {what}".
    return {"what": _("{creations} and {deletions}").format(creations=parts[0], deletions=parts[1])}


def _nothing_to_do(f: Mapping[str, Any]) -> Mapping[str, Any]:
    return {"want_reason": render("manage.want_active", f["want"])}


def _action_call(f: Mapping[str, Any]) -> Mapping[str, Any]:
    # The call as Python code (not translated): fail_pod(exit_code=42, name='pi-x').
    args = ", ".join(f"{k}={v!r}" for k, v in sorted(f.items()) if k != "action")
    return {"call": f"{f['action']}({args})"}


def _sidecars(f: Mapping[str, Any]) -> Mapping[str, Any]:
    names = f.get("sidecars", ())
    return {"count": len(names), "names": join_list(names)}


def _node_lost(f: Mapping[str, Any]) -> Mapping[str, Any]:
    return {"count": len(f.get("pods", ()))}


# ---------------------------------------------------------------- CronJob decisions: times and durations

_CRON_TIME_FIELDS = ("scheduled", "earliest", "at", "t", "last_schedule", "last_successful")


def go_duration(seconds: float) -> str:
    """A duration as Go prints a time.Duration (``59m0.1s``, ``2h0m0s``, ``100ms``): Kubernetes' own notation."""
    ns = round(seconds * 1e9)
    if ns == 0:
        return "0s"
    sign = "-" if ns < 0 else ""
    ns = abs(ns)
    if ns < 1_000_000_000:
        for unit, size in (("ms", 1_000_000), ("µs", 1_000), ("ns", 1)):
            if ns >= size:
                return f"{sign}{ns / size:g}{unit}"
    h, rest = divmod(ns, 3_600_000_000_000)
    m, rest = divmod(rest, 60_000_000_000)
    secs = f"{rest / 1e9:.9f}".rstrip("0").rstrip(".")
    if h:
        return f"{sign}{h}h{m}m{secs}s"
    if m:
        return f"{sign}{m}m{secs}s"
    return f"{sign}{secs}s"


def _cron_times(f: Mapping[str, Any]) -> Mapping[str, Any]:
    """The times of a CronJob decision (simulated seconds) as RFC 3339 in the decision's zone; delays as Go durations."""
    from ..controller.cronjob.utils import format_rfc3339, load_location, to_time

    try:
        zone = load_location(f.get("zone") or "UTC") or load_location("UTC")
    except ValueError:
        zone = load_location("UTC")
    out: dict[str, Any] = {}
    origin = f.get("origin") or 0.0  # where the run's time 0 is (set when it is not the model's epoch)
    for name in _CRON_TIME_FIELDS:
        if name in f:
            value = f[name]
            try:
                out[name] = "<none>" if value is None else format_rfc3339(to_time(value, zone, origin))
            except (OverflowError, ValueError):  # beyond year 9999: shown as seconds
                out[name] = f"t={value:g} s"
    if "delay" in f and f["delay"] is not None:
        out["delay"] = go_duration(f["delay"])
    if not f.get("zone"):
        out["zone"] = "UTC"
    return out


def _cron_t(text: str | tuple[str, str], count: str = "") -> Template:
    return Template(text, count, _cron_times)


REASONS: dict[str, Template | dict[str, Template]] = {
    # ---------------------------------------------------------------- the sync loop
    "sync.begin": T(N_("sync {job}")),
    "sync.end": {
        "": T(N_("sync finished")),
        "error": T(N_("sync failed: {error}")),
    },
    "sync.error": T(N_("sync failed ({error}); retrying in {retry_in:g} s (rate limited)")),
    "sync.skip.not_found": T(N_("the Job is gone: its expectations and backoff record are forgotten")),
    # TRANSLATORS: {managed_by} is the value of spec.managedBy (a controller name).
    "sync.skip.managed_by": T(N_("spec.managedBy is {managed_by}: another controller owns this Job, so the "
                                 "built-in controller does nothing")),
    "sync.skip.finished": T(N_("the Job is finished: nothing left to do")),
    "sync.skip.unknown_mode": T(N_("completion mode {mode!r} is unknown: sync skipped")),
    "sync.observed": T(Nn_("observed {pods} pod: {active} active, {terminating} terminating, {succeeded} "
                           "succeeded, {failed} failed",
                           "observed {pods} pods: {active} active, {terminating} terminating, {succeeded} "
                           "succeeded, {failed} failed"), "pods"),
    "sync.nothing_to_do": {
        # TRANSLATORS: {want_reason} is the sentence of manage.want_active ("want 2 active: ...").
        "want": T(N_("nothing to change: {active} active, {want_reason}"), derive=_nothing_to_do),
        "": T(N_("nothing to change: {active} active, {succeeded} succeeded, {failed} failed")),
    },
    "status.start_time": T(N_("start time set: this is the first sync of the unsuspended Job")),
    "status.write": T(N_("status written: active={active} ready={ready} succeeded={succeeded} failed={failed} "
                         "terminating={terminating}")),
    # TRANSLATORS: {error} is the API server's error text (stays English).
    "status.write_failed": T(N_("status write failed: {error}")),
    # ---------------------------------------------------------------- expectations and the informer
    "expectations.creation_observed": T(N_("observed the creation of {pod}")),
    "expectations.deletion_observed": T(N_("observed the deletion of {pod}")),
    "expectations.unsatisfied": {
        # TRANSLATORS: {what} is "2 creations", "1 deletion", "2 creations and 1 deletion" or "earlier
        # changes"; {expires_at} is a simulated time in seconds.
        "": T(N_("waiting for the informer to show {what}: expectations not met, so no pods are created or "
                 "deleted in this sync (they expire at t={expires_at:g} s)"), derive=_unsatisfied_what),
        "unknown": T(N_("waiting for the informer to show {what}: expectations not met, so no pods are created "
                        "or deleted in this sync"), derive=_unsatisfied_what),
    },
    "pods.adopted": T(N_("adopted orphan pod {pod}: its labels match the selector")),
    "pods.released": T(N_("released pod {pod}: its labels no longer match the selector")),
    # ---------------------------------------------------------------- finishing decisions
    # TRANSLATORS: {reason_code} is a condition reason such as BackoffLimitExceeded (stays English).
    "decision.failure_target_exists": T(N_("FailureTarget ({reason_code}) was set earlier: the Job will be marked "
                                           "Failed once its pods are gone")),
    # TRANSLATORS: {message} is the condition message Kubernetes writes (stays English).
    "decision.pod_failure_policy.fail_job": T(N_("podFailurePolicy FailJob rule matched: {message}")),
    "decision.backoff_limit_exceeded": {
        "failed": T(Nn_("backoff limit exceeded: {failed} failed pod > backoffLimit {backoff_limit}",
                        "backoff limit exceeded: {failed} failed pods > backoffLimit {backoff_limit}"), "failed"),
        "restarts": T(Nn_("backoff limit exceeded: {restarts} container restart reaches backoffLimit "
                          "{backoff_limit} (restartPolicy OnFailure)",
                          "backoff limit exceeded: {restarts} container restarts reach backoffLimit "
                          "{backoff_limit} (restartPolicy OnFailure)"), "restarts"),
    },
    "decision.deadline_exceeded": T(N_("active deadline exceeded: active {active_for:g} s >= "
                                       "activeDeadlineSeconds {active_deadline_seconds}")),
    "deadline.requeue": T(N_("activeDeadlineSeconds: sync again in {delay:g} s when the deadline passes")),
    "decision.max_failed_indexes_exceeded": T(Nn_("{n_failed} failed index > maxFailedIndexes {max_failed_indexes}",
                                                  "{n_failed} failed indexes > maxFailedIndexes "
                                                  "{max_failed_indexes}"), "n_failed"),
    # TRANSLATORS: {failed_indexes} lists the failed indexes as intervals, e.g. "1,3-5".
    "decision.failed_indexes": T(Nn_("every index finished and {n_failed} of them failed ({failed_indexes})",
                                     "every index finished and {n_failed} of them failed ({failed_indexes})"),
                                 "n_failed"),
    "decision.success_policy": T(N_("successPolicy met: {message}")),
    "decision.dropped": {
        # TRANSLATORS: {condition} is a condition type (FailureTarget, SuccessCriteriaMet; stays English).
        "unsatisfied": T(N_("{condition} is not recorded in this sync: expectations are not satisfied")),
        "partial": T(Nn_("{condition} is not recorded in this sync: only {deleted} of {active} active pod could "
                         "be deleted",
                         "{condition} is not recorded in this sync: only {deleted} of {active} active pods could "
                         "be deleted"), "active"),
    },
    "decision.completions_reached": {
        "queue": T(Nn_("success: {succeeded} pod succeeded and no pod is active (work queue)",
                       "success: {succeeded} pods succeeded and no pod is active (work queue)"), "succeeded"),
        "": T(N_("success: {succeeded} succeeded >= completions {completions} and no pod is active")),
    },
    # ---------------------------------------------------------------- conditions
    "condition.suspended": T(N_("condition Suspended=True (JobSuspended): spec.suspend is true, so no pods run")),
    "condition.resumed": T(N_("condition Suspended=False (JobResumed): the Job runs again and its start time "
                              "restarts now")),
    # TRANSLATORS: {reason_code} and {message} are the condition's reason and message (stay English).
    "condition.failure_target": T(N_("condition FailureTarget ({reason_code}): {message}")),
    "condition.success_criteria_met": T(N_("condition SuccessCriteriaMet ({reason_code}): {message}")),
    # TRANSLATORS: {condition} is Complete or Failed; {reason_code} and {message} are Kubernetes' own.
    "condition.complete": T(N_("condition {condition} ({reason_code}): {message}")),
    "condition.failed": T(N_("condition {condition} ({reason_code}): {message}")),
    "finish.delayed_uncounted": T(Nn_("{condition} waits: {uncounted} finished pod is not counted yet",
                                      "{condition} waits: {uncounted} finished pods are not counted yet"),
                                  "uncounted"),
    "finish.delayed_terminating": T(Nn_("{condition} waits: {terminating} pod is still terminating",
                                        "{condition} waits: {terminating} pods are still terminating"),
                                    "terminating"),
    # ---------------------------------------------------------------- manage_job: how many pods
    "manage.want_active": {
        "": T(N_("want {want} active: min(completions {completions} - succeeded {succeeded} = {remaining}, "
                 "parallelism {parallelism})"), derive=_want_remaining),
        "queue": T(N_("want {want} active: parallelism {parallelism} (work queue, nothing succeeded yet)")),
        "queue_done": T(N_("want {want} active: a pod already succeeded, so a work-queue Job starts no new pods")),
    },
    "scale_down": T(N_("too many pods: {active} active, want {want}: deleting {count} in deletion order")),
    "suspend.delete": T(Nn_("suspended: deleting all {count} active pod; its finalizer is removed first, so it is "
                            "not counted as failed",
                            "suspended: deleting all {count} active pods; their finalizers are removed first, so "
                            "they are not counted as failed"), "count"),
    "create.wait_terminating": T(Nn_("not replacing {terminating} terminating pod yet: podReplacementPolicy is "
                                     "Failed, so a pod is replaced only once it has failed",
                                     "not replacing {terminating} terminating pods yet: podReplacementPolicy is "
                                     "Failed, so a pod is replaced only once it has failed"), "terminating"),
    # TRANSLATORS: {delay} is what is left of {backoff}, the full delay after the last failure (seconds).
    "backoff.wait": T(Nn_("waiting {delay:g} s: backoff after {failures} failure (delay {backoff:g} s since the "
                          "last failure at t={last_failure:g} s)",
                          "waiting {delay:g} s: backoff after {failures} failures (delay {backoff:g} s since the "
                          "last failure at t={last_failure:g} s)"), "failures"),
    "backoff.wait_index": T(N_("waiting {delay:g} s: every pending index is in its per-index backoff")),
    # TRANSLATORS: an Indexed Job wants more pods, but no index is left to start. {failed_indexes} lists
    # failed indexes as intervals, e.g. "2" or "1,3-5".
    "create.no_pending_index": {
        "": T(N_("no pod to create: every index is running or has succeeded")),
        "failed": T(N_("no pod to create: every index is running, has succeeded or has failed (failed indexes "
                       "{failed_indexes}); a failed index is not retried")),
    },
    "create.plan": T(Nn_("creating {count} pod in slow-start batches 1, 2, 4, ...",
                         "creating {count} pods in slow-start batches 1, 2, 4, ..."), "count"),
    "create.slow_start_batch": {
        "": T(N_("slow start: batch {batch} of size {size}")),
        "failed": T(N_("slow start: batch {batch} of size {size}, {failed} failed")),
    },
    "create.slow_start_stop": T(Nn_("slow start stopped: batch {batch} had a failed create, so {skipped} pod is "
                                    "skipped until a later sync (expectations lowered)",
                                    "slow start stopped: batch {batch} had a failed create, so {skipped} pods are "
                                    "skipped until a later sync (expectations lowered)"), "skipped"),
    "create.namespace_terminating": T(N_("create rejected: the namespace is terminating (ignored, as upstream "
                                         "does)")),
    # TRANSLATORS: {error} is the API server's error text (stays English).
    "create.failed": T(N_("create failed: {error}; expectations lowered by one")),
    # ---------------------------------------------------------------- deleting pods
    "delete.finishing": T(N_("deleted {pod}: the Job is finishing, so every active pod is deleted")),
    "delete.suspend": T(N_("deleted {pod}: the Job is suspended")),
    "delete.scale_down": {
        # TRANSLATORS: {why} is a rule of the deletion order, e.g. "unassigned pods go first".
        "": T(N_("deleted {pod}: {why}"), derive=_deletion_why),
        "plain": T(N_("deleted {pod}")),
    },
    "delete.failed": {
        "": T(N_("could not delete {pod}: {error}")),
        "lowered": T(N_("could not delete {pod}: {error}; expectations lowered")),
    },
    # ---------------------------------------------------------------- tracking with finalizers
    "track.cap": T(N_("{cap} uncounted pods reached: the rest are counted in the next sync")),
    "track.counted": T(Nn_("counted {new_succeeded} succeeded and {new_failed} failed pod: its finalizer is gone, "
                           "so the counters grow",
                           "counted {new_succeeded} succeeded and {new_failed} failed pods: their finalizers are "
                           "gone, so the counters grow"), "counted"),
    # ---------------------------------------------------------------- outside the controller
    "ttl.deleted": T(N_("ttlSecondsAfterFinished {ttl}: the Job finished at t={finished_at:g} s and is deleted "
                        "now, its pods first (foreground)")),
    # TRANSLATORS: {period} is how often pod GC runs (20 s), {delay} its quarantine of a vanished node (40 s).
    "cluster.node_lost": T(Nn_("node {node} lost: pod GC, which runs every {period:g} s, will notice it, wait "
                               "{delay:g} s more, then fail and delete its {count} pod",
                               "node {node} lost: pod GC, which runs every {period:g} s, will notice it, wait "
                               "{delay:g} s more, then fail and delete its {count} pods"), "count", _node_lost),
    "cluster.pod_gc": T(N_("pod GC failed and deleted {pod}: its node {node} no longer exists")),
    "cluster.unschedulable": T(N_("{pod} waits: no node has a free pod slot")),
    # TRANSLATORS: {restarts} is the restart count of the container (the Nth restart).
    "cluster.container_restart": {
        "": T(N_("{pod}: container exited {exit_code}; restart {restarts} in {delay:g} s (CrashLoopBackOff)")),
        # TRANSLATORS: the kubelet restarts a container at once after its first crash.
        "at_once": T(N_("{pod}: container exited {exit_code}; restart {restarts} at once")),
    },
    # TRANSLATORS: {names} lists the sidecar containers' names; {seconds} is their grace period.
    "cluster.sidecars_stopping": T(Nn_("{pod}: its regular containers have exited; the kubelet stops its sidecar "
                                       "{names} ({seconds:g} s)",
                                       "{pod}: its regular containers have exited; the kubelet stops its sidecars "
                                       "{names} in reverse order ({seconds:g} s)"), "count", _sidecars),
    "cluster.pod_deadline": T(N_("{pod} was active on its node for {seconds} s, its own activeDeadlineSeconds: the "
                                 "kubelet stops its containers and fails it (DeadlineExceeded)")),
    "cluster.evicted": T(N_("{pod} evicted: DisruptionTarget=True, then deleted gracefully")),
    # ---------------------------------------------------------------- the CronJob controller
    "cronjob.sync.begin": T(N_("sync {cronjob}")),
    "cronjob.sync.end": {
        "": T(N_("sync finished")),
        # TRANSLATORS: {error} is the API server's error text (stays English).
        "error": T(N_("sync failed: {error}")),
    },
    "cronjob.sync.error": T(N_("sync failed ({error}); retrying in {retry_in:g} s (rate limited)")),
    "cronjob.sync.not_found": T(N_("the CronJob is gone: nothing to do, its key is dropped")),
    "cronjob.jobs.listed": T(Nn_("{jobs} Job names this CronJob as its controller; status.active lists {active}",
                                 "{jobs} Jobs name this CronJob as their controller; status.active lists {active}"),
                             "jobs"),
    "cronjob.active.reread": T(N_("{job} is running but not in the cached status.active; the CronJob read from the "
                                  "API server lists it, so this sync goes on with that copy")),
    "cronjob.active.unexpected": T(N_("{job} is running but is not in status.active, not even in the CronJob read "
                                      "from the API server: UnexpectedJob (it is not adopted)")),
    # TRANSLATORS: {condition} is Complete or Failed (a Job condition type, stays English).
    "cronjob.active.saw_completed": T(N_("{job} finished ({condition}): removed from status.active")),
    # TRANSLATORS: {t} is an RFC 3339 date and time.
    "cronjob.last_successful": _cron_t(N_("lastSuccessfulTime is now {t}: {job} completed successfully")),
    "cronjob.active.missing": T(N_("{job} is in status.active but the API server no longer has it: removed "
                                   "(MissingJob)")),
    "cronjob.active.not_in_cache": T(N_("{job} is in status.active but not in the cache; the API server still has "
                                        "it, so it stays")),
    "cronjob.skip.deleting": T(N_("the CronJob is being deleted: only its status is updated")),
    # TRANSLATORS: {error} is Go's error text, e.g. "unknown time zone Mars/Base" (stays English).
    "cronjob.skip.unknown_time_zone": T(N_("spec.timeZone {time_zone} does not load ({error}): UnknownTimeZone, "
                                           "nothing is scheduled until it is fixed")),
    "cronjob.skip.suspended": T(N_("spec.suspend is true: no Job is created and no sync is scheduled until the "
                                   "CronJob changes")),
    "cronjob.schedule.tz_in_schedule": T(N_("the schedule {schedule} contains TZ: it is used as written and "
                                            "spec.timeZone does not apply to it (UnsupportedSchedule)")),
    # TRANSLATORS: {error} is the cron library's error text (stays English).
    "cronjob.skip.unparseable": T(N_("the schedule {schedule} cannot be parsed ({error}): UnparseableSchedule, "
                                     "nothing is scheduled until the spec changes")),
    "cronjob.skip.invalid_schedule": T(N_("the schedule {schedule} has no two times at least 1 s apart ({error}): "
                                          "InvalidSchedule, nothing is scheduled")),
    "cronjob.schedule.too_many_missed": T(N_("about {missed} schedule times were missed, more than {limit}: "
                                             "TooManyMissedTimes warning; the most recent one still runs")),
    # TRANSLATORS: {earliest} and {at} are RFC 3339 dates and times; {zone} is a time zone name such as UTC.
    "cronjob.schedule.none_due": _cron_t(N_("no time of the schedule {schedule} has come since {earliest} (zone "
                                            "{zone}): next sync at {at}")),
    "cronjob.schedule.due": {
        # TRANSLATORS: {scheduled} and {earliest} are RFC 3339 dates and times; {zone} a time zone name.
        "none": _cron_t(N_("schedule time {scheduled} of {schedule} has come (the first after {earliest}, zone "
                           "{zone})")),
        "few": _cron_t(Nn_("{missed} unmet schedule time of {schedule} since {earliest} (an estimate, zone {zone}): "
                           "the most recent, {scheduled}, runs",
                           "{missed} unmet schedule times of {schedule} since {earliest} (an estimate, zone {zone}): "
                           "only the most recent, {scheduled}, runs"), "missed"),
        "many": _cron_t(Nn_("{missed} unmet schedule time of {schedule} since {earliest} (an estimate, zone {zone}): "
                            "the most recent, {scheduled}, runs",
                            "{missed} unmet schedule times of {schedule} since {earliest} (an estimate, zone {zone}): "
                            "only the most recent, {scheduled}, runs"), "missed"),
    },
    "cronjob.skip.too_late": _cron_t(N_("schedule time {scheduled} is more than startingDeadlineSeconds {deadline} s "
                                        "ago: MissSchedule, no Job for it")),
    "cronjob.skip.already_processed": {
        "active": _cron_t(N_("schedule time {scheduled} is already handled: {job} is in status.active")),
        "last": _cron_t(N_("schedule time {scheduled} is already handled: it is lastScheduleTime")),
    },
    "cronjob.skip.forbid": _cron_t(Nn_("concurrencyPolicy Forbid: {active} Job is still active, so the schedule time "
                                       "{scheduled} is skipped (JobAlreadyActive)",
                                       "concurrencyPolicy Forbid: {active} Jobs are still active, so the schedule "
                                       "time {scheduled} is skipped (JobAlreadyActive)"), "active"),
    "cronjob.replace.get_failed": T(N_("concurrencyPolicy Replace: reading {job} failed ({error}): FailedGet, nothing "
                                       "is replaced or created")),
    "cronjob.delete": {
        "replace": T(N_("deleted {job}: concurrencyPolicy Replace stops the running Job before the next one starts")),
        "successful": T(N_("deleted {job}: the oldest successful Job beyond successfulJobsHistoryLimit")),
        "failed": T(N_("deleted {job}: the oldest failed Job beyond failedJobsHistoryLimit")),
        "": T(N_("deleted {job}")),
    },
    "cronjob.delete.failed": T(N_("could not delete {job}: {error} (FailedDelete)")),
    "cronjob.history.limit": {
        "successful": T(Nn_("{count} successful Job is kept, successfulJobsHistoryLimit is {limit}: deleting the "
                            "{delete} oldest",
                            "{count} successful Jobs are kept, successfulJobsHistoryLimit is {limit}: deleting the "
                            "{delete} oldest"), "count"),
        "failed": T(Nn_("{count} failed Job is kept, failedJobsHistoryLimit is {limit}: deleting the {delete} oldest",
                        "{count} failed Jobs are kept, failedJobsHistoryLimit is {limit}: deleting the {delete} "
                        "oldest"), "count"),
    },
    "cronjob.create": _cron_t(N_("created {job} for the schedule time {scheduled}")),
    "cronjob.create.exists": {
        "adopted": T(N_("{job} already exists and this CronJob controls it: it goes into status.active")),
        "already_active": T(N_("{job} already exists and is in status.active: nothing to do")),
        "not_controlled": T(N_("{job} already exists but this CronJob does not control it: left alone, no status "
                               "change")),
    },
    "cronjob.create.namespace_terminating": T(N_("creating {job} failed: the namespace is terminating (no event)")),
    "cronjob.create.failed": T(N_("creating {job} failed: {error} (FailedCreate)")),
    # TRANSLATORS: {at} is an RFC 3339 date and time; {delay} a duration as Go prints it, e.g. 59m0.1s.
    "cronjob.requeue": _cron_t(N_("sync again at {at}, the next schedule time plus 100 ms (in {delay})")),
    # TRANSLATORS: {last_schedule} and {last_successful} are RFC 3339 dates and times, or <none>.
    "cronjob.status.write": _cron_t(N_("status written: {active} active, lastScheduleTime {last_schedule}, "
                                       "lastSuccessfulTime {last_successful}")),
    "cronjob.status.write_failed": T(N_("status write failed: {error}")),
    "cronjob.update.schedule_changed": _cron_t(N_("the schedule or time zone changed ({schedule}): sync at the new next "
                                                  "schedule time {at} (in {delay})")),
    "cronjob.update.unparseable": T(N_("the new schedule {schedule} cannot be parsed: UnParseableCronJobSchedule, no "
                                       "sync is queued")),
    # TRANSLATORS: {call} is Python code, e.g. fail_pod(exit_code=42, name='pi-x'); keep it as is.
    "action.*": T(N_("learner action: {call}"), derive=_action_call),
}
"""Rule id (or ``family.*``) -> its template, or ``{case: template}`` when the rule has several sentences."""


def template(rule: str, case: str = "") -> Template | None:
    """The template of ``rule`` (and ``case``), or None when none is registered."""
    entry = REASONS.get(rule)
    if entry is None and "." in rule:
        entry = REASONS.get(rule[: rule.index(".")] + ".*")
    if isinstance(entry, dict):
        return entry.get(case)
    return entry


def render(rule: str, fields: Mapping[str, Any]) -> str:
    """The sentence of a decision of ``rule`` with ``fields``, in the current language.

    A rule without a template (a decision added without following the convention) shows the
    English ``reason`` it was emitted with, or its rule id.
    """
    found = template(rule, fields.get("case", ""))
    if found is None:
        return str(fields.get("reason") or rule)
    return found.render(fields)
