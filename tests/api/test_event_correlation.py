"""Events as client-go's recorder writes them: spam filter, aggregation of similar events, counts."""

from __future__ import annotations

from k8sjobs import Run, describe_job
from k8sjobs.api.events import AGGREGATE_MAX_EVENTS, COMBINED_PREFIX, SPAM_BURST
from tests.manifests import DURATION, job_manifest


def job(completions: int, parallelism: int) -> str:
    return job_manifest("many", completions=completions, parallelism=parallelism, annotations={DURATION: "100s"})


def test_from_the_tenth_similar_event_one_combined_event_is_counted_instead() -> None:
    run = Run(job(12, 12), seed=0)
    creates = [e for e in run.trace.events if e.reason == "SuccessfulCreate"]
    assert len(creates) == 12, "every create is recorded"
    separate = {e.name for e in creates if not e.message.startswith(COMBINED_PREFIX)}
    combined = [e for e in creates if e.message.startswith(COMBINED_PREFIX)]
    assert len(separate) == AGGREGATE_MAX_EVENTS - 1
    assert len(combined) == 12 - (AGGREGATE_MAX_EVENTS - 1) and len({e.name for e in combined}) == 1
    described = describe_job(run.trace)
    assert "(x3 over" in described and "(combined from similar events): Created pod: many-" in described


def test_more_than_25_events_about_one_job_in_a_burst_are_dropped_but_still_recorded() -> None:
    run = Run(job(40, 40), seed=0)
    written = [e for e in run.trace.events if e.t == 0.0]
    assert len(written) == SPAM_BURST, "the spam filter lets 25 events through at once"
    recorded = [c for c in run.sim.recorder.calls if c[0] == 0.0]
    assert len(recorded) == 40 and run.sim.recorder.dropped >= 40 - SPAM_BURST
