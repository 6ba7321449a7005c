"""Which pods are active, ready or terminating, and which active pods the Job controller deletes first.

Mirrors, for Kubernetes 1.35 (current master line):

* ``IsPodActive``, ``FilterActivePods``, ``IsPodTerminating``, ``CountTerminatingPods`` and
  ``ActivePods.Less`` (with ``podReadyTime``, ``afterOrZero``, ``compareMaxContainerRestarts``,
  ``maxContainerRestarts``) in pkg/controller/controller_utils.go;
* ``podutil.IsPodReady`` in pkg/api/v1/pod/util.go;
* ``activePodsForRemoval``, ``isPodFailed``, ``onlyReplaceFailedPods`` and ``countReadyPods`` in
  pkg/controller/job/job_controller.go;
* ``appendDuplicatedIndexPodsForRemoval`` in pkg/controller/job/indexed_job_utils.go.

The Job controller sorts with plain ``ActivePods``, not ``ActivePodsWithRanks``: there is no
pod-deletion-cost, no per-node co-location rank and no logarithmic time bucketing here.

The deletion order is a sort key built from :data:`ORDER_RULES`, a table of small rules in the
order upstream applies them; a smaller key is deleted first. Upstream leaves pods that tie on
every rule unordered (Go's sort is not stable); the key ends with the pod name so that our
traces never depend on the order in which pods were listed.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from k8sjobs.api.types import (
    ConditionStatus,
    Job,
    Phase,
    Pod,
    PodConditionType,
    PodReplacementPolicy,
)
from k8sjobs.i18n import N_, _

# --------------------------------------------------------------------------------------
# Pod classification (controller_utils.go, podutil, job_controller.go)
# --------------------------------------------------------------------------------------


def is_pod_active(pod: Pod) -> bool:
    """Not Succeeded, not Failed and not being deleted; mirrors ``IsPodActive`` in controller_utils.go."""
    return (
        pod.status.phase not in (Phase.SUCCEEDED, Phase.FAILED)
        and pod.metadata.deletion_timestamp is None
    )


def filter_active_pods(pods: Iterable[Pod]) -> list[Pod]:
    """The active pods, in input order; mirrors ``FilterActivePods`` in controller_utils.go."""
    return [p for p in pods if is_pod_active(p)]


def is_pod_terminal(pod: Pod) -> bool:
    """Phase Succeeded or Failed; mirrors ``podutil.IsPodTerminal``."""
    return pod.status.phase in (Phase.SUCCEEDED, Phase.FAILED)


def is_pod_terminating(pod: Pod) -> bool:
    """Being deleted but not yet terminal; mirrors ``IsPodTerminating`` in controller_utils.go.

    A Succeeded or Failed pod that carries a deletionTimestamp is terminal, not terminating.
    """
    return not is_pod_terminal(pod) and pod.metadata.deletion_timestamp is not None


def filter_terminating_pods(pods: Iterable[Pod]) -> list[Pod]:
    """The terminating pods, in input order; mirrors ``FilterTerminatingPods`` in controller_utils.go."""
    return [p for p in pods if is_pod_terminating(p)]


def count_terminating_pods(pods: Iterable[Pod]) -> int:
    """How many pods are terminating; mirrors ``CountTerminatingPods`` in controller_utils.go."""
    return sum(1 for p in pods if is_pod_terminating(p))


def _ready_condition(pod: Pod):
    # podutil.GetPodCondition returns the FIRST condition of the type; later duplicates are ignored.
    for condition in pod.status.conditions:
        if condition.type == PodConditionType.READY:
            return condition
    return None


def is_pod_ready(pod: Pod) -> bool:
    """The pod's Ready condition is True; mirrors ``podutil.IsPodReady``."""
    condition = _ready_condition(pod)
    return condition is not None and condition.status == ConditionStatus.TRUE


def count_ready_pods(pods: Iterable[Pod]) -> int:
    """How many of ``pods`` are ready; mirrors ``countReadyPods`` in job_controller.go.

    The controller calls it with the active pods only (status.ready).
    """
    return sum(1 for p in pods if is_pod_ready(p))


def ready_since(pod: Pod) -> float | None:
    """When a ready pod became ready; None (Go's zero time) if unknown or not ready.

    Mirrors ``podReadyTime`` in controller_utils.go: the lastTransitionTime of the first
    Ready=True condition of a ready pod.
    """
    if not is_pod_ready(pod):
        return None
    for condition in pod.status.conditions:
        if condition.type == PodConditionType.READY and condition.status == ConditionStatus.TRUE:
            return condition.last_transition_time
    return None


def max_container_restarts(pod: Pod) -> tuple[int, int]:
    """(max restartCount of regular containers, max restartCount of sidecars).

    Mirrors ``maxContainerRestarts`` in controller_utils.go. A sidecar is an init container
    whose spec has restartPolicy Always; ordinary init containers are not counted. The
    maximum is taken, not the sum.
    """
    regular = max((cs.restart_count for cs in pod.status.container_statuses), default=0)
    sidecar_names = {
        c.name for c in (pod.spec.init_containers or ()) if c.restart_policy == "Always"
    }
    sidecar = max(
        (cs.restart_count for cs in pod.status.init_container_statuses if cs.name in sidecar_names),
        default=0,
    )
    return max(regular, 0), max(sidecar, 0)


def only_replace_failed_pods(job: Job) -> bool:
    """Whether only Failed pods are replaced; mirrors ``onlyReplaceFailedPods`` in job_controller.go.

    Master checks ``podReplacementPolicy == Failed``. An unset policy is read as the value the
    API server's defaulting would give it (Failed when a podFailurePolicy is set, else
    TerminatingOrFailed), so an undefaulted Job behaves like the stored one.
    """
    policy = job.spec.pod_replacement_policy
    if policy is None:
        return job.spec.pod_failure_policy is not None
    return policy == PodReplacementPolicy.FAILED


def is_pod_failed(pod: Pod, job: Job) -> bool:
    """Whether the controller treats ``pod`` as failed; mirrors ``isPodFailed`` in job_controller.go.

    Phase Failed always counts. With podReplacementPolicy TerminatingOrFailed a pod being
    deleted (and not Succeeded) counts too, to account for orphan pods that never reach
    the Failed phase.
    """
    if pod.status.phase == Phase.FAILED:
        return True
    if only_replace_failed_pods(job):
        return False
    return pod.metadata.deletion_timestamp is not None and pod.status.phase != Phase.SUCCEEDED


# --------------------------------------------------------------------------------------
# The deletion order (ActivePods.Less) as data
# --------------------------------------------------------------------------------------

# Any phase missing from this map ranks like Pending: upstream's map lookup defaults to 0.
_PHASE_RANK = {Phase.PENDING: 0, Phase.UNKNOWN: 1, Phase.RUNNING: 2}


def _assigned(pod: Pod) -> bool:
    return pod.spec.node_name != ""


def _phase_rank(pod: Pod) -> int:
    return _PHASE_RANK.get(pod.status.phase, 0)


def _newest_first(t: float | None) -> tuple[int, float]:
    # afterOrZero: a zero (unset) time sorts before any real time; otherwise later first.
    return (0, 0.0) if t is None else (1, -t)


def _ready_time(pod: Pod) -> tuple[int, float]:
    # Only compared between two ready pods: rule "not-ready-first" already split the rest.
    if not is_pod_ready(pod):
        return (0, 0.0)
    return _newest_first(ready_since(pod))


def _creation_time(pod: Pod) -> tuple[int, float]:
    return _newest_first(pod.metadata.creation_timestamp)


@dataclass(frozen=True, slots=True)
class OrderRule:
    """One step of ``ActivePods.Less``: pods whose ``key`` is smaller are deleted first."""

    id: str
    sentence: str
    key: Callable[[Pod], Any] = field(repr=False)


ORDER_RULES: tuple[OrderRule, ...] = (
    OrderRule("unassigned-first", N_("unassigned pods go first"), _assigned),
    # TRANSLATORS: Pending, Unknown and Running are pod phases (stay English).
    OrderRule("earlier-phase-first", N_("Pending pods go before Unknown ones, Unknown before Running"), _phase_rank),
    OrderRule("not-ready-first", N_("pods that are not ready go first"), is_pod_ready),
    OrderRule("recently-ready-first", N_("the pod ready for less time goes first (unset time first)"), _ready_time),
    OrderRule("more-restarts-first", N_("the pod with more container restarts goes first"),
              lambda p: -max_container_restarts(p)[0]),
    OrderRule("more-sidecar-restarts-first", N_("with equal restarts, the pod with more sidecar restarts goes first"),
              lambda p: -max_container_restarts(p)[1]),
    OrderRule("newer-first", N_("the newer pod goes first (unset creation time first)"), _creation_time),
)
"""The rules of ``ActivePods.Less`` in the order upstream applies them; the first rule on which
two pods differ decides."""

NAME_RULE = OrderRule("name", N_("tied on every rule (upstream may take either; k8sjobs takes names in order)"),
                      lambda p: p.metadata.name)
"""Our tie-breaker (upstream leaves such pods unordered)."""

RULE_SENTENCES: dict[str, str] = {r.id: r.sentence for r in (*ORDER_RULES, NAME_RULE)}
"""Rule id -> learner sentence (English, marked: show it with ``_()``), for every rule of the deletion
order including ``name``."""


def active_pods_sort_key(pod: Pod) -> tuple:
    """Sort key of the deletion order: smaller is deleted first.

    Mirrors ``ActivePods.Less`` in controller_utils.go (see :data:`ORDER_RULES`), with the pod
    name appended so that the order is total.
    """
    return tuple(rule.key(pod) for rule in ORDER_RULES) + (NAME_RULE.key(pod),)


def deciding_rule(a: Pod, b: Pod) -> str | None:
    """Id of the rule that puts ``a`` before ``b`` in the deletion order.

    That is the first rule of :data:`ORDER_RULES` on which the two pods differ, or ``"name"``
    when they tie on every rule and ``a``'s name is smaller. None when ``a`` does not go
    before ``b`` (``b`` goes first, or the pods are indistinguishable).
    """
    for rule in (*ORDER_RULES, NAME_RULE):
        ka, kb = rule.key(a), rule.key(b)
        if ka != kb:
            return rule.id if ka < kb else None
    return None


def sort_active_pods(pods: Iterable[Pod]) -> list[Pod]:
    """``pods`` in deletion order (first = deleted first); mirrors ``sort.Sort(controller.ActivePods(pods))``."""
    return sorted(pods, key=active_pods_sort_key)


# --------------------------------------------------------------------------------------
# activePodsForRemoval + appendDuplicatedIndexPodsForRemoval
# --------------------------------------------------------------------------------------

PRESTEP_RULES: dict[str, str] = {
    "no-index": N_("no valid completion index"),
    "index-out-of-range": N_("index {index} is out of range for completions {completions}"),
    "duplicate-index": N_("duplicate index {index}"),
}
"""Indexed Jobs remove these pods before anything else, whatever the number to remove (English,
marked: show with ``_(...).format(index=..., completions=...)``)."""

ALL_REMAINING = "all"
"""The pseudo rule of a pod removed because every remaining pod had to go."""

WHY_SENTENCES: dict[str, str] = {**RULE_SENTENCES, **PRESTEP_RULES,
                                 ALL_REMAINING: N_("every remaining pod had to go")}
"""Every reason a removal can have (deletion-order rules, pre-steps, ``all``) -> its sentence."""


def why_sentence(rule_id: str, numbers: dict[str, Any] | None = None) -> str:
    """The sentence of a removal reason in the current language (``numbers`` fill a pre-step's)."""
    text = WHY_SENTENCES.get(rule_id)
    return rule_id if text is None else _(text).format_map(numbers or {})


def _prestep_entry(pod: Pod, rule_id: str, index: int, completions: int) -> tuple[Pod, str, str]:
    return pod, rule_id, why_sentence(rule_id, {"index": index, "completions": completions})


def _append_duplicated_index_pods_for_removal(
    pods: Sequence[Pod], completions: int
) -> tuple[list[tuple[Pod, str, str]], list[Pod]]:
    """Split an Indexed Job's active pods into (removals with their rule, pods left).

    Mirrors ``appendDuplicatedIndexPodsForRemoval`` in indexed_job_utils.go: pods without a
    valid index and pods with index >= completions are removed; of several pods sharing an
    index, all but the last in deletion order are removed. Removals come in upstream's
    order (by index; the out-of-range pods are appended before the duplicates of the last
    in-range index). Within one index pods are taken in deletion order, so the result does
    not depend on the input order.
    """
    from k8sjobs.controller.indexed_job_utils import get_completion_index

    def index_of(p: Pod) -> int:
        return get_completion_index(p.metadata.annotations)

    # Sorted by (index, deletion order): the deletion order is computed only where an index has
    # more than one pod (the sorts are stable, so equal pods keep their input order either way).
    by_index = sorted(pods, key=index_of)
    ordered = []
    for _ix, members in itertools.groupby(by_index, key=index_of):
        group = list(members)
        ordered.extend(sorted(group, key=active_pods_sort_key) if len(group) > 1 else group)
    rm: list[tuple[Pod, str, str]] = []
    left: list[Pod] = []

    def flush(group: list[Pod], ix: int) -> None:
        if ix == -1:
            rm.extend(_prestep_entry(p, "no-index", ix, completions) for p in group)
        elif len(group) == 1:
            left.append(group[0])
        else:
            # The group is already in deletion order: keep the last, the most advanced pod.
            rm.extend(_prestep_entry(p, "duplicate-index", ix, completions) for p in group[:-1])
            left.append(group[-1])

    pending: tuple[list[Pod], int] | None = None
    for ix, members in itertools.groupby(ordered, key=index_of):
        group = list(members)
        if ix >= completions:
            # Everything from here on is out of range (the list is sorted by index).
            rest = [p for p in ordered if index_of(p) >= completions]
            rm.extend(_prestep_entry(p, "index-out-of-range", index_of(p), completions) for p in rest)
            break
        if pending is not None:
            flush(*pending)
        pending = (group, ix)
    if pending is not None:
        flush(*pending)
    return rm, left


def _split_for_removal(job: Job, pods: Sequence[Pod]) -> tuple[list[tuple[Pod, str, str]], list[Pod]]:
    from k8sjobs.controller.indexed_job_utils import is_indexed_job

    if is_indexed_job(job):
        return _append_duplicated_index_pods_for_removal(pods, job.spec.completions or 0)
    return [], list(pods)


def active_pods_for_removal(job: Job, pods: Sequence[Pod], rm_at_least: int) -> list[Pod]:
    """The active pods to delete; mirrors ``activePodsForRemoval`` in job_controller.go.

    ``pods`` are the Job's ACTIVE pods. Indexed Jobs first remove, whatever ``rm_at_least``
    says, pods with a missing/invalid/negative index, pods with index >= completions, and
    all but one pod of each duplicated index. If that is fewer than ``rm_at_least``, the
    rest are taken in deletion order (:func:`active_pods_sort_key`): unassigned before
    assigned, Pending before Unknown before Running, not-ready before ready, and so on.
    """
    prestep, left = _split_for_removal(job, pods)
    rm = [p for p, _, _ in prestep]
    if len(rm) < rm_at_least:
        rm.extend(sort_active_pods(left)[: rm_at_least - len(rm)])
    return rm


@dataclass(frozen=True, slots=True)
class RemovalPlan:
    """Why :func:`active_pods_for_removal` picks the pods it picks, for lessons and traces.

    * ``to_delete``: the pods deleted, in order (the same list as ``active_pods_for_removal``).
    * ``prestep``: ``(pod_name, rule_id, sentence)`` for each Indexed pre-step removal.
    * ``ranking``: the remaining candidates in deletion order (first = deleted first).
    * ``pair_rules``: for each adjacent pair of ``ranking``, the id of the rule that orders them.
    * ``why``: pod name -> (the rule that picked it, its numbers): language-neutral.
    * ``reasons``: pod name -> a sentence saying why that pod was picked (current language).
    """

    to_delete: tuple[Pod, ...]
    prestep: tuple[tuple[str, str, str], ...]
    ranking: tuple[Pod, ...]
    pair_rules: tuple[str | None, ...]
    why: dict[str, tuple[str, dict[str, Any]]]

    @property
    def reasons(self) -> dict[str, str]:
        """Pod name -> ``"deleted: <why>"`` in the current language."""
        return {name: _("deleted: {why}").format(why=why_sentence(rule, numbers))
                for name, (rule, numbers) in self.why.items()}

    @property
    def deleted_names(self) -> list[str]:
        """Names of ``to_delete``, in deletion order."""
        return [p.metadata.name for p in self.to_delete]

    @property
    def order(self) -> list[Pod]:
        """Every pod in the order it would go if more and more had to be removed."""
        return [*self.to_delete[: len(self.prestep)], *self.ranking]

    def to_text(self) -> str:
        """A stable, readable explanation: one line per pod, in deletion order."""
        lines = []
        for name, _rule, sentence in self.prestep:
            lines.append(_("{pod}: deleted first: {why}").format(pod=name, why=sentence))
        picked = {p.metadata.name for p in self.to_delete}
        reasons = self.reasons
        for i, pod in enumerate(self.ranking):
            name = pod.metadata.name
            verdict = reasons[name] if name in picked else _("kept")
            # TRANSLATORS: {rule} is the id of a deletion-order rule (e.g. not-ready-first), kept in English.
            rule = _("  [before next: {rule}]").format(rule=self.pair_rules[i]) if i < len(self.pair_rules) else ""
            lines.append(f"{name}: {verdict}{rule}")
        return "\n".join(lines)


def plan_removal(job: Job, pods: Sequence[Pod], rm_at_least: int) -> RemovalPlan:
    """:func:`active_pods_for_removal` with its reasons (see :class:`RemovalPlan`)."""
    from k8sjobs.controller.indexed_job_utils import get_completion_index

    prestep, left = _split_for_removal(job, pods)
    ranking = sort_active_pods(left)
    need = max(rm_at_least - len(prestep), 0)
    picked = ranking[:need]
    why: dict[str, tuple[str, dict[str, Any]]] = {}
    for p, rule_id, _sentence in prestep:
        why[p.metadata.name] = (rule_id, {"index": get_completion_index(p.metadata.annotations),
                                          "completions": job.spec.completions or 0})
    first_kept = ranking[need] if need < len(ranking) else None
    for pod in picked:
        if first_kept is None:
            why[pod.metadata.name] = (ALL_REMAINING, {})
        else:
            why[pod.metadata.name] = (deciding_rule(pod, first_kept) or "name", {})
    return RemovalPlan(
        to_delete=tuple([p for p, _, _ in prestep] + picked),
        prestep=tuple((p.metadata.name, rule_id, sentence) for p, rule_id, sentence in prestep),
        ranking=tuple(ranking),
        pair_rules=tuple(deciding_rule(a, b) for a, b in itertools.pairwise(ranking)),
        why=why,
    )
