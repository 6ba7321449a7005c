"""describe_job and get_job print what kubectl 1.35 prints: field list, alignment, STATUS, YAML, JSONPath.

The field list below is the order of kubectl's ``describeJob``
(staging/src/k8s.io/kubectl/pkg/describe/describe.go); the STATUS rules are ``printJob``
(pkg/printers/internalversion/printers.go). A change to either upstream function should
change these tables, never the other way round.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from test_golden import compare_golden

from k8sjobs import Run, describe_job, get_job
from k8sjobs.api.types import Job, JobCondition, JobStatus, ObjectMeta, evolve
from k8sjobs.trace.kubectl import JSONPathError, job_status_column, jsonpath, tabwrite

DOCS = Path(__file__).resolve().parents[2] / "examples" / "docs"

# Every line describeJob can print at the top level, in its order; (optional) ones only when set.
DESCRIBE_JOB_FIELDS = [
    "Name", "Namespace", "Selector", "Labels", "Annotations", "Controlled By", "Parallelism", "Completions",
    "Completion Mode", "Suspend", "Backoff Limit", "TTL Seconds After Finished", "Start Time", "Completed At",
    "Duration", "Active Deadline Seconds", "Pods Statuses", "Completed Indexes", "Pod Template", "Events",
]

EVERY_FIELD = """\
apiVersion: batch/v1
kind: Job
metadata:
  name: every-field
spec:
  completions: 3
  parallelism: 2
  completionMode: Indexed
  backoffLimitPerIndex: 1
  maxFailedIndexes: 1
  activeDeadlineSeconds: 600
  ttlSecondsAfterFinished: 100
  podFailurePolicy:
    rules:
    - action: FailIndex
      onExitCodes:
        operator: In
        values: [42]
  template:
    metadata:
      annotations:
        sim.k8sjobs.io/duration: "2s"
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: busybox:1.36
"""


def top_level_fields(text: str) -> list[str]:
    return [line.split(":", 1)[0] for line in text.splitlines() if line and not line[0].isspace()]


def last_cycle_with_the_job(run: Run) -> int:
    """The last cycle before the TTL controller deletes the finished Job."""
    return max(c.index for c in run.cycles if run.state_at(c.index).job is not None)


def test_describe_prints_exactly_the_fields_of_kubectl_describe_job_in_its_order() -> None:
    run = Run(EVERY_FIELD, seed=0)
    text = describe_job(run.trace, last_cycle_with_the_job(run))
    assert top_level_fields(text) == [f for f in DESCRIBE_JOB_FIELDS if f != "Controlled By"]


def test_describe_prints_no_conditions_and_no_per_index_lines_even_for_a_failed_job() -> None:
    failing = EVERY_FIELD.replace('duration: "2s"\n', 'duration: "2s"\n        sim.k8sjobs.io/fail-indexes: "1"\n')
    run = Run(failing, seed=0)
    last = last_cycle_with_the_job(run)
    job = run.state_at(last).job
    assert job.status.failed_indexes and job.status.conditions, "the Job has failed indexes and conditions..."
    text = describe_job(run.trace, last)
    assert "Completed At" not in text, "completionTime is set only on success"
    for absent in ("Conditions", "Failed Indexes", "Backoff Limit Per Index", "Max Failed Indexes",
                   "Pod Failure Policy", "FailureTarget"):
        assert absent not in text, f"...which kubectl describe does not print: {absent}"


def test_describe_leaves_out_what_is_unset_and_says_unset_completions() -> None:
    run = Run((DOCS / "redis-job.yaml").read_text(), seed=0)
    fields = top_level_fields(describe_job(run.trace, 1))
    assert "Completed At" not in fields and "Duration" not in fields and "Completed Indexes" not in fields
    assert "TTL Seconds After Finished" not in fields and "Active Deadline Seconds" not in fields
    assert "\nCompletions:      <unset>\n" in describe_job(run.trace, 1)


def test_describe_of_the_docs_indexed_job_matches_its_golden_file() -> None:
    run = Run((DOCS / "indexed-job.yaml").read_text(), seed=0)
    text = "\n\n".join([describe_job(run.trace, 4), get_job(run.trace, 4), get_job(run.trace, 4, "wide"),
                        get_job(run.trace, output="yaml")]) + "\n"
    compare_golden("kubectl-indexed-job.txt", text)


def test_describe_aligns_like_go_tabwriter_blocks_as_on_a_real_cluster() -> None:
    text = describe_job(Run((DOCS / "indexed-job.yaml").read_text(), seed=0).trace)
    # The volume lines and Node-Selectors/Tolerations form one column block, as in real output.
    assert ("  Volumes:\n   input:\n    Type:          EmptyDir (a temporary directory that shares a pod's lifetime)\n"
            "    Medium:        \n    SizeLimit:     <unset>\n  Node-Selectors:  <none>\n  Tolerations:     <none>\n"
            "Events:\n  Type    Reason            Age   From            Message\n") in text
    assert "\nCompleted Indexes:  0-4\n" in text and text.startswith("Name:               indexed-job\n")


@pytest.mark.parametrize("text, want", [
    ("a:\tb\nlonger:\tc", "a:       b\nlonger:  c"),
    ("a:\tb\nbreak\nlonger:\tc", "a:  b\nbreak\nlonger:  c"),  # a line without a tab ends the block
    ("x\ty\tz\nxx\tyyyy\t1\nxxx\t2", "x    y     z\nxx   yyyy  1\nxxx  2"),
    ("k:\t\n", "k:  \n"),  # an empty last cell: the padded cell before it keeps its spaces
])
def test_tabwrite_follows_go_text_tabwriter(text: str, want: str) -> None:
    assert tabwrite(text) == want


def job_with(*conditions: tuple[str, str], deleting: bool = False) -> Job:
    meta = ObjectMeta(name="j", deletion_timestamp=5.0 if deleting else None)
    return Job(metadata=meta, status=JobStatus(conditions=tuple(JobCondition(type=t, status=s)
                                                                for t, s in conditions)))


@pytest.mark.parametrize("job, status", [
    (job_with(), "Running"),
    (job_with(("SuccessCriteriaMet", "True")), "Running"),
    (job_with(("SuccessCriteriaMet", "True"), ("Complete", "True")), "Complete"),
    (job_with(("FailureTarget", "True")), "FailureTarget"),
    (job_with(("FailureTarget", "True"), ("Failed", "True")), "Failed"),
    (job_with(("Suspended", "True")), "Suspended"),
    (job_with(("Suspended", "False")), "Running"),
    (job_with(("Suspended", "True"), deleting=True), "Terminating"),
    (job_with(("Complete", "True"), deleting=True), "Complete"),
    (job_with(("Suspended", "True"), ("FailureTarget", "True")), "Suspended"),
])
def test_the_status_column_is_computed_as_printjob_does(job: Job, status: str) -> None:
    assert job_status_column(job) == status


@pytest.mark.parametrize("manifest, cycle, row", [
    ("job.yaml", None, ["pi", "Complete", "1/1"]),
    ("redis-job.yaml", 1, ["job-wq-2", "Running", "0/1 of 2"]),
    ("indexed-job.yaml", 1, ["indexed-job", "Running", "0/5"]),
])
def test_get_job_prints_the_real_columns(manifest: str, cycle: int | None, row: list[str]) -> None:
    header, line = get_job(Run((DOCS / manifest).read_text(), seed=0).trace, cycle).splitlines()
    assert header.split() == ["NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"]
    assert re.split(r"  +", line)[:3] == row


def test_a_non_parallel_work_queue_job_shows_one_completion_needed() -> None:
    one = (DOCS / "redis-job.yaml").read_text().replace("parallelism: 2", "parallelism: 1")
    assert get_job(Run(one, seed=0).trace, 1).splitlines()[1].split()[2] == "0/1"


def test_yaml_is_the_whole_job_as_kubectl_prints_it() -> None:
    run = Run((DOCS / "indexed-job.yaml").read_text(), seed=0)
    text = get_job(run.trace, output="yaml")
    doc = yaml.safe_load(text)
    assert list(doc) == ["apiVersion", "kind", "metadata", "spec", "status"]
    assert [c["type"] for c in doc["status"]["conditions"]] == ["SuccessCriteriaMet", "Complete"]
    assert '    status: "True"\n' in text and 'resourceVersion: "' in text, "ambiguous strings are double-quoted"
    assert "        - |\n          items=(foo bar baz qux xyz)\n" in text, "a multi-line string is a literal block"
    completion = doc["status"]["completionTime"]
    assert completion.endswith(":09Z"), "metav1.Time: whole seconds"
    assert list(doc["spec"]) == sorted(doc["spec"]), "keys sorted, as kubectl's YAML printer sorts them"
    assert json.loads(get_job(run.trace, output="json")) == doc


@pytest.mark.parametrize("output, want", [
    ("jsonpath={.status.succeeded}", "5"),
    ("jsonpath='{.status.succeeded}'", "5"),
    ("jsonpath={.status.active}", ""),  # missing keys print nothing (--allow-missing-template-keys)
    ('jsonpath={.status.conditions[?(@.type=="Complete")].reason}', "CompletionsReached"),
    ('jsonpath={range .status.conditions[*]}{.type}={.status}{"\\n"}{end}', "SuccessCriteriaMet=True\nComplete=True\n"),
    ("jsonpath={.status.conditions[*].type}", "SuccessCriteriaMet Complete"),
    ("jsonpath={.status.conditions[-1].type}", "Complete"),
    ("jsonpath={.spec.template.spec.containers[0].command}", '["rev","/input/data.txt"]'),
    ("jsonpath={.metadata.labels['batch.kubernetes.io/job-name']}", "indexed-job"),
    ("jsonpath=succeeded {.status.succeeded} of {.spec.completions}", "succeeded 5 of 5"),
    ("custom-columns=NAME:.metadata.name,ACTIVE:.status.active,DONE:.status.succeeded",
     "NAME          ACTIVE   DONE\nindexed-job   <none>   5"),
    ("name", "job.batch/indexed-job"),
])
def test_get_job_output_forms(output: str, want: str) -> None:
    assert get_job(Run((DOCS / "indexed-job.yaml").read_text(), seed=0).trace, output=output) == want


def test_conditions_as_jsonpath_are_compact_json_with_sorted_keys() -> None:
    text = get_job(Run((DOCS / "job.yaml").read_text(), seed=0).trace, output="jsonpath={.status.conditions}")
    conditions = json.loads(text)
    assert [c["type"] for c in conditions] == ["SuccessCriteriaMet", "Complete"]
    assert text.startswith('[{"lastProbeTime":"2026-01-01T00:00:16Z","lastTransitionTime":')


@pytest.mark.parametrize("output, message", [
    ("xml", 'error: unable to match a printer suitable for the output format "xml"'),
    ("jsonpath=", "error: jsonpath format specified but no jsonpath template given"),
    ("jsonpath={.status", "error parsing jsonpath {.status, unclosed action"),
    ("custom-columns=ACTIVE", "error: unexpected custom-columns spec: ACTIVE, expected <header>:<json-path-expr>"),
])
def test_bad_output_is_refused_with_kubectls_words(output: str, message: str) -> None:
    with pytest.raises(ValueError) as error:
        get_job(Run((DOCS / "job.yaml").read_text(), seed=0).trace, output=output)
    assert str(error.value).startswith(message)


def test_jsonpath_errors_are_their_own_kind() -> None:
    with pytest.raises(JSONPathError, match="not in range, nothing to end"):
        jsonpath({}, "{end}")


def test_a_deleted_job_is_not_found() -> None:
    run = Run((DOCS / "job.yaml").read_text(), seed=0).fork(3, "delete_job")
    for text in (describe_job(run.trace), get_job(run.trace), get_job(run.trace, output="yaml")):
        assert text.startswith('Error from server (NotFound): jobs.batch "pi" not found')


def test_a_job_being_deleted_in_the_foreground_is_terminating() -> None:
    job = Run((DOCS / "job.yaml").read_text(), seed=0).trace.state_at(3).job
    deleting = evolve(job, metadata=evolve(job.metadata, deletion_timestamp=6.0))
    assert job_status_column(job) == "Running" and job_status_column(deleting) == "Terminating"


def test_a_cronjobs_trace_is_rendered_got_and_described_as_kubectl_shows_a_cronjob_at_any_sync() -> None:
    from pathlib import Path

    from k8sjobs import Run, describe_cronjob, describe_job, get_job, render_trace

    run = Run((Path(__file__).parents[2] / "examples" / "cronjob" / "hello.yaml").read_text(), max_time=200)
    tr = run.trace_of("cronjob/default/hello")
    text = render_trace(tr, limit=2)
    assert text.startswith("k8sjobs run: cronjob.batch/hello  seed=0")
    assert "created hello-29453761 for the schedule time 2026-01-01T00:01:00Z" in text
    assert get_job(tr).splitlines() == [
        "NAME    SCHEDULE    TIMEZONE   SUSPEND   ACTIVE   LAST SCHEDULE   AGE",
        "hello   * * * * *   <none>     False     0        5s              3m5s"]
    assert get_job(tr, 2).splitlines()[1].split() == ["hello", "*", "*", "*", "*", "*", "<none>", "False", "1", "0s", "60s"]
    assert get_job(tr, 2, "wide").splitlines()[0].split()[-3:] == ["CONTAINERS", "IMAGES", "SELECTOR"]
    assert get_job(tr, output="name") == "cronjob.batch/hello"
    assert get_job(tr, 2, "jsonpath={.status.active[*].name}") == "hello-29453761"
    assert get_job(tr, output="yaml").startswith("apiVersion: batch/v1\nkind: CronJob\n")
    at_2 = describe_cronjob(tr, 2)
    assert describe_job(tr, 2) == at_2
    assert "Active Jobs:         hello-29453761" in at_2 and at_2.count("SuccessfulCreate") == 1
    assert "Last Schedule Time:  Thu, 01 Jan 2026 00:03:00 +0000" in describe_cronjob(tr)


def test_describe_leaves_out_events_a_cluster_dropped_an_hour_after_their_last_write() -> None:
    """kube-apiserver keeps an Event for --event-ttl (1 h) after its last write: after three hours of
    an every-minute CronJob, describe lists the Events written in the last hour, as on a cluster. An
    Event written again within the hour (the aggregated "combined from similar events" one, a count
    raised) keeps its whole history."""
    from pathlib import Path

    from k8sjobs import Run, describe_cronjob
    from k8sjobs.api.events import EVENT_TTL

    assert EVENT_TTL == 3600.0
    run = Run((Path(__file__).parents[2] / "examples" / "cronjob" / "hello.yaml").read_text(), max_time=3 * 3600)
    tr = run.trace_of("cronjob/default/hello")

    def rows(cycle: int) -> list[str]:
        text = describe_cronjob(tr, cycle)
        return [line for line in text.split("Events:")[1].splitlines()[3:] if line.strip()]

    def last_writes(t: float) -> dict[str, tuple[float, float, str]]:
        objs: dict[str, tuple[float, float, str]] = {}
        for e in tr.events:
            if e.t <= t:
                first = objs.get(e.name, (e.t,))[0]
                objs[e.name] = (first, e.t, e.message)
        return objs

    for cycle in (len(tr.cycles), next(c.index for c in tr.cycles if c.t >= 2 * 3600)):
        now = tr.cycles[cycle - 1].t
        objs = last_writes(now)
        alive = {n: o for n, o in objs.items() if now - o[1] <= EVENT_TTL}
        gone = {n: o for n, o in objs.items() if now - o[1] > EVENT_TTL}
        assert gone and alive, cycle
        assert len(rows(cycle)) == len(alive), cycle
        shown = "\n".join(rows(cycle))
        assert all(o[2] not in shown for o in gone.values() if o[2] not in {a[2] for a in alive.values()})
    combined = [o for o in last_writes(tr.cycles[-1].t).values() if o[2].startswith("(combined")]
    assert any(tr.cycles[-1].t - first > EVENT_TTL for first, _, _ in combined), "a renewed Event older than the TTL"
