"""One cluster, many objects: several Jobs in one run, read as ``kubectl apply -f`` reads a file."""

from __future__ import annotations

import json

import pytest

from k8sjobs import Run, validate
from k8sjobs.api.errors import DecodeError, InvalidError
from k8sjobs.sim import Simulation, SimulationError, check_manifest, load_jobs
from k8sjobs.trace.text import render_run, render_trace
from tests.manifests import DURATION, job_manifest


def job_yaml(name: str, completions: int, parallelism: int, duration: str = "10s") -> str:
    return job_manifest(name, completions=completions, parallelism=parallelism, annotations={DURATION: duration},
                        container="work")


TWO = job_yaml("render", 4, 2) + "---\n" + job_yaml("encode", 3, 3)


def running_at_once(run: Run) -> list[tuple[float, int]]:
    """(time, pods bound to a node and not finished) after every API change of the run."""
    live: dict[str, bool] = {}
    out = []
    for ch in run.cluster.first.changes:
        if ch.kind != "Pod":
            continue
        pod = ch.obj
        if ch.type == "DELETED" or pod.status.phase in ("Succeeded", "Failed"):
            live.pop(pod.metadata.uid, None)
        elif pod.spec.node_name:
            live[pod.metadata.uid] = True
        out.append((ch.t, len(live)))
    return out


def test_two_jobs_on_one_node_of_three_slots_both_complete_and_never_run_more_than_three_pods() -> None:
    run = Run(TWO, nodes=1, pods_per_node=3)
    render, encode = run.cluster.jobs()
    assert (render.job_name, encode.job_name) == ("render", "encode")
    assert render.finished and encode.finished
    assert render.final_job.status.succeeded == 4 and encode.final_job.status.succeeded == 3
    counts = [n for _t, n in running_at_once(run)]
    assert max(counts) == 3
    # Somebody waited: a pod was unschedulable, and the note is in its own Job's trace.
    waits = [n for tr in (render, encode) for n in tr.notes if n.rule == "cluster.unschedulable"]
    assert waits
    for tr in (render, encode):
        for n in tr.notes:
            if n.rule == "cluster.unschedulable":
                assert n.fields["pod"].startswith(tr.job_name + "-")


def test_every_sync_is_recorded_with_its_object_in_the_order_it_ran() -> None:
    run = Run(TWO, nodes=1, pods_per_node=3)
    syncs = run.cluster.syncs
    assert {k for k, _i in syncs} == {"default/render", "default/encode"}
    for key in ("default/render", "default/encode"):
        mine = [i for k, i in syncs if k == key]
        assert mine == list(range(1, len(run.cluster.traces[key].cycles) + 1))
    times = [run.cluster.traces[k].cycles[i - 1].t for k, i in syncs]
    assert times == sorted(times)


def test_the_text_trace_names_the_object_of_each_sync_and_ends_with_get_jobs_and_describe_of_each() -> None:
    text = render_run(Run(TWO, nodes=1, pods_per_node=3).cluster)
    lines = text.splitlines()
    assert lines[0].startswith("k8sjobs run: job.batch/render, job.batch/encode  seed=0  nodes=1x3")
    assert lines[1].split()[:2] == ["OBJECT", "CYCLE"]
    assert lines[2].split()[:2] == ["job/render", "1"]
    assert any(ln.split()[:2] == ["job/encode", "1"] for ln in lines)
    get = lines.index("$ kubectl get jobs")
    assert lines[get + 1].split() == ["NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"]
    assert [ln.split()[:3] for ln in lines[get + 2:get + 4]] == [["render", "Complete", "4/4"],
                                                                 ["encode", "Complete", "3/3"]]
    assert "$ kubectl describe job render" in lines and "$ kubectl describe job encode" in lines


def test_a_run_of_one_job_renders_as_it_always_did() -> None:
    run = Run(job_yaml("solo", 2, 1), nodes=1)
    assert render_run(run.cluster) == render_trace(run.trace)


@pytest.mark.parametrize("form", ["yaml documents", "v1 List", "json stream", "json List"])
def test_a_file_of_several_objects_is_read_in_every_form_kubectl_takes(form: str) -> None:
    import yaml

    docs = list(yaml.safe_load_all(TWO))
    text = {
        "yaml documents": TWO,
        "v1 List": yaml.safe_dump({"apiVersion": "v1", "kind": "List", "items": docs}),
        "json stream": "\n".join(json.dumps(d) for d in docs),
        "json List": json.dumps({"apiVersion": "v1", "kind": "List", "items": docs}),
    }[form]
    loaded = load_jobs(text)
    assert [j.metadata.name for _label, j in loaded] == ["render", "encode"]
    run = Run(text, nodes=1, pods_per_node=3)
    assert render_run(run.cluster) == render_run(Run(TWO, nodes=1, pods_per_node=3).cluster)


def test_an_invalid_second_object_names_its_document_and_nothing_is_created() -> None:
    bad = job_yaml("render", 4, 2) + "---\n" + job_yaml("encode", 3, -1)
    with pytest.raises(InvalidError) as err:
        Simulation(bad)
    assert err.value.where == 'document 2 (job "encode")'
    assert str(err.value).startswith('document 2 (job "encode"): The Job "encode" is invalid: spec.parallelism')
    assert validate(bad) == ['document 2 (job "encode"): spec.parallelism: Invalid value: -1: '
                             'must be greater than or equal to 0']


def test_a_document_that_cannot_be_decoded_names_its_place() -> None:
    bad = job_yaml("render", 4, 2) + "---\n" + job_yaml("encode", 3, 3).replace("completions", "completion")
    with pytest.raises(DecodeError) as err:
        Simulation(bad)
    assert err.value.reason.startswith('<manifest>: document 2 (job "encode"): Job in version "v1" cannot be handled')
    assert [str(e) for e in err.value.errors] == ["spec.completion: Unknown field"]


def test_two_objects_of_one_name_are_refused_as_the_second_create_would_be() -> None:
    checked = check_manifest(job_yaml("x", 1, 1) + "---\n" + job_yaml("x", 2, 1))
    assert checked[0].error is None
    assert str(checked[1].error) == 'document 2 (job "x"): The Job "x" is invalid: metadata.name: Duplicate value: "x"'


def test_actions_act_on_the_job_they_name_and_replay_exactly() -> None:
    run = Run(TWO, nodes=1, pods_per_node=3)
    fork = run.fork(1, "suspend", job="encode")
    encode = fork.trace_of("encode")
    assert encode.final_job.spec.suspend is True and not encode.finished
    assert fork.trace_of("render").finished
    assert fork.actions[-1].kwargs == (("job", "encode"),)
    again = Run(TWO, nodes=1, pods_per_node=3, actions=fork.actions)
    assert render_run(again.cluster) == render_run(fork.cluster)
    with pytest.raises(SimulationError, match='job "nope" not found; Jobs of this run: render, encode'):
        run.fork(1, "suspend", job="nope")


def test_an_action_on_the_first_job_records_no_job_name() -> None:
    run = Run(TWO, nodes=1, pods_per_node=3).fork(1, "suspend")
    assert run.actions[-1].kwargs == ()
    assert run.trace.final_job.spec.suspend is True


def test_a_pod_fault_finds_the_pod_in_any_job() -> None:
    run = Run(TWO, nodes=1, pods_per_node=3, lazy=True)
    run.extend(3)
    pod = run.trace_of("encode").state_at(1).pods[0].metadata.name
    fork = run.fork(2, "delete_pod", name=pod)
    assert any(n.rule == "action.delete_pod" for n in fork.trace_of("encode").notes)
    assert not any(n.rule == "action.delete_pod" for n in fork.trace_of("render").notes)


def test_budgets_count_the_cycles_of_every_job() -> None:
    run = Run(TWO, nodes=1, pods_per_node=3, max_cycles=5)
    assert run.limit is not None and run.limit.limit == "max_cycles"
    assert sum(len(t.cycles) for t in run.cluster.jobs()) == 5


# ----------------------------------------------------------------------------- one validation path

def _malformed() -> list:
    """Every malformed manifest of the test suite's validate and run tables, and more with several objects."""
    import test_run_cli
    import test_validate_cli

    out = [pytest.param(c, id="validate: " + i) for i, c, status, _lines in test_validate_cli.CASES if status == 1]
    for p in test_run_cli.BAD_FILES:
        name, content, _message = p.values
        if isinstance(content, bytes):
            out.append(pytest.param(content.decode("utf-8", "replace") if name != "latin1.yaml" else content,
                                    id="run: " + p.id))
    banana = job_yaml("banana", 1, 1, duration="banana")
    out += [
        pytest.param(banana, id="a duration that is not a duration"),
        pytest.param(job_yaml("ok", 1, 1) + "---\n" + banana, id="the second of two objects is invalid"),
        pytest.param(job_yaml("x", 1, 1) + "---\n" + job_yaml("x", 1, 1), id="two objects of one name"),
        pytest.param(job_yaml("ok", 1, 1) + "---\n- 1\n", id="a list among the documents"),
        pytest.param('{"apiVersion": "v1", "kind": "List", "items": 3}', id="a List whose items are not a list"),
    ]
    return out


@pytest.mark.parametrize("content", _malformed())
def test_validate_run_and_the_python_api_agree_on_every_malformed_manifest(content, tmp_path, capsys) -> None:
    from k8sjobs.cli import main

    problems = validate(content if isinstance(content, str) else content.decode("latin-1"), "m.yaml") \
        if isinstance(content, str) else None
    path = tmp_path / "m.yaml"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    assert main(["validate", str(path)]) == 1
    said_validate = capsys.readouterr().err
    assert main(["run", str(path), "--format", "none"]) == 1
    said_run = capsys.readouterr().err
    for said in (said_validate, said_run):
        assert said and "Traceback" not in said
    if problems is not None:
        assert problems, "k8sjobs.validate() found nothing wrong"
        # The same field paths (or the same reading error) in all three.
        for line in problems:
            key = line.split(": ")[1] if line.startswith("document ") else line.split(": ")[0]
            if key.startswith(str(path)) or key == "m.yaml":
                key = line.split(": ", 2)[-1][:40]
            for said in (said_validate, said_run):
                assert key in said, (key, said)


def test_a_valid_file_of_several_objects_gets_one_verdict_each(tmp_path, capsys) -> None:
    from k8sjobs.cli import main

    path = tmp_path / "two.yaml"
    path.write_text(TWO)
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == ["job.batch/render valid", "job.batch/encode valid"]
    bad = tmp_path / "bad.yaml"
    bad.write_text(job_yaml("ok", 1, 1) + "---\n" + job_yaml("ok", 1, 1))
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr()
    assert out.out.splitlines() == ["job.batch/ok valid"]
    assert out.err.splitlines() == ['document 2 (job "ok"): The Job "ok" is invalid: metadata.name: Duplicate value: "ok"']
