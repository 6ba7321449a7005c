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
    args = ", ".join(f"{k}={v!r}" for k, v in sorted(f.items()) if k not in ("action", "job"))
    return {"call": f"{f['action']}({args})"}


def _sidecars(f: Mapping[str, Any]) -> Mapping[str, Any]:
    names = f.get("sidecars", ())
    return {"count": len(names), "names": join_list(names)}


def _node_lost(f: Mapping[str, Any]) -> Mapping[str, Any]:
    return {"count": len(f.get("pods", ()))}


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
