"""The text twins, byte for byte, against golden files (K8SJOBS_UPDATE_GOLDEN=1 rewrites them)."""

from __future__ import annotations

import pytest
import viz_scenarios as S
from viz_golden import check_golden

from k8sjobs import viz

END = -1
CASES = [
    # (what the twin must show, view, scenario, cycle)
    ("four waves of failed pods", "timeline", "backoff", END),
    ("an Indexed Job mid-run, pods by index", "timeline", "indexed", 6),
    ("a scale-down ends four pods as deleted", "timeline", "scale_down", END),
    ("a thousand pods binned over time", "timeline", "big", END),
    ("a quota holds active below parallelism", "counts", "quota", 12),
    ("slow start stops at the failed batch", "slow_start", "quota", 1),
    ("waits doubling in pairs of failures", "backoff", "backoff", END),
    ("waits capped at 600 s", "backoff", "backoff_cap", END),
    ("per-index waits and failed indexes", "backoff", "per_index", END),
    ("a ranking decided by several rules", "deletion", "mixed_scale_down", END),
    ("the Indexed pre-step first", "deletion", "elastic", END),
    ("syncs waiting for a lagging informer", "expectations", "lag", 14),
    ("pods on nodes during a scale-down", "ownership", "scale_down", 5),
    ("many pods grouped by node and phase", "ownership", "big", 100),
    ("a sync that created pods", "control_loop", "quota", 1),
    ("a sync waiting for the informer", "control_loop", "lag", 11),
    ("a sync waiting for the backoff", "control_loop", "backoff", 4),
    ("repeated warnings folded", "events", "quota", 5),
    ("the events of a completed Job", "events", "indexed", END),
]


def _run(name: str):
    return S.big() if name == "big" else S.ALL[name]()


@pytest.mark.parametrize(("what", "view", "scenario", "cycle"), CASES, ids=[c[0] for c in CASES])
def test_the_text_twin_matches_its_golden_file(what, view, scenario, cycle):
    trace = _run(scenario).trace
    k = len(trace.cycles) if cycle == END else cycle
    check_golden(f"{view}--{scenario}--{'end' if cycle == END else cycle}", viz.text(view, trace, k))
