"""Whether an Indexed Job's spec.successPolicy is met.

Mirrors pkg/controller/job/success_policy.go (Kubernetes 1.35; JobSuccessPolicy is GA). Rules
are tried in order and the first satisfied rule wins; the policy is never met while no index
has succeeded.

* ``succeededIndexes`` only: every listed index succeeded.
* ``succeededIndexes`` and ``succeededCount``: all listed indexes succeeded, or at least
  ``succeededCount`` of them did.
* ``succeededCount`` only: at least that many indexes succeeded in total.

``succeededIndexes`` is parsed leniently against completions, like status.completedIndexes;
a rule whose list parses to nothing is skipped.
"""

from __future__ import annotations

from k8sjobs.api.types import ConditionStatus, Job, JobCondition, JobConditionType, SuccessPolicy
from k8sjobs.controller.job.indexed_job_utils import OrderedIntervals, parse_indexes_from_string

RULES_MATCHED_MESSAGE = "Matched rules at index {index}"
"""Message of the SuccessCriteriaMet/Complete conditions written for a matched rule."""


def match_succeeded_indexes_rule(
    rule_indexes: OrderedIntervals, succeeded_indexes: OrderedIntervals, succeeded_count: int | None
) -> bool:
    """Whether enough of ``rule_indexes`` succeeded; mirrors ``matchSucceededIndexesRule``.

    Walks both run lists side by side, adding up their overlaps: the rule holds when every
    listed index is covered, or when ``succeeded_count`` is set and reached.
    """
    rules, done = rule_indexes.intervals, succeeded_indexes.intervals
    contains = r = s = 0
    while r < len(rules) and s < len(done):
        overlap = min(rules[r].last, done[s].last) - max(rules[r].first, done[s].first) + 1
        if overlap > 0:
            contains += overlap
        # Advance whichever run ends first (both when they end together).
        if done[s].last < rules[r].last:
            s += 1
        elif done[s].last > rules[r].last:
            r += 1
        else:
            s += 1
            r += 1
    return contains == rule_indexes.total() or (succeeded_count is not None and contains >= succeeded_count)


def match_success_policy(
    success_policy: SuccessPolicy | None, completions: int, succeeded_indexes: OrderedIntervals
) -> tuple[bool, str]:
    """(met, message) for the Job's succeeded indexes; mirrors ``matchSuccessPolicy``.

    The message is "Matched rules at index <i>" for the first satisfied rule, "" when the
    policy is not met.
    """
    if success_policy is None or len(succeeded_indexes) == 0:
        return False, ""
    for index, rule in enumerate(success_policy.rules):
        if rule.succeeded_indexes is not None:
            required = parse_indexes_from_string(rule.succeeded_indexes, completions)
            if len(required) == 0:
                continue  # the list did not parse to anything (for example a bad format).
            if match_succeeded_indexes_rule(required, succeeded_indexes, rule.succeeded_count):
                return True, RULES_MATCHED_MESSAGE.format(index=index)
        elif rule.succeeded_count is not None and succeeded_indexes.total() >= rule.succeeded_count:
            return True, RULES_MATCHED_MESSAGE.format(index=index)
    return False, ""


def is_success_criteria_met_condition(condition: JobCondition | None) -> bool:
    """A SuccessCriteriaMet=True condition; mirrors ``isSuccessCriteriaMetCondition``."""
    return (
        condition is not None
        and condition.type == JobConditionType.SUCCESS_CRITERIA_MET
        and condition.status == ConditionStatus.TRUE
    )


def has_success_criteria_met_condition(job: Job) -> JobCondition | None:
    """The Job's SuccessCriteriaMet condition if it is True; mirrors ``hasSuccessCriteriaMetCondition``.

    Like ``findConditionByType``, only the first condition of that type is looked at.
    """
    for condition in job.status.conditions:
        if condition.type == JobConditionType.SUCCESS_CRITERIA_MET:
            return condition if condition.status == ConditionStatus.TRUE else None
    return None
