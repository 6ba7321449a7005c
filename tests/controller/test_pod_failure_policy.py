"""Matching failed pods against spec.podFailurePolicy (upstream pod_failure_policy.go)."""

from __future__ import annotations

import pytest
from builders import on_conditions, on_exit_codes, pod, policy

from k8sjobs.api.types import ConditionStatus, PodConditionType, PodFailurePolicyRule
from k8sjobs.controller.job.pod_failure_policy import match_pod_failure_policy

FAIL_JOB, FAIL_INDEX, IGNORE, COUNT = "FailJob", "FailIndex", "Ignore", "Count"
DISRUPTED = (PodConditionType.DISRUPTION_TARGET, ConditionStatus.TRUE)

CASES = [
    pytest.param(None, pod("p").failed().exit_code(1), (None, True, None),
                 id="without a policy every failure counts"),
    pytest.param(policy(on_exit_codes(FAIL_JOB, "In", 42)), pod("p").failed().exit_code(42),
                 ("Container main for pod default/p failed with exit code 42 matching FailJob rule at index 0",
                  True, FAIL_JOB), id="a FailJob exit-code rule gives the upstream message"),
    pytest.param(policy(on_exit_codes(FAIL_JOB, "In", 42)), pod("p").failed().exit_code(1), (None, True, None),
                 id="an exit code outside In does not match"),
    pytest.param(policy(on_exit_codes(COUNT, "NotIn", 1, 2)), pod("p").failed().exit_code(3), (None, True, COUNT),
                 id="NotIn matches any other non-zero exit code"),
    pytest.param(policy(on_exit_codes(IGNORE, "NotIn", 1)), pod("p").failed().exit_code(0), (None, True, None),
                 id="exit code 0 never matches"),
    pytest.param(policy(on_exit_codes(IGNORE, "In", 5, container="side")),
                 pod("p").failed().exit_code(5, name="main"), (None, True, None),
                 id="a rule naming another container does not match"),
    pytest.param(policy(on_exit_codes(FAIL_JOB, "In", 5, container="side")),
                 pod("p").failed().exit_code(5, name="main").exit_code(5, name="side"),
                 ("Container side for pod default/p failed with exit code 5 matching FailJob rule at index 0",
                  True, FAIL_JOB), id="containerName picks the named container"),
    pytest.param(policy(on_exit_codes(FAIL_JOB, "In", 7)),
                 pod("p").failed().container("setup", exit_code=7, finished_at=0, init=True),
                 ("Container setup for pod default/p failed with exit code 7 matching FailJob rule at index 0",
                  True, FAIL_JOB), id="init containers are checked too"),
    pytest.param(policy(on_exit_codes(FAIL_JOB, "In", 7, 9)),
                 pod("p").failed().container("setup", exit_code=7, finished_at=0, init=True).exit_code(9),
                 ("Container main for pod default/p failed with exit code 9 matching FailJob rule at index 0",
                  True, FAIL_JOB), id="regular containers are checked before init containers"),
    pytest.param(policy(on_exit_codes(FAIL_JOB, "In", 3)),
                 pod("p").failed().container("r", running=True).exit_code(3, name="b"),
                 ("Container b for pod default/p failed with exit code 3 matching FailJob rule at index 0",
                  True, FAIL_JOB), id="containers that have not terminated are skipped"),
    pytest.param(policy(on_exit_codes(IGNORE, "In", 1), on_exit_codes(FAIL_JOB, "In", 1)),
                 pod("p").failed().exit_code(1), (None, False, IGNORE),
                 id="the first matching rule wins and Ignore does not count"),
    pytest.param(policy(on_exit_codes(COUNT, "In", 2), on_exit_codes(FAIL_JOB, "In", 1)),
                 pod("p").failed().exit_code(1),
                 ("Container main for pod default/p failed with exit code 1 matching FailJob rule at index 1",
                  True, FAIL_JOB), id="the message names the index of the matching rule"),
    pytest.param(policy(on_exit_codes(FAIL_INDEX, "In", 1)), pod("p").failed().exit_code(1), (None, True, FAIL_INDEX),
                 id="FailIndex counts and reports its action"),
    pytest.param(policy(on_exit_codes(FAIL_JOB, "Between", 1)), pod("p").failed().exit_code(1), (None, True, None),
                 id="an unknown operator never matches"),
    pytest.param(policy(on_conditions(IGNORE, DISRUPTED)),
                 pod("p").failed().condition(PodConditionType.DISRUPTION_TARGET), (None, False, IGNORE),
                 id="a DisruptionTarget condition is ignored by an Ignore rule"),
    pytest.param(policy(on_conditions(FAIL_JOB, DISRUPTED)),
                 pod("p").failed().condition(PodConditionType.DISRUPTION_TARGET),
                 ("Pod default/p has condition DisruptionTarget matching FailJob rule at index 0", True, FAIL_JOB),
                 id="a FailJob condition rule gives the upstream message"),
    pytest.param(policy(on_conditions(FAIL_JOB, DISRUPTED)),
                 pod("p").failed().condition(PodConditionType.DISRUPTION_TARGET, ConditionStatus.FALSE),
                 (None, True, None), id="a condition with another status does not match"),
    pytest.param(policy(on_conditions(FAIL_JOB, ("ResourceLimitExceeded", "True"), DISRUPTED)),
                 pod("p").failed().condition("Ready", "False").condition(PodConditionType.DISRUPTION_TARGET),
                 ("Pod default/p has condition DisruptionTarget matching FailJob rule at index 0", True, FAIL_JOB),
                 id="any pattern of a rule may match"),
    pytest.param(policy(PodFailurePolicyRule(action="Retry", on_exit_codes=on_exit_codes(COUNT, "In", 1).on_exit_codes),
                        on_exit_codes(COUNT, "In", 1)),
                 pod("p").failed().exit_code(1), (None, True, COUNT), id="a rule with an unknown action is passed over"),
    pytest.param(policy(PodFailurePolicyRule(action=FAIL_JOB)), pod("p").failed().exit_code(1), (None, True, None),
                 id="a rule without a requirement never matches"),
]


@pytest.mark.parametrize(("pfp", "builder", "expected"), CASES)
def test_match_pod_failure_policy(pfp, builder, expected):
    assert match_pod_failure_policy(pfp, builder.build()) == expected
