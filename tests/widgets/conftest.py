"""Manifests for the widget tests: small, deterministic runs (seed 0, 3 nodes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.manifests import DURATION, FAIL_ATTEMPTS, START_LATENCY, job_manifest

ROOT = Path(__file__).resolve().parents[2]

# The same Job as tests/browser/fixtures/dashboard.ipynb: 5 completions, 3 at a time; the first
# pod fails once (exit code 1), so cycles 5-6 wait for the back-off. 12 cycles with seed 0.
SAMPLE = job_manifest("sample", completions=5, parallelism=3, spec={"backoffLimit": 3}, container="worker",
                      annotations={START_LATENCY: "2s", DURATION: "2s..4s", FAIL_ATTEMPTS: "1"})

INDEXED = ROOT / "examples" / "docs" / "indexed-job.yaml"


@pytest.fixture
def sample() -> str:
    return SAMPLE
