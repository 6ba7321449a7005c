"""Manifests for the widget tests: small, deterministic runs (seed 0, 3 nodes)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The same Job as tests/browser/fixtures/dashboard.ipynb: 5 completions, 3 at a time; the first
# pod fails once (exit code 1), so cycles 5-6 wait for the back-off. 12 cycles with seed 0.
SAMPLE = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: sample
spec:
  completions: 5
  parallelism: 3
  backoffLimit: 3
  template:
    metadata:
      annotations:
        sim.k8sjobs.io/start-latency: "2s"
        sim.k8sjobs.io/duration: "2s..4s"
        sim.k8sjobs.io/fail-attempts: "1"
    spec:
      restartPolicy: Never
      containers:
      - name: worker
        image: busybox
"""

INDEXED = ROOT / "examples" / "docs" / "indexed-job.yaml"


@pytest.fixture
def sample() -> str:
    return SAMPLE
