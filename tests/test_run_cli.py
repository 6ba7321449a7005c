"""``python -m k8sjobs run MANIFEST`` as a user runs it, in a subprocess: output formats, determinism
across processes and hash seeds, and a clear one-line verdict (never a traceback) for bad input."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.manifests import DURATION, START_LATENCY, job_manifest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "examples" / "docs"
BACKOFF = DOCS / "job-pod-failure-backoff.yaml"  # 8 failures in pairs, Failed at ~546 s

GOOD = job_manifest("pi", completions=3, parallelism=2, annotations={START_LATENCY: "2s", DURATION: "5s..9s"},
                    container="pi", image="perl:5.34.0")


def run(args: list[str], stdin: bytes | None = None, hash_seed: str | None = None) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"}
    if hash_seed is not None:
        env["PYTHONHASHSEED"] = hash_seed
    proc = subprocess.run([sys.executable, "-m", "k8sjobs", "run", *args], input=stdin, capture_output=True, cwd=ROOT,
                          env=env, check=False, timeout=120)
    assert b"Traceback" not in proc.stdout + proc.stderr, proc.stderr.decode(errors="replace")
    return proc


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("run") / "pi.yaml"
    path.write_text(GOOD)
    return path


# ----------------------------------------------------------------------------- formats


def seconds_as_time(t: float) -> str:
    """Simulated seconds as the API's timestamp (the simulation starts at 2026-01-01T00:00:00Z)."""
    return (datetime(2026, 1, 1, tzinfo=UTC) + timedelta(seconds=t)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


CYCLE_LINE = re.compile(r"^ *(\d+)  +(\d+\.\d{3})  +(\d+) +(\d+) +(\d+) +(\d+) +(\d+)  \S")


def test_text_is_a_fixed_width_trace_of_cycles_that_ends_with_a_describe_block(good: Path):
    proc = run([str(good), "--seed", "3"])
    assert (proc.returncode, proc.stderr) == (0, b"")
    text = proc.stdout.decode()
    lines = text.splitlines()
    assert lines[0] == "k8sjobs run: job.batch/pi  seed=3  nodes=3x110  informer-lag=0s"
    assert lines[1] == "CYCLE        T(s)  ACTIVE READY  SUCC  FAIL  TERM  WHY"
    cycle_lines = [ln for ln in lines if CYCLE_LINE.match(ln)]
    assert len(cycle_lines) >= 5
    for ln in cycle_lines:  # every column ends where its title ends
        assert ln[5:7] == "  " and ln[17:19] == "  " and ln[25] == " " and ln[31] == " " and ln[43:45] == "  "
        assert ln[:5].strip().isdigit() and re.fullmatch(r" *\d+\.\d{3}", ln[7:17])
    detail = [ln for ln in lines[2:] if ln.startswith(" " * 19 + "- ") or ln.startswith(" " * 19 + "= event ")]
    assert detail, "decisions and events are indented under their cycle"
    describe = text[text.index("\nName:"):]
    assert re.search(r"\nName: +pi\nNamespace: +default\n", describe)
    assert "\nPods Statuses:    0 Active (0 Ready) / 3 Succeeded / 0 Failed\n" in describe
    assert "\nConditions:" not in describe and "\nEvents:\n" in describe, "kubectl describe job prints no conditions"
    assert text.endswith("job-controller  Job completed\n")


def test_json_is_one_document_with_job_seed_cycles_events_and_final(good: Path):
    proc = run([str(good), "--format", "json", "--seed", "3"])
    assert (proc.returncode, proc.stderr) == (0, b"")
    doc = json.loads(proc.stdout)
    assert list(doc) == ["job", "seed", "cycles", "events", "final", "objects"]
    assert [(o["kind"], o["namespace"], o["name"]) for o in doc["objects"]] == [("Job", "default", "pi")]
    assert doc["objects"][0]["status"] == doc["final"]["status"]
    assert (doc["job"], doc["seed"]) == ("pi", 3)
    final = doc["final"]
    assert {"status", "finishedAt"} <= set(final)
    status = final["status"]
    assert status["succeeded"] == 3
    complete = [c for c in status["conditions"] if c["type"] == "Complete"]
    assert len(complete) == 1 and isinstance(final["finishedAt"], float)
    assert complete[0]["lastTransitionTime"] == seconds_as_time(final["finishedAt"])
    assert [c["cycle"] for c in doc["cycles"]] == list(range(1, len(doc["cycles"]) + 1))
    assert all({"t", "why", "decisions", "created", "deleted", "status", "events"} <= set(c) for c in doc["cycles"])
    assert sum(len(c["created"]) for c in doc["cycles"]) == 3
    assert [e["reason"] for e in doc["events"]].count("SuccessfulCreate") == 3
    assert doc["events"][-1] == {"t": final["finishedAt"], "type": "Normal", "reason": "Completed",
                                 "message": "Job completed"}


def test_a_job_the_ttl_controller_deleted_keeps_its_last_status_in_json():
    doc = json.loads(run([str(DOCS / "pi-with-ttl.yaml"), "--format", "json"]).stdout)
    final = doc["final"]
    assert final["deleted"] is True and final["status"] is None, "the Job is gone at the end"
    last = final["lastStatus"]
    assert last["succeeded"] == 1 and [c["type"] for c in last["conditions"]] == ["SuccessCriteriaMet", "Complete"]
    assert isinstance(final["finishedAt"], float) and final["finishedAt"] < final["endTime"] - 99


def test_last_status_is_the_status_when_the_job_still_exists(good: Path):
    final = json.loads(run([str(good), "--format", "json"]).stdout)["final"]
    assert final["lastStatus"] == final["status"] and final["limit"] is None


def test_a_run_stopped_by_max_pods_says_so_on_stderr_and_in_json(tmp_path: Path):
    path = tmp_path / "wide.yaml"
    path.write_text(GOOD.replace("completions: 3", "completions: 100000").replace("parallelism: 2", "parallelism: 500"))
    proc = run([str(path), "--format", "json", "--max-pods", "600", "--nodes", "6"])
    assert proc.returncode == 0
    note = proc.stderr.decode()
    assert note.startswith("note: The run stopped after cycle ") and "more than its limit of 600 (max_pods)" in note
    assert "--max-pods 1200 with python -m k8sjobs run" in note and "Run(" not in note
    limit = json.loads(proc.stdout)["final"]["limit"]
    assert (limit["name"], limit["value"]) == ("max_pods", 600) and limit["reached"] > 600
    assert limit["message"] in note


def test_format_none_prints_nothing(good: Path):
    proc = run([str(good), "--format", "none"])
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")


def test_format_none_runs_headless_and_stops_at_the_same_limit_with_the_same_note(tmp_path: Path):
    # --format none records no trace; it runs the same events, so it stops where a recorded run stops.
    path = tmp_path / "wide.yaml"
    path.write_text(GOOD.replace("completions: 3", "completions: 100000").replace("parallelism: 2", "parallelism: 500"))
    args = [str(path), "--max-pods", "600", "--nodes", "6"]
    headless = run([*args, "--format", "none"])
    recorded = run([*args, "--format", "json"])
    assert headless.returncode == recorded.returncode == 0 and headless.stdout == b""
    assert headless.stderr == recorded.stderr and b"more than its limit of 600 (max_pods)" in headless.stderr
    limit = json.loads(recorded.stdout)["final"]["limit"]
    assert f"after cycle {limit['cycle']} (t={limit['t']:g} s)".encode() in headless.stderr


def test_a_headless_simulation_runs_the_events_a_recorded_run_runs():
    from k8sjobs.sim import Budget, Simulation
    from k8sjobs.trace import Run

    for path, budget in ((BACKOFF, Budget()), (DOCS / "pi-with-ttl.yaml", Budget()), (BACKOFF, Budget(max_events=40))):
        recorded = Run(path.read_text(), seed=2, budget=budget, checkpoints=False)
        sim = Simulation(path.read_text(), seed=2)
        sim.run_until_finished(float("inf"), budget=budget)
        assert (sim.events_run, sim.cycles, sim.now, sim.limit_reached) == (
            recorded.sim.events_run, len(recorded), recorded.trace.end_t, recorded.limit)


def test_until_stops_the_run_early():
    doc = json.loads(run([str(BACKOFF), "--format", "json", "--until", "100"]).stdout)
    assert doc["cycles"] and max(c["t"] for c in doc["cycles"]) <= 100
    assert doc["final"]["finishedAt"] is None
    assert doc["final"]["status"]["failed"] == 4
    full = json.loads(run([str(BACKOFF), "--format", "json"]).stdout)
    assert full["cycles"][:len(doc["cycles"])] == doc["cycles"]
    assert full["final"]["finishedAt"] is not None


def test_a_manifest_on_stdin_is_read_with_a_dash(good: Path):
    from_stdin = run(["-", "--seed", "3"], stdin=GOOD.encode())
    assert from_stdin.returncode == 0
    assert from_stdin.stdout == run([str(good), "--seed", "3"]).stdout


# ----------------------------------------------------------------------------- determinism across processes


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_same_manifest_and_seed_give_byte_identical_output_in_two_processes_and_hash_seeds(fmt: str):
    manifest = str(DOCS / "job-backoff-limit-per-index-example.yaml")
    outputs = [run([manifest, "--format", fmt, "--seed", "5"], hash_seed=h).stdout for h in (None, "1", "2")]
    assert outputs[0] and outputs[0] == outputs[1] == outputs[2]
    other_seed = run([str(DOCS / "indexed-job.yaml"), "--format", fmt, "--seed", "6"], hash_seed="1").stdout
    same_seed = run([str(DOCS / "indexed-job.yaml"), "--format", fmt, "--seed", "5"], hash_seed="2").stdout
    assert other_seed != same_seed


# ----------------------------------------------------------------------------- bad input


BAD_FILES = [
    pytest.param("missing.yaml", None, "run: missing.yaml: no such file", id="a missing file"),
    pytest.param("adir", "DIR", "run: adir: is a directory, not a manifest file", id="a directory"),
    pytest.param("empty.yaml", b"", "empty.yaml: empty: the file has no document (expected a Job manifest)",
                 id="an empty file"),
    pytest.param("broken.yaml", b"{\n", "broken.yaml: not YAML: line 2, column 1", id="text that is not YAML"),
    pytest.param("latin1.yaml", b"apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: caf\xe9\n",
                 "latin1.yaml: not UTF-8: invalid byte 0xe9 at line 4, column 12", id="a file that is not UTF-8"),
    pytest.param("list.yaml", b"- kind: Job\n", "list.yaml: the top level is a list; expected one Job manifest",
                 id="a list"),
    pytest.param("pod.yaml", b"apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n",
                 'pod.yaml: kind "Pod" (v1) is not supported: k8sjobs handles batch/v1 Job and batch/v1 CronJob only', id="another kind"),
    pytest.param("invalid.yaml", GOOD.replace("parallelism: 2", "parallelism: -2").encode(),
                 'The Job "pi" is invalid: spec.parallelism: Invalid value: -2: must be greater than or equal to 0',
                 id="an invalid spec"),
    pytest.param("badsim.yaml", GOOD.replace('"5s..9s"', '"9s..5s"').encode(),
                 'The Job "pi" is invalid: spec.template.metadata.annotations[sim.k8sjobs.io/duration]: '
                 'Invalid value: "9s..5s": range', id="an invalid sim annotation"),
]


@pytest.mark.parametrize(("name", "content", "message"), BAD_FILES)
def test_a_bad_manifest_gives_a_clear_message_and_a_non_zero_exit(tmp_path: Path, name, content, message):
    path = tmp_path / name
    if content == "DIR":
        path.mkdir()
    elif content is not None:
        path.write_bytes(content)
    proc = subprocess.run([sys.executable, "-m", "k8sjobs", "run", name], capture_output=True, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False, timeout=120)
    err = proc.stderr.decode()
    assert "Traceback" not in err + proc.stdout.decode()
    assert proc.returncode != 0 and proc.stdout == b""
    assert err.startswith(message), err


@pytest.mark.parametrize(("args", "code", "message"), [
    pytest.param(["--until", "-5"], 1, "run: --until: must be between 0 and 3.1536e+07 seconds, got -5",
                 id="a negative until"),
    pytest.param(["--until", "nan"], 1, "run: --until: must be between 0 and", id="until not a number"),
    pytest.param(["--until", "soon"], 2, "argument --until: 'soon' is not a duration: give seconds (90) or a number "
                 "with a unit: 90s, 15m, 3h, 7d, 1h30m", id="until in words"),
    pytest.param(["--until", "7d1"], 2, "argument --until: '7d1' is not a duration", id="until with a number left over"),
    pytest.param(["--until", "5", "--until-finished"], 2, "argument --until-finished: not allowed with argument --until",
                 id="until and until-finished together"),
    pytest.param(["--seed", "x"], 2, "argument --seed: invalid int value: 'x'", id="a seed in words"),
    pytest.param(["--nodes", "-1"], 1, "run: invalid simulation settings: nodes: must be an integer between 0 and 10000",
                 id="negative nodes"),
    pytest.param(["--informer-lag", "-1"], 1, "informer_lag: must be a number of seconds between 0 and 86400",
                 id="a negative informer lag"),
    pytest.param(["--max-cycles", "0"], 1, "run: --max-cycles: must be at least 1, got 0", id="no cycles"),
    pytest.param(["--max-pods", "-1"], 1, "run: --max-pods: must be at least 0, got -1", id="negative max pods"),
    pytest.param(["--max-pod-cycles", "x"], 2, "argument --max-pod-cycles: invalid int value: 'x'",
                 id="max pod cycles in words"),
    pytest.param(["--format", "xml"], 2, "argument --format: invalid choice: 'xml'", id="an unknown format"),
])
def test_bad_options_give_a_clear_message_and_a_non_zero_exit(good: Path, args, code, message):
    proc = run([str(good), *args])
    assert (proc.returncode, proc.stdout) == (code, b"")
    assert message in proc.stderr.decode()


def test_the_process_entry_point_runs_the_command_then_skips_the_collectors_pass_at_exit(good: Path):
    # python -m k8sjobs and the k8sjobs script: the same output as the in-process main, and the cyclic
    # collector off once the command is done (shutdown would otherwise walk every object left).
    code = ("import gc, sys; from k8sjobs.__main__ import main; status = main(sys.argv[1:]); "
            "print('gc', gc.isenabled(), status, file=sys.stderr)")
    proc = subprocess.run([sys.executable, "-c", code, "run", str(good), "--seed", "3"], capture_output=True,
                          cwd=ROOT, check=False, timeout=120)
    assert proc.stderr.decode().splitlines()[-1] == "gc False 0"
    assert proc.stdout == run([str(good), "--seed", "3"]).stdout


def test_standard_input_has_the_same_size_limit_as_a_file() -> None:
    from k8sjobs.api.yamlio import MAX_BYTES

    big = b"# " + b"x" * (MAX_BYTES + 10) + b"\n"
    for cmd in ("run", "validate"):
        proc = subprocess.run([sys.executable, "-m", "k8sjobs", cmd, "-"], input=big, capture_output=True,
                              cwd=ROOT, check=False, timeout=120)
        assert proc.returncode == 1, (cmd, proc.stderr)
        assert f"larger than {MAX_BYTES} bytes" in proc.stderr.decode(), (cmd, proc.stderr)
