"""Job and CronJob manifests for tests and benchmarks: one builder instead of the same YAML written again.

``job_manifest("pi", completions=3, parallelism=2, annotations={DURATION: "5s..9s"})`` is the text a
user would write (block style, two-space indents, annotation values quoted), so a test may edit it
with ``str.replace`` as before (``.replace("parallelism: 2", "parallelism: -2")``). Spec fields
beyond completions and parallelism come in ``spec`` in the order given (a list or a mapping is
written as JSON, which YAML reads). Import it as ``from tests.manifests import job_manifest``
(pytest puts the repository root on ``sys.path``; a benchmark puts it there itself).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

START_LATENCY = "sim.k8sjobs.io/start-latency"
DURATION = "sim.k8sjobs.io/duration"
FAIL_ATTEMPTS = "sim.k8sjobs.io/fail-attempts"
FAIL_RATE = "sim.k8sjobs.io/fail-rate"
TERMINATION_DELAY = "sim.k8sjobs.io/termination-delay"


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (Mapping, list, tuple)):
        return json.dumps(value)
    return str(value)


def job_manifest(name: str = "demo", *, completions: int | None = None, parallelism: int | None = None,
                 spec: Mapping[str, Any] | None = None, annotations: Mapping[str, str] | None = None,
                 restart_policy: str = "Never", container: str = "main", image: str = "busybox",
                 command: Sequence[str] | None = None) -> str:
    """A batch/v1 Job manifest with one container (see the module's docstring)."""
    lines = ["apiVersion: batch/v1", "kind: Job", "metadata:", f"  name: {name}", "spec:"]
    if completions is not None:
        lines.append(f"  completions: {completions}")
    if parallelism is not None:
        lines.append(f"  parallelism: {parallelism}")
    lines += [f"  {key}: {_value(value)}" for key, value in (spec or {}).items()]
    lines.append("  template:")
    if annotations:
        lines += ["    metadata:", "      annotations:"]
        lines += [f"        {key}: {json.dumps(str(value))}" for key, value in annotations.items()]
    lines += ["    spec:", f"      restartPolicy: {restart_policy}", "      containers:",
              f"      - name: {container}", f"        image: {image}"]
    if command:
        lines.append(f"        command: {json.dumps(list(command))}")
    return "\n".join(lines) + "\n"


def cronjob_manifest(name: str = "nightly", schedule: str = "*/5 * * * *", *, duration: str = "30s",
                     spec: Mapping[str, Any] | None = None) -> str:
    """A batch/v1 CronJob manifest whose Jobs run one pod for ``duration`` (the simulation's
    :data:`DURATION` annotation); CronJob spec fields beyond the schedule come in ``spec``, in the
    order given, between the schedule and the Job template."""
    lines = ["apiVersion: batch/v1", "kind: CronJob", "metadata:", f"  name: {name}", "spec:",
             f'  schedule: "{schedule}"']
    lines += [f"  {key}: {_value(value)}" for key, value in (spec or {}).items()]
    lines += ["  jobTemplate:", "    spec:", "      template:", "        metadata:", "          annotations:",
              f'            {DURATION}: "{duration}"', "        spec:", "          restartPolicy: Never",
              "          containers:", "          - name: work", "            image: busybox"]
    return "\n".join(lines) + "\n"
