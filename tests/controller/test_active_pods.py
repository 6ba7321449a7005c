"""Active, ready and terminating pods, and the order in which the Job controller deletes them.

Each deletion rule of ``ActivePods.Less`` has its own pair cases (the first pod must go first,
for the named reason), beyond the shared ordering cases; then the Indexed pre-step of
``activePodsForRemoval``, the teaching plan, and two properties: the sort key is a total order
that agrees with ORDER_RULES, and with a literal transcription of the upstream comparator.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest
from builders import T0, job, on_exit_codes, pod, policy
from hypothesis import given
from hypothesis import strategies as st

from k8sjobs.api.types import POD_DELETION_COST_ANNOTATION, Phase, PodReplacementPolicy
from k8sjobs.controller.controller_utils import (
    ORDER_RULES,
    active_pods_sort_key,
    deciding_rule,
    max_container_restarts,
    ready_since,
    sort_active_pods,
)
from k8sjobs.controller.job.indexed_job_utils import PRESTEP_RULE_IDS
from k8sjobs.controller.job.job_controller import ALL_REMAINING, active_pods_for_removal, plan_removal
from k8sjobs.controller.pod_util import (
    count_ready_pods,
    count_terminating_pods,
    filter_active_pods,
    is_pod_active,
    is_pod_failed,
    is_pod_ready,
    is_pod_terminating,
)
from k8sjobs.trace.reasons import (
    ORDER_RULE_SENTENCES,
    WHY_SENTENCES,
    removal_reasons,
    removal_text,
    why_sentence,
)

# ----------------------------------------------------------------------------------------
# Classification
# ----------------------------------------------------------------------------------------

CLASSIFICATION = [
    pytest.param(pod().pending(), True, False, id="a pending pod is active"),
    pytest.param(pod().running(), True, False, id="a running pod is active"),
    pytest.param(pod().phase(Phase.UNKNOWN), True, False, id="a pod in Unknown phase is active"),
    pytest.param(pod().succeeded(), False, False, id="a succeeded pod is neither active nor terminating"),
    pytest.param(pod().failed(), False, False, id="a failed pod is neither active nor terminating"),
    pytest.param(pod().running().deleting(), False, True, id="a running pod being deleted is terminating, not active"),
    pytest.param(pod().pending().deleting(), False, True, id="a pending pod being deleted is terminating"),
    pytest.param(pod().failed().deleting(), False, False, id="a failed pod being deleted is terminal, not terminating"),
    pytest.param(pod().succeeded().deleting(), False, False, id="a succeeded pod being deleted is terminal, not terminating"),
]


@pytest.mark.parametrize(("builder", "active", "terminating"), CLASSIFICATION)
def test_pod_classification(builder, active, terminating):
    p = builder.build()
    assert (is_pod_active(p), is_pod_terminating(p)) == (active, terminating)


def test_filters_and_counts_keep_input_order():
    pods = [pod("a").build(), pod("b").failed().build(), pod("c").deleting().build(), pod("d").pending().build()]
    assert [p.metadata.name for p in filter_active_pods(pods)] == ["a", "d"]
    assert count_terminating_pods(pods) == 1


READINESS = [
    pytest.param(pod().ready(T0), True, T0, id="a Ready=True pod is ready since its transition time"),
    pytest.param(pod().ready(None), True, None, id="a ready pod with an unset transition time is ready since the zero time"),
    pytest.param(pod().not_ready(T0), False, None, id="a Ready=False pod is not ready"),
    pytest.param(pod(), False, None, id="a pod without a Ready condition is not ready"),
    pytest.param(pod().not_ready(T0).ready(T0 - 5), False, None, id="only the first Ready condition counts"),
]


@pytest.mark.parametrize(("builder", "ready", "since"), READINESS)
def test_readiness(builder, ready, since):
    p = builder.build()
    assert (is_pod_ready(p), ready_since(p)) == (ready, since)


def test_count_ready_pods():
    assert count_ready_pods([pod().ready(T0).build(), pod().not_ready().build(), pod().ready().build()]) == 2


RESTARTS = [
    pytest.param(pod().restarts(3, 0), (3, 0), id="the maximum over regular containers is taken, not the sum"),
    pytest.param(pod().restarts(1).sidecar_restarts(4, 2), (1, 4), id="sidecar restarts are counted apart"),
    pytest.param(pod().restarts(1).init_restarts(9), (1, 0), id="ordinary init containers are ignored"),
    pytest.param(pod(), (0, 0), id="a pod without statuses has no restarts"),
]


@pytest.mark.parametrize(("builder", "expected"), RESTARTS)
def test_max_container_restarts(builder, expected):
    assert max_container_restarts(builder.build()) == expected


FAILED = [
    pytest.param(pod().failed(), None, True, id="a Failed pod is failed"),
    pytest.param(pod().running().deleting(), None, True,
                 id="a terminating pod is failed when podReplacementPolicy is TerminatingOrFailed (default)"),
    pytest.param(pod().running().deleting(), PodReplacementPolicy.FAILED, False,
                 id="a terminating pod is not failed when podReplacementPolicy is Failed"),
    pytest.param(pod().succeeded().deleting(), None, False, id="a Succeeded pod being deleted is not failed"),
    pytest.param(pod().running(), None, False, id="a running pod is not failed"),
]


@pytest.mark.parametrize(("builder", "replacement", "failed"), FAILED)
def test_is_pod_failed(builder, replacement, failed):
    assert is_pod_failed(builder.build(), job(pod_replacement_policy=replacement)) is failed


def test_an_unset_replacement_policy_reads_as_failed_when_a_pod_failure_policy_is_set():
    j = job(pod_replacement_policy=None, pod_failure_policy=policy(on_exit_codes("Ignore", "In", 1)))
    assert is_pod_failed(pod().running().deleting().build(), j) is False


# ----------------------------------------------------------------------------------------
# The deletion order, one rule at a time: `first` must be deleted before `second`.
# ----------------------------------------------------------------------------------------

OLD, MID, NEW = T0 - 3000, T0 - 2000, T0 - 1000

PAIRS = [
    pytest.param(pod("a").unscheduled().pending().created(OLD), pod("b").pending().created(NEW), "unassigned-first",
                 id="an unassigned pod is deleted before an assigned one, even when older"),
    pytest.param(pod("a").on("n2").pending().created(NEW), pod("b").on("n1").pending().created(OLD), "newer-first",
                 id="two pods on different nodes are not ordered by their node"),
    pytest.param(pod("a").pending(), pod("b").phase(Phase.UNKNOWN), "earlier-phase-first",
                 id="a pending pod is deleted before one in Unknown phase"),
    pytest.param(pod("a").phase(Phase.UNKNOWN), pod("b").running(), "earlier-phase-first",
                 id="a pod in Unknown phase is deleted before a running one"),
    pytest.param(pod("a").pending(), pod("b").running().ready(T0), "earlier-phase-first",
                 id="a pending pod is deleted before a running one"),
    pytest.param(pod("a").phase("").created(NEW), pod("b").pending().created(OLD), "newer-first",
                 id="an empty phase ranks like Pending"),
    pytest.param(pod("a").running().not_ready(), pod("b").running().ready(T0), "not-ready-first",
                 id="a pod that is not ready is deleted before a ready one"),
    pytest.param(pod("a").running().ready(T0 - 10), pod("b").running().ready(T0 - 500), "recently-ready-first",
                 id="of two ready pods the one ready for less time is deleted first"),
    pytest.param(pod("a").running().ready(None), pod("b").running().ready(T0), "recently-ready-first",
                 id="a ready pod with an unset ready time is deleted before one that became ready now"),
    pytest.param(pod("a").running().not_ready(OLD).created(NEW), pod("b").running().not_ready(NEW).created(OLD),
                 "newer-first", id="ready times do not order two pods that are not ready"),
    pytest.param(pod("a").running().ready(T0).restarts(0, 3), pod("b").running().ready(T0).restarts(2, 2),
                 "more-restarts-first", id="the pod with the highest single container restart count goes first"),
    pytest.param(pod("a").running().ready(T0).restarts(1).sidecar_restarts(5),
                 pod("b").running().ready(T0).restarts(1).sidecar_restarts(0), "more-sidecar-restarts-first",
                 id="with equal container restarts more sidecar restarts go first"),
    pytest.param(pod("a").running().ready(T0).restarts(2).sidecar_restarts(0),
                 pod("b").running().ready(T0).restarts(1).sidecar_restarts(9), "more-restarts-first",
                 id="regular container restarts outrank sidecar restarts"),
    pytest.param(pod("a").running().ready(T0).init_restarts(0).created(NEW),
                 pod("b").running().ready(T0).init_restarts(7).created(OLD), "newer-first",
                 id="ordinary init container restarts are ignored"),
    pytest.param(pod("a").running().ready(T0).created(NEW), pod("b").running().ready(T0).created(OLD), "newer-first",
                 id="with everything else equal the newer pod is deleted first"),
    pytest.param(pod("a").running().ready(T0).created(None), pod("b").running().ready(T0).created(NEW), "newer-first",
                 id="a pod with an unset creation time is deleted before any other"),
    pytest.param(pod("a").running().ready(T0).created(NEW).annotation(POD_DELETION_COST_ANNOTATION, "1000"),
                 pod("b").running().ready(T0).created(OLD).annotation(POD_DELETION_COST_ANNOTATION, "-1000"),
                 "newer-first", id="the pod-deletion-cost annotation is ignored"),
    pytest.param(pod("a").running().ready(T0 - 5).created(OLD), pod("b").running().ready(T0 - 50).created(NEW),
                 "recently-ready-first", id="ready time outranks creation time"),
    pytest.param(pod("a").running().ready(T0), pod("b").running().ready(T0), "name",
                 id="pods equal on every rule are ordered by name"),
]


@pytest.mark.parametrize(("first", "second", "rule"), PAIRS)
def test_deletion_order_pair(first, second, rule):
    a, b = first.build(), second.build()
    assert active_pods_sort_key(a) < active_pods_sort_key(b)
    assert deciding_rule(a, b) == rule
    assert deciding_rule(b, a) is None
    assert [p.metadata.name for p in sort_active_pods([b, a])] == ["a", "b"]


def test_every_rule_has_a_sentence_and_a_unique_id():
    ids = [r.id for r in ORDER_RULES]
    assert len(set(ids)) == len(ids)
    assert set(ORDER_RULE_SENTENCES) == {*ids, "name"}
    assert ORDER_RULE_SENTENCES["unassigned-first"] == "unassigned pods go first"


def test_every_indexed_pre_step_and_all_has_a_sentence():
    assert set(WHY_SENTENCES) == {*ORDER_RULE_SENTENCES, *PRESTEP_RULE_IDS, ALL_REMAINING}
    assert why_sentence("index-out-of-range", {"index": 7, "completions": 5}) == (
        "index 7 is out of range for completions 5")


def test_a_pod_is_not_before_itself():
    p = pod().build()
    assert deciding_rule(p, p) is None


# ----------------------------------------------------------------------------------------
# activePodsForRemoval
# ----------------------------------------------------------------------------------------


def _names(pods):
    return [p.metadata.name for p in pods]


def _three_running():
    return [
        pod("p-old").running().ready(T0 - 300).created(T0 - 400).build(),
        pod("p-mid").running().ready(T0 - 200).created(T0 - 300).build(),
        pod("p-new").running().ready(T0 - 100).created(T0 - 200).build(),
    ]


REMOVALS = [
    pytest.param(job(indexed=False), _three_running(), 2, ["p-new", "p-mid"],
                 id="a NonIndexed job removes the first pods in deletion order"),
    pytest.param(job(indexed=False), _three_running(), 0, [],
                 id="a NonIndexed job removes nothing when nothing is surplus"),
    pytest.param(job(indexed=False), _three_running(), 3, ["p-new", "p-mid", "p-old"],
                 id="removing every pod takes them all in deletion order"),
    pytest.param(job(completions=3), [pod("a").index(0).build(), pod("b").index(1).build(), pod("x").build()], 0, ["x"],
                 id="an Indexed pod without an index is removed even when nothing is surplus"),
    pytest.param(job(completions=3), [pod("a").index(0).build(), pod("b").index("01").build(),
                                      pod("x").index("1.0").build(), pod("y").index("-1").build()], 0, ["x", "y"],
                 id="invalid and negative indexes count as missing while leading zeros are valid"),
    pytest.param(job(completions=2), [pod("a").index(0).build(), pod("b").index(1).build(),
                                      pod("c").index(2).build(), pod("d").index(5).build()], 0, ["c", "d"],
                 id="Indexed pods with an index at or above completions are removed"),
    pytest.param(job(completions=3), [pod("keep").index(1).running().ready(T0 - 100).build(),
                                      pod("dup").index(1).pending().build(), pod("z").index(0).build()], 0, ["dup"],
                 id="of two pods with the same index the one first in deletion order goes"),
    pytest.param(job(completions=3), [pod("a").index(1).running().ready(T0).build(),
                                      pod("b").index(1).running().ready(T0).build(),
                                      pod("c").index(1).running().ready(T0).build()], 0, ["a", "b"],
                 id="all but the last pod of a duplicated index are removed"),
    pytest.param(job(completions=4), [pod("dup").index(0).pending().build(), pod("i0").index(0).ready(T0).build(),
                                      pod("i1").index(1).ready(T0 - 10).build(),
                                      pod("i2").index(2).ready(T0 - 20).build()], 2, ["dup", "i0"],
                 id="after the pre-step the rest are taken in deletion order to reach the count"),
    pytest.param(job(completions=4), [pod("x").build(), pod("y").build(), pod("i0").index(0).build()], 1, ["x", "y"],
                 id="the pre-step may remove more pods than asked for"),
]


@pytest.mark.parametrize(("j", "pods", "rm_at_least", "expected"), REMOVALS)
def test_active_pods_for_removal(j, pods, rm_at_least, expected):
    assert _names(active_pods_for_removal(j, pods, rm_at_least)) == expected
    assert _names(plan_removal(j, pods, rm_at_least).to_delete) == expected


def test_the_indexed_pre_step_follows_upstream_order():
    # Pods without an index first, then (by index) duplicates, the out-of-range pods,
    # and last the duplicates of the highest in-range index, as upstream appends them.
    j = job(completions=3)
    pods = [
        pod("over").index(7).build(),
        pod("dup2").index(2).pending().build(), pod("keep2").index(2).build(),
        pod("dup0").index(0).pending().build(), pod("keep0").index(0).build(),
        pod("none").build(),
    ]
    assert _names(active_pods_for_removal(j, pods, 0)) == ["none", "dup0", "over", "dup2"]


def test_removal_does_not_depend_on_input_order():
    j = job(completions=3)
    pods = [pod(f"p{i}").index(i % 4).phase([Phase.PENDING, Phase.RUNNING][i % 2]).build() for i in range(8)]
    expected = _names(active_pods_for_removal(j, pods, 5))
    rng = random.Random(7)
    for _ in range(10):
        shuffled = pods[:]
        rng.shuffle(shuffled)
        assert _names(active_pods_for_removal(j, shuffled, 5)) == expected


# ----------------------------------------------------------------------------------------
# plan_removal (teaching)
# ----------------------------------------------------------------------------------------


def test_plan_explains_the_pre_step_and_the_ranking():
    j = job(completions=5)
    pods = [
        pod("none").build(),
        pod("big").index(7).build(),
        pod("dup").index(3).pending().build(),
        pod("i3").index(3).ready(T0).build(),
        pod("unsched").index(0).unscheduled().pending().build(),
        pod("i1").index(1).ready(T0).build(),
    ]
    plan = plan_removal(j, pods, 4)
    assert plan.prestep == (("none", "no-index"), ("big", "index-out-of-range"), ("dup", "duplicate-index"))
    assert plan.why["big"] == ("index-out-of-range", {"index": 7, "completions": 5})
    assert _names(plan.ranking) == ["unsched", "i1", "i3"]
    assert plan.pair_rules == ("unassigned-first", "name")
    assert plan.deleted_names == ["none", "big", "dup", "unsched"]
    assert removal_reasons(plan) == {
        "none": "deleted: no valid completion index",
        "dup": "deleted: duplicate index 3",
        "big": "deleted: index 7 is out of range for completions 5",
        "unsched": "deleted: unassigned pods go first",
    }
    assert _names(plan.order) == ["none", "big", "dup", "unsched", "i1", "i3"]
    assert removal_text(plan).splitlines() == [
        "none: deleted first: no valid completion index",
        "big: deleted first: index 7 is out of range for completions 5",
        "dup: deleted first: duplicate index 3",
        "unsched: deleted: unassigned pods go first  [before next: unassigned-first]",
        "i1: kept  [before next: name]",
        "i3: kept",
    ]


def test_plan_reason_names_the_rule_against_the_first_kept_pod():
    pods = [pod("pending").pending().build(), pod("running").running().ready(T0).build()]
    plan = plan_removal(job(indexed=False), pods, 1)
    assert removal_reasons(plan) == {"pending": "deleted: Pending pods go before Unknown ones, Unknown before Running"}


def test_plan_when_every_pod_must_go():
    plan = plan_removal(job(indexed=False), [pod("a").build()], 1)
    assert removal_reasons(plan) == {"a": "deleted: every remaining pod had to go"}


# ----------------------------------------------------------------------------------------
# Properties
# ----------------------------------------------------------------------------------------

_times = st.sampled_from([None, T0 - 30, T0 - 20, T0 - 10])
_counts = st.lists(st.integers(0, 3), max_size=3)


@st.composite
def pods(draw, name: str):
    b = pod(name).on(draw(st.sampled_from(["", "n1", "n2"])))
    b.phase(draw(st.sampled_from([Phase.PENDING, Phase.UNKNOWN, Phase.RUNNING, ""])))
    if draw(st.booleans()):
        b.ready(draw(_times))
    elif draw(st.booleans()):
        b.not_ready(draw(_times))
    b.restarts(*draw(_counts)).sidecar_restarts(*draw(_counts)).init_restarts(*draw(_counts))
    return b.created(draw(_times)).build()


def _after_or_zero(t1, t2):
    if t1 is None or t2 is None:
        return t1 is None
    return t1 > t2


def _upstream_less(a, b) -> bool:
    """ActivePods.Less, transcribed step by step as upstream states it (independent of the key)."""
    na, nb = a.spec.node_name, b.spec.node_name
    if na != nb and (na == "" or nb == ""):
        return na == ""
    rank = {Phase.PENDING: 0, Phase.UNKNOWN: 1, Phase.RUNNING: 2}
    ra, rb = rank.get(a.status.phase, 0), rank.get(b.status.phase, 0)
    if ra != rb:
        return ra < rb
    if is_pod_ready(a) != is_pod_ready(b):
        return not is_pod_ready(a)
    if is_pod_ready(a) and is_pod_ready(b) and ready_since(a) != ready_since(b):
        return _after_or_zero(ready_since(a), ready_since(b))

    def restarts(p):
        sidecars = {c.name for c in p.spec.init_containers or () if c.restart_policy == "Always"}
        regular = max([s.restart_count for s in p.status.container_statuses] or [0])
        side = max([s.restart_count for s in p.status.init_container_statuses if s.name in sidecars] or [0])
        return regular, side

    (xa, ya), (xb, yb) = restarts(a), restarts(b)
    if xa != xb:
        return xa > xb
    if ya != yb:
        return ya > yb
    ca, cb = a.metadata.creation_timestamp, b.metadata.creation_timestamp
    if ca != cb:
        return _after_or_zero(ca, cb)
    return False


@given(pods("a"), pods("b"))
def test_the_sort_key_agrees_with_the_upstream_comparator(a, b):
    ka, kb = active_pods_sort_key(a), active_pods_sort_key(b)
    if _upstream_less(a, b):
        assert ka < kb
    elif _upstream_less(b, a):
        assert kb < ka
    else:
        assert ka[:-1] == kb[:-1]  # upstream ties; only our name tie-break separates them


@given(pods("a"), pods("b"))
def test_exactly_one_pod_goes_first_and_the_deciding_rule_says_why(a, b):
    ab, ba = deciding_rule(a, b), deciding_rule(b, a)
    assert (ab is None) != (ba is None)
    assert (ab is not None) == (active_pods_sort_key(a) < active_pods_sort_key(b))
    rule = ab or ba
    index = [r.id for r in ORDER_RULES].index(rule) if rule != "name" else len(ORDER_RULES)
    ka, kb = active_pods_sort_key(a), active_pods_sort_key(b)
    assert ka[:index] == kb[:index] and ka[index] != kb[index]


@given(pods("a"), pods("b"), pods("c"))
def test_the_deletion_order_is_transitive(a, b, c):
    for x, y, z in itertools.permutations((a, b, c)):
        if deciding_rule(x, y) and deciding_rule(y, z):
            assert deciding_rule(x, z)


@given(st.lists(pods("p"), min_size=1, max_size=6), st.randoms(use_true_random=False))
def test_sorting_does_not_depend_on_input_order(candidates, rng):
    named = [replace(p, metadata=replace(p.metadata, name=f"p{i}")) for i, p in enumerate(candidates)]
    shuffled = named[:]
    rng.shuffle(shuffled)
    assert _names(sort_active_pods(shuffled)) == _names(sort_active_pods(named))
