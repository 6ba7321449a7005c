"""``python -m k8sjobs validate cronjob.yaml`` and ``k8sjobs.validate()`` on CronJobs: the API server's verdict."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import k8sjobs

ROOT = Path(__file__).resolve().parents[1]

GOOD = """\
apiVersion: batch/v1
kind: CronJob
metadata:
  name: hello
spec:
  schedule: "*/5 * * * *"
  timeZone: Europe/Berlin
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: hello
            image: busybox:1.28
            command: ["date"]
"""

LONG_NAME = "a" * 53

# (change to GOOD, the one error line the API server prints after 'The CronJob "NAME" is invalid: ')
MALFORMED = {
    "bad schedule": (('"*/5 * * * *"', '"61 * * * *"'),
                     'spec.schedule: Invalid value: "61 * * * *": end of range (61) above maximum (59): 61'),
    "unknown time zone": (("Europe/Berlin", "Mars/Olympus"),
                          'spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus'),
    "name too long": (("name: hello", f"name: {LONG_NAME}"),
                      f'metadata.name: Invalid value: "{LONG_NAME}": must be no more than 52 characters'),
    "negative deadline": (("  timeZone: Europe/Berlin", "  startingDeadlineSeconds: -5"),
                          "spec.startingDeadlineSeconds: Invalid value: -5: must be greater than or equal to 0"),
    "TZ= in the schedule": (('"*/5 * * * *"\n  timeZone: Europe/Berlin', '"TZ=UTC */5 * * * *"'),
                            'spec.schedule: Invalid value: "TZ=UTC */5 * * * *": cannot use TZ or CRON_TZ in '
                            "schedule, use timeZone field instead"),
    "the Local time zone": (("Europe/Berlin", "Local"),
                            'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as '
                            "defined in https://www.iana.org/time-zones"),
    "an unknown concurrency policy": (("  timeZone: Europe/Berlin", "  concurrencyPolicy: Sometimes"),
                                      'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: '
                                      '"Allow", "Forbid", "Replace"'),
}


def run(path: Path) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "k8sjobs", "validate", str(path)], capture_output=True, text=True,
                          cwd=ROOT, check=False, timeout=60)
    assert "Traceback" not in proc.stdout + proc.stderr, proc.stderr
    return proc


def test_a_valid_cronjob_prints_cronjob_batch_name_valid(tmp_path: Path) -> None:
    path = tmp_path / "cronjob.yaml"
    path.write_text(GOOD)
    out = run(path)
    assert (out.returncode, out.stdout, out.stderr) == (0, "cronjob.batch/hello valid\n", "")


@pytest.mark.parametrize(("change", "error"), MALFORMED.values(), ids=MALFORMED.keys())
def test_a_malformed_cronjob_gets_the_api_servers_message_naming_the_field(tmp_path: Path, change: tuple[str, str],
                                                                         error: str) -> None:
    old, new = change
    assert old in GOOD
    path = tmp_path / "cronjob.yaml"
    path.write_text(GOOD.replace(old, new, 1))
    out = run(path)
    name = LONG_NAME if LONG_NAME in new else "hello"
    assert (out.returncode, out.stdout, out.stderr) == (1, "", f'The CronJob "{name}" is invalid: {error}\n')


def test_a_dotted_name_is_valid_with_the_api_servers_dns_label_warning(tmp_path: Path) -> None:
    path = tmp_path / "cronjob.yaml"
    path.write_text(GOOD.replace("name: hello", "name: hello.world", 1))
    out = run(path)
    assert (out.returncode, out.stdout) == (0, "cronjob.batch/hello.world valid\n")
    assert out.stderr.startswith("Warning: metadata.name: this is used in Pod names and hostnames, which can result "
                                 "in surprising behavior; a DNS label is recommended: [")


def test_an_unknown_cronjob_field_is_refused_by_strict_decoding(tmp_path: Path) -> None:
    path = tmp_path / "cronjob.yaml"
    path.write_text(GOOD.replace("schedule:", "schedul:"))
    out = run(path)
    assert out.returncode == 1
    assert out.stderr.splitlines() == [
        f'error: {path}: CronJob in version "v1" cannot be handled as a CronJob: strict decoding error:',
        '* unknown field "spec.schedul"']


def test_a_cronjob_of_another_api_version_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "cronjob.yaml"
    path.write_text(GOOD.replace("batch/v1", "batch/v1beta1"))
    out = run(path)
    assert out.returncode == 1
    assert 'no matches for kind "CronJob" in version "batch/v1beta1"' in out.stderr


def test_the_python_api_validates_a_cronjob_as_the_cli_does() -> None:
    assert k8sjobs.validate(GOOD) == []
    (old, new), error = MALFORMED["bad schedule"]
    assert k8sjobs.validate(GOOD.replace(old, new)) == [error]
    (old, new), error = MALFORMED["unknown time zone"]
    assert k8sjobs.validate(GOOD.replace(old, new)) == [error]


def test_the_python_api_still_validates_jobs() -> None:
    job = GOOD.replace("kind: CronJob", "kind: Job")
    assert k8sjobs.validate(job) != []  # a CronJob spec under kind Job: unknown fields
    assert any("schedule" in line for line in k8sjobs.validate(job))
