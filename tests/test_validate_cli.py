"""``python -m k8sjobs validate FILE`` as a user runs it: a verdict, never a traceback."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.manifests import job_manifest

ROOT = Path(__file__).resolve().parents[1]

GOOD = job_manifest("pi", spec={"backoffLimit": 4}, container="pi", image="perl:5.34.0",
                    command=["perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"])


def run(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([sys.executable, "-m", "k8sjobs", "validate", *args], input=stdin, capture_output=True,
                          cwd=ROOT, check=False, timeout=60)
    out = subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout.decode("utf-8", "replace"),
                                      proc.stderr.decode("utf-8", "replace"))
    assert "Traceback" not in out.stdout + out.stderr, out.stderr
    return out


def bomb() -> str:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def test_a_valid_manifest_prints_job_batch_name_valid(tmp_path: Path) -> None:
    path = tmp_path / "pi.yaml"
    path.write_text(GOOD)
    out = run([str(path)])
    assert (out.returncode, out.stdout, out.stderr) == (0, "job.batch/pi valid\n", "")


def test_a_valid_manifest_on_stdin_is_read_with_a_dash() -> None:
    out = run(["-"], stdin=GOOD.encode())
    assert (out.returncode, out.stdout) == (0, "job.batch/pi valid\n")


def test_a_generate_name_manifest_is_valid_under_a_generated_name(tmp_path: Path) -> None:
    path = tmp_path / "gen.yaml"
    path.write_text(GOOD.replace("  name: pi\n", "  generateName: pi-\n"))
    out = run([str(path)])
    assert out.returncode == 0
    assert out.stdout.startswith("job.batch/pi-") and out.stdout.endswith(" valid\n")


def test_a_name_that_is_not_a_dns_label_is_valid_with_kubectls_warning(tmp_path: Path) -> None:
    path = tmp_path / "dots.yaml"
    path.write_text(GOOD.replace("  name: pi\n", "  name: pi.v2\n"))
    out = run([str(path)])
    assert (out.returncode, out.stdout) == (0, "job.batch/pi.v2 valid\n")
    assert out.stderr == ("Warning: metadata.name: this is used in Pod names and hostnames, which can result in "
                          "surprising behavior; a DNS label is recommended: [must not contain dots]\n")


CASES = [
    # (id, file content or None, extra setup key, exit status, expected stderr lines or fragments)
    ("an invalid spec prints kubectl's message naming the field",
     GOOD.replace("backoffLimit: 4", "backoffLimit: -1"), 1,
     ['The Job "pi" is invalid: spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0']),
    ("several invalid fields print one line each",
     GOOD.replace("backoffLimit: 4", "backoffLimit: -1\n  parallelism: -2").replace("      restartPolicy: Never\n", ""), 1,
     ['The Job "pi" is invalid: ', "* spec.parallelism: Invalid value: -2: must be greater than or equal to 0",
      "* spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0",
      '* spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']),
    ("an unknown field is named with its full path",
     GOOD.replace("        image: perl:5.34.0\n", "        image: perl:5.34.0\n        imagePullPolizy: Always\n"), 1,
     ['error: {path}: Job in version "v1" cannot be handled as a Job: strict decoding error:',
      '* unknown field "spec.template.spec.containers[0].imagePullPolizy"']),
    ("a wrong type is named with its path", GOOD.replace("backoffLimit: 4", "backoffLimit: four"), 1,
     ['error: {path}: Job in version "v1" cannot be handled as a Job: strict decoding error:',
      '* spec.backoffLimit: Invalid value: "string": spec.backoffLimit in body must be of type integer: "string"']),
    ("an empty file is refused as empty", "", 1,
     ["error: {path}: empty: the file has no document (expected a Job manifest)"]),
    ("a file that is not YAML gives the line and column", GOOD.replace("  name: pi", "  name: pi: x"), 1,
     ["error: {path}: not YAML: line 4, column 11: mapping values are not allowed here"]),
    ("a list at the top level is refused", "- " + GOOD.replace("\n", "\n  "), 1,
     ["error: {path}: the top level is a list; expected one Job manifest, a mapping with apiVersion, kind, metadata and spec"]),
    ("another kind is refused", GOOD.replace("apiVersion: batch/v1\nkind: Job", "apiVersion: v1\nkind: Pod"), 1,
     ['error: {path}: kind "Pod" (v1) is not supported: k8sjobs handles batch/v1 Job and batch/v1 CronJob only']),
    ("another apiVersion is refused", GOOD.replace("batch/v1", "batch/v2"), 1,
     ['error: {path}: no matches for kind "Job" in version "batch/v2": k8sjobs handles batch/v1 Job and batch/v1 CronJob only']),
    ("a duplicate field is refused naming it", GOOD.replace("backoffLimit: 4", "backoffLimit: 4\n  backoffLimit: 5"), 1,
     ['error: {path}: line 7, column 3: duplicate field "backoffLimit" (first defined on line 6)']),
    ("a python tag is refused and runs nothing", GOOD.replace("name: pi\n", "name: !!python/object/apply:os.getcwd []\n", 1), 1,
     ["error: {path}: line 4, column 9: YAML tag !!python/object/apply:os.getcwd is not allowed: Python object tags are "
      "refused: a manifest is plain data"]),
    ("an alias bomb is refused", bomb(), 1, ["through YAML aliases (an alias bomb?); refused before building it"]),
]


@pytest.mark.parametrize(("content", "status", "lines"), [pytest.param(c, s, ln, id=i) for i, c, s, ln in CASES])
def test_bad_manifests_give_clear_reasons(tmp_path: Path, content: str, status: int, lines: list[str]) -> None:
    path = tmp_path / "job.yaml"
    path.write_text(content)
    out = run([str(path)])
    assert out.returncode == status
    assert out.stdout == ""
    got = out.stderr.splitlines()
    expected = [line.replace("{path}", str(path)) for line in lines]
    if len(expected) == 1 and not expected[0].startswith(("error:", "The Job")):
        assert len(got) == 1 and expected[0] in got[0], got
    else:
        assert got == expected


def test_a_file_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    data = GOOD.replace("pi\n", "p\xe9\n", 1).encode("latin-1")
    path.write_bytes(data)
    out = run([str(path)])
    assert out.returncode == 1
    offset = data.index(b"\xe9")
    assert out.stderr == f"error: {path}: not UTF-8: invalid byte 0xe9 at line 4, column 10 (byte offset {offset})\n"


def test_a_missing_file_is_reported_in_one_line() -> None:
    out = run(["/nonexistent/job.yaml"])
    assert (out.returncode, out.stderr) == (2, "validate: /nonexistent/job.yaml: no such file\n")


def test_a_directory_is_reported_in_one_line(tmp_path: Path) -> None:
    out = run([str(tmp_path)])
    assert (out.returncode, out.stderr) == (2, f"validate: {tmp_path}: is a directory, not a manifest file\n")


def test_binary_garbage_on_stdin_is_refused_in_one_line() -> None:
    out = run(["-"], stdin=bytes(range(256)) * 4)
    assert out.returncode == 1
    assert len(out.stderr.splitlines()) == 1 and "not" in out.stderr


def test_an_alias_bomb_is_refused_fast(tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(bomb())
    start = time.perf_counter()
    out = run([str(path)])
    elapsed = time.perf_counter() - start
    assert out.returncode == 1
    assert elapsed < 10, f"validate took {elapsed:.1f}s on an alias bomb"


def test_a_missing_argument_is_a_usage_error_not_a_traceback() -> None:
    out = run([])
    assert out.returncode == 2
    assert "usage:" in out.stderr
