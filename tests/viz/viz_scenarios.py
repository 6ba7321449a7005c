"""The runs the view tests (and the screenshot script) look at, built once per process."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from k8sjobs.trace import Run
from tests.manifests import DURATION, FAIL_RATE, START_LATENCY, job_manifest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "examples" / "docs"


def _manifest(name: str, *, completions: int, parallelism: int, duration: str = "10s",
              spec: dict | None = None, annotations: dict | None = None, start: str = "1s") -> str:
    return job_manifest(name, completions=completions, parallelism=parallelism, spec=spec,
                        annotations={START_LATENCY: start, DURATION: duration, **(annotations or {})})


@cache
def backoff() -> Run:
    """Pairs of pods fail (exit 42); the waits double 20, 80, 320 s; Failed at the 8th failure."""
    return Run((DOCS / "job-pod-failure-backoff.yaml").read_text(), seed=0, nodes=3)


@cache
def backoff_cap() -> Run:
    """One pod at a time fails nine times: delays 10, 20, 40, ... 320, then 600 s (the cap)."""
    text = _manifest("capped", completions=1, parallelism=1, duration="5s",
                     spec={"backoffLimit": 8}, annotations={FAIL_RATE: "1", "sim.k8sjobs.io/exit-code": "1"})
    return Run(text, seed=0, nodes=1)


@cache
def per_index() -> Run:
    """backoffLimitPerIndex 1: even indexes fail twice each, odd ones succeed."""
    return Run((DOCS / "job-backoff-limit-per-index-example.yaml").read_text(), seed=0, nodes=3)


@cache
def indexed() -> Run:
    """The docs' Indexed Job: 5 completions, 3 at a time."""
    return Run((DOCS / "indexed-job.yaml").read_text(), seed=0, nodes=3)


@cache
def quota() -> Run:
    """Parallelism 20 under a 5-pod quota: slow start stops at the failed batch 3, 13 pods skipped."""
    text = _manifest("wide", completions=40, parallelism=20)
    return Run(text, seed=0, nodes=3).fork(0, "set_pod_quota", pods=5)


@cache
def scale_down() -> Run:
    """An Indexed Job with 6 ready pods scaled to parallelism 2 at cycle 4: 4 pods deleted in order."""
    text = _manifest("shrink", completions=12, parallelism=6, duration="20s..40s", start="1s..3s",
                     spec={"completionMode": "Indexed"})
    return Run(text, seed=0, nodes=3).fork(4, "scale", parallelism=2)


@cache
def mixed_scale_down() -> Run:
    """Eight pods on two 3-pod nodes scaled to 2: unassigned, Pending and ready Running pods are ranked."""
    text = _manifest("mixed", completions=8, parallelism=8, duration="30s", start="1s..6s")
    return Run(text, seed=3, nodes=2, pods_per_node=3).fork(3, "scale", parallelism=2)


@cache
def elastic() -> Run:
    """An Indexed Job whose completions shrink: the out-of-range indexes go first (the pre-step)."""
    text = _manifest("elastic", completions=6, parallelism=6, duration="30s", start="1s..3s",
                     spec={"completionMode": "Indexed"})
    return Run(text, seed=0, nodes=3).fork(3, "scale", parallelism=3, completions=3)


@cache
def lag() -> Run:
    """A 5 s informer lag from cycle 1: syncs wait for the informer (unsatisfied expectations)."""
    text = _manifest("laggy", completions=12, parallelism=6, duration="20s..40s", start="1s..3s",
                     spec={"completionMode": "Indexed"})
    return Run(text, seed=0, nodes=3).fork(1, "set_informer_lag", seconds=5)


def big_manifest(completions: int, parallelism: int) -> str:
    """A NonIndexed Job of many 20-40 s pods, 2% of which fail (the benchmark's traces)."""
    return _manifest("big", completions=completions, parallelism=parallelism, duration="20s..40s",
                     spec={"backoffLimit": 1000000}, annotations={FAIL_RATE: "0.02"})


@cache
def big(completions: int = 1000, parallelism: int = 100) -> Run:
    """A large run (1,000 pods by default) for aggregation and benchmarks."""
    return Run(big_manifest(completions, parallelism), seed=0, nodes=10)


ALL = {"backoff": backoff, "backoff_cap": backoff_cap, "per_index": per_index, "indexed": indexed,
       "quota": quota, "scale_down": scale_down, "mixed_scale_down": mixed_scale_down, "elastic": elastic,
       "lag": lag}
