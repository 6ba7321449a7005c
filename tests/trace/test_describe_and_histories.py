"""describe_job keeps labels and values apart; pod histories follow pods the Job no longer owns."""

from __future__ import annotations

from pathlib import Path

from k8sjobs import Run, describe_job

DOCS = Path(__file__).resolve().parents[2] / "examples" / "docs"


def test_long_describe_labels_are_separated_from_their_values() -> None:
    text = describe_job(Run((DOCS / "indexed-job.yaml").read_text(), seed=0).trace)
    assert "Completed Indexes:  0-4" in text
    for line in text.splitlines():
        if ":" in line and not line.startswith(" "):
            label, _, rest = line.partition(":")
            assert rest == "" or rest.startswith(" "), f"label runs into its value: {line!r}"


def test_an_orphaned_pod_keeps_its_history_after_the_job_lets_it_go() -> None:
    base = Run((DOCS / "job.yaml").read_text(), seed=0)
    orphaned = base.fork(3, "delete_job", propagation="Orphan")
    (pod,) = orphaned.trace.pod_histories()
    assert (pod.phase, pod.outcome()) == ("Succeeded", "succeeded")
    assert pod.finished is not None and pod.finished > 3
