"""ExplorerState on its own (no widgets): moving in time, the status line, faults by forking, YAML apply."""

from __future__ import annotations

import re

import pytest
from conftest import INDEXED, SAMPLE

from k8sjobs import Run
from k8sjobs.widgets.state import BEFORE_FIRST_CYCLE, ExplorerState, format_seconds

STATUS_RE = re.compile(r"^cycle (\d+) of (\d+) · t=(\d+(?:\.\d{1,3})?) s · (\S.*)$")


@pytest.fixture
def state() -> ExplorerState:
    return ExplorerState(SAMPLE, seed=0, nodes=3)


def test_status_line_reads_cycle_n_of_m_time_and_reason(state):
    assert state.n_cycles == 12
    assert state.status_line() == f"cycle 0 of 12 · t=0 s · {BEFORE_FIRST_CYCLE}"
    assert state.step() is True
    assert state.status_line() == "cycle 1 of 12 · t=0 s · creating 3 pods in slow-start batches 1, 2, 4, ..."
    state.seek(5)
    assert state.status_line() == ("cycle 5 of 12 · t=5.509 s · waiting 9.652 s: backoff after 1 failure "
                                   "(delay 10 s since the last failure at t=5.161 s)")


def test_every_status_line_has_the_shape_and_the_cycles_headline(state):
    for k in range(state.n_cycles + 1):
        state.seek(k)
        m = STATUS_RE.match(state.status_line())
        assert m, state.status_line()
        assert (int(m[1]), int(m[2])) == (k, state.n_cycles)
        if k:
            c = state.run.cycle(k)
            assert float(m[3]) == pytest.approx(c.t, abs=5e-4)
            assert m[4] == " ".join(c.headline.reason.split())


@pytest.mark.parametrize("t, text", [(0.0, "0"), (1.0, "1"), (1.5, "1.5"), (6.509000000001, "6.509"),
                                     (12.1254, "12.125"), (0.0004, "0")])
def test_seconds_have_at_most_three_decimals(t, text):
    assert format_seconds(t) == text


def test_step_and_back_stop_at_the_ends(state):
    assert state.back() is False and state.cycle == 0
    for _ in range(state.n_cycles):
        assert state.step() is True
    assert state.at_end and state.step() is False and state.cycle == 12
    assert state.back() is True and state.cycle == 11


@pytest.mark.parametrize("bad, message", [
    (13, "cycle 13 does not exist: this run has cycles 0 to 12"),
    (-1, "cycle -1 does not exist: this run has cycles 0 to 12"),
    (True, "cycle: must be a whole number between 0 and 12, got True"),
    (2.5, "cycle: must be a whole number between 0 and 12, got 2.5"),
    ("three", "cycle: must be a whole number between 0 and 12, got 'three'"),
])
def test_seek_to_a_cycle_that_does_not_exist_keeps_the_cycle(state, bad, message):
    state.seek(4)
    assert state.seek(bad) == [message]
    assert state.last_error == [message]
    assert state.cycle == 4
    assert state.seek("7") == [] and state.cycle == 7 and state.last_error == []


def test_start_cycle_and_reset(state):
    assert ExplorerState(SAMPLE, start_cycle=3).cycle == 3
    assert ExplorerState(SAMPLE, start_cycle=-1).cycle == 12
    assert ExplorerState(SAMPLE, start_cycle=99).cycle == 12
    state.seek(4)
    assert state.act("fail_pod", name=state.pods()[0], exit_code=7) == []
    assert state.apply_yaml(SAMPLE.replace("parallelism: 3", "parallelism: 2")) == []
    state.reset()
    assert state.cycle == 0 and state.actions == [] and state.manifest_text == SAMPLE
    assert state.status_line() == ExplorerState(SAMPLE).status_line()
    assert state.n_cycles == 12


def test_explanation_lists_the_cycles_decisions_with_rule_ids(state):
    assert state.explanation().startswith(f"Cycle 0 of 12, t=0 s: {BEFORE_FIRST_CYCLE}.")
    state.seek(1)
    text = state.explanation()
    first = text.splitlines()[0]
    assert first == ("Cycle 1 of 12, t=0 s: creating 3 pods in slow-start batches 1, 2, 4, ... [create.plan]")
    for d in state.run.cycle(1).decisions:
        assert f"[{d.rule}] {d.reason}" in text
    assert "Event Normal SuccessfulCreate: Created pod: " in text
    state.seek(5)
    assert "[backoff.wait]" in state.explanation()
    assert "It asked to be synced again in 9.652 s." in state.explanation()


def test_pods_and_nodes_at_the_cycle(state):
    assert state.pods() == [] and state.nodes() == ["node-1", "node-2", "node-3"]
    state.seek(1)
    assert len(state.pods()) == 3 and set(state.pod_phases().values()) == {"Pending"}
    state.seek(5)
    assert sorted(state.pod_phases().values()) == ["Failed", "Succeeded", "Succeeded"]
    state.seek(7)
    assert len(state.pods()) == 6


def test_fail_a_pod_at_a_past_cycle_forks_the_run_there(state):
    state.seek(3)
    old_run = state.run
    before = [state.run.cycle(k).headline.reason for k in range(1, 4)]
    pod = state.pods()[1]
    assert state.pod_phases()[pod] == "Running"
    assert state.act("fail_pod", name=pod, exit_code=42) == []
    assert state.run is not old_run
    assert state.cycle == 3, "acting keeps the cycle; stepping shows the effect"
    assert [state.run.cycle(k).headline.reason for k in range(1, 4)] == before, "the past is kept"
    assert [a.describe() for a in state.actions] == [
        f"fail_pod(condition=None, container=None, exit_code=42, name='{pod}')"]
    assert state.notice.startswith(f"fail_pod(name='{pod}', exit_code=42) applied right after cycle 3: "
                                   "the run was forked there")
    state.step()
    assert state.pod_phases()[pod] == "Failed"
    assert state.current.after.failed >= 1
    assert "Learner action right after this cycle" not in state.explanation()
    state.back()
    assert "Learner action right after this cycle: fail_pod(" in state.explanation()


def test_a_later_fork_drops_actions_after_the_fork_point(state):
    state.seek(3)
    assert state.act("fail_next_creates", n=1) == []
    state.seek(8)
    assert state.act("set_informer_lag", seconds=2.0) == []
    assert [a.name for a in state.actions] == ["fail_next_creates", "set_informer_lag"]
    state.seek(2)
    assert state.act("set_pod_quota", pods=4) == []
    assert [a.name for a in state.actions] == ["set_pod_quota"]


@pytest.mark.parametrize("action, kwargs", [
    ("evict_pod", {"name": 0}), ("delete_pod", {"name": 0}), ("lose_node", {"name": "node-2"}),
    ("add_node", {}), ("fail_next_creates", {"n": 2}), ("set_pod_quota", {"pods": 1}),
    ("set_informer_lag", {"seconds": 1.5}), ("set_status_conflicts", {"n": 1}), ("suspend", {}),
    ("scale", {"parallelism": 1}), ("scale", {"parallelism": 5}),
])
def test_each_fault_applies_at_the_current_cycle(state, action, kwargs):
    state.seek(3)
    if kwargs.get("name") == 0:
        kwargs = {"name": state.pods()[0]}
    assert state.act(action, **kwargs) == [], state.last_error
    assert [a.name for a in state.actions] == [action]
    assert state.actions[0].cycle == 3
    assert state.cycle == 3


def test_suspend_then_resume(state):
    state.seek(3)
    assert state.act("suspend") == []
    state.step()
    assert state.status_line() == ("cycle 4 of 6 · t=3 s · condition Suspended=True (JobSuspended): "
                                   "spec.suspend is true, so no pods run")
    assert state.current.after.active == 0
    state.seek(6)
    assert state.act("resume") == []
    state.step()
    assert state.status_line().startswith("cycle 7 of 16 · t=5 s · condition Suspended=False (JobResumed)")
    assert [a.name for a in state.actions] == ["suspend", "resume"]
    assert state.run.trace.finished


@pytest.mark.parametrize("action, kwargs, message", [
    ("fail_pod", {"name": "nope"}, 'pod "nope" not found; pods of this Job: '),
    ("fail_pod", {"name": 0, "exit_code": 300}, "exit_code: must be an integer between 0 and 255, got 300"),
    ("fail_pod", {"name": 0, "bogus": 1}, "fail_pod() got an unexpected keyword argument 'bogus'"),
    ("lose_node", {"name": "node-9"}, "node 'node-9' is not a ready node; ready nodes: node-1, node-2, node-3"),
    ("fail_next_creates", {"n": -1}, "n: must be an integer between 0 and 100000, got -1"),
    ("set_informer_lag", {"seconds": -2}, "seconds: must be between 0 and 3600, got -2"),
    ("scale", {"parallelism": -1}, 'The Job "sample" is invalid: spec.parallelism: Invalid value: -1: '
                                   "must be greater than or equal to 0"),
    ("explode", {}, "unknown action 'explode'; actions: "),
])
def test_a_refused_action_keeps_everything_and_says_why(state, action, kwargs, message):
    state.seek(3)
    if kwargs.get("name") == 0:
        kwargs = {**kwargs, "name": state.pods()[0]}
    run, cycle = state.run, state.cycle
    seen = []
    state.on_change(seen.append)
    errors = state.act(action, **kwargs)
    assert errors and errors[0].startswith(message), errors
    assert state.last_error == errors
    assert state.run is run and state.cycle == cycle and state.actions == []
    assert seen == ["error"]
    assert "Traceback" not in "\n".join(errors)


def test_apply_yaml_recreates_the_job_from_the_edited_manifest(state):
    state.seek(2)
    edited = SAMPLE.replace("parallelism: 3", "parallelism: 5")
    assert state.apply_yaml(edited) == []
    assert state.manifest_text == edited
    assert state.cycle == 2, "the cycle number is kept (clamped to the new run)"
    assert state.run.cycle(1).headline.reason == "creating 5 pods in slow-start batches 1, 2, 4, ..."
    assert state.notice.startswith("applied: the Job was created again from the edited manifest")


@pytest.mark.parametrize("edit, lines", [
    (lambda t: t.replace("parallelism: 3", "parallelism: -1"),
     ['The Job "sample" is invalid: spec.parallelism: Invalid value: -1: must be greater than or equal to 0']),
    (lambda t: t.replace("parallelism: 3", "parallelism: -1").replace("completions: 5", "completions: -2"),
     ['The Job "sample" is invalid:', "* spec.parallelism: Invalid value: -1: must be greater than or equal to 0",
      "* spec.completions: Invalid value: -2: must be greater than or equal to 0"]),
    (lambda t: t.replace("restartPolicy: Never", "restartPolicy: Always"),
     ['The Job "sample" is invalid: spec.template.spec.restartPolicy: Required value: '
      'valid values: "OnFailure", "Never"']),
    (lambda t: "spec: [1", ["<manifest>: not YAML: line 1, column 9: expected ',' or ']', but got '<stream end>'"]),
    (lambda t: t.replace("apiVersion: batch/v1\n", ""),
     ["<manifest>: apiVersion is missing: expected 'apiVersion: batch/v1'"]),
    (lambda t: "   \n", ["error: no objects passed to apply (the manifest is empty)"]),
])
def test_a_refused_manifest_keeps_the_old_state_with_the_api_servers_words(state, edit, lines):
    state.seek(4)
    run, text = state.run, state.manifest_text
    assert state.apply_yaml(edit(SAMPLE)) == lines
    assert state.last_error == lines
    assert state.run is run and state.manifest_text == text and state.cycle == 4


def test_apply_to_the_running_job_checks_immutable_fields_and_forks(state):
    state.seek(3)
    errors = state.apply_yaml(SAMPLE.replace("image: busybox", "image: alpine"), mode="edit")
    assert errors[0].startswith('The Job "sample" is invalid: spec.template: Invalid value: ')
    assert errors[0].endswith(": field is immutable")
    assert state.actions == []
    assert state.apply_yaml(SAMPLE.replace("parallelism: 3", "parallelism: 1"), mode="edit") == []
    assert [a.name for a in state.actions] == ["edit"] and state.cycle == 3
    assert "forked there" in state.notice
    assert state.apply_yaml(SAMPLE, mode="sideways") == [
        'mode: Unsupported value: "sideways": supported values: "recreate", "edit"']


def test_configure_reruns_under_other_settings(state):
    assert state.configure(nodes=1) == [] and state.config.nodes == 1
    assert state.configure(nodes=-1) == [
        "invalid simulation settings: nodes: must be an integer between 0 and 10000, got -1"]
    assert state.config.nodes == 1


def test_listeners_hear_cycle_run_and_error_changes(state):
    seen: list[str] = []
    state.on_change(seen.append)
    state.step()
    state.back()
    state.back()  # at cycle 0: nothing happens, nothing is announced
    state.seek(99)
    state.seek(3)
    state.act("add_node")
    state.reset()
    assert seen == ["cycle", "cycle", "error", "cycle", "run", "run"]


def test_manifest_from_a_path_a_dict_and_a_job():
    from k8sjobs import load_job

    from_path = ExplorerState(str(INDEXED))
    assert from_path.manifest_text == INDEXED.read_text()
    import yaml

    doc = yaml.safe_load(SAMPLE)
    assert ExplorerState(doc).status_line() == ExplorerState(SAMPLE).status_line()
    assert ExplorerState(load_job(SAMPLE)).n_cycles == 12


def test_an_invalid_starting_manifest_or_setting_is_a_clear_value_error():
    with pytest.raises(ValueError, match=r"(?s)the manifest is not a valid Job:\nThe Job \"sample\" is invalid: "
                                         r"spec.parallelism: Invalid value: -1"):
        ExplorerState(SAMPLE.replace("parallelism: 3", "parallelism: -1"))
    with pytest.raises(ValueError, match="nodes: must be an integer between 0 and 10000, got -3"):
        ExplorerState(SAMPLE, nodes=-3)


def test_same_inputs_same_lines():
    a, b = ExplorerState(SAMPLE, seed=3), ExplorerState(SAMPLE, seed=3)
    for _ in range(a.n_cycles):
        a.step(), b.step()
        assert a.status_line() == b.status_line() and a.explanation() == b.explanation()


def test_run_fork_takes_actions_with_a_name_argument():
    """Regression: Simulation.apply(name, **kwargs) clashed with fail_pod(name=...) and friends."""
    run = Run(SAMPLE)
    pod = run.state_at(3).pods[0].metadata.name
    forked = run.fork(3, "fail_pod", name=pod, exit_code=3)
    replayed = Run(SAMPLE, actions=forked.actions)
    assert [c.headline.reason for c in replayed.cycles] == [c.headline.reason for c in forked.cycles]
    assert run.fork(3, "lose_node", name="node-1").actions[0].name == "lose_node"


WIDE = """\
apiVersion: batch/v1
kind: Job
metadata: {name: wide}
spec:
  completions: 600
  parallelism: 100
  template:
    metadata: {annotations: {sim.k8sjobs.io/duration: 30s..60s}}
    spec: {restartPolicy: Never, containers: [{name: w, image: b}]}
"""
"""A run too big to fork to its end on the click (more than EAGER_FORK_WORK): the dashboard forks it lazily."""


def test_a_big_run_forks_lazily_shows_m_plus_until_the_end_and_ends_as_the_whole_fork_does():
    from k8sjobs.trace import render_trace
    from k8sjobs.trace.run import work_done
    from k8sjobs.widgets.state import EAGER_FORK_WORK

    state = ExplorerState(WIDE, seed=0, nodes=2)
    first = state.run
    assert work_done(first.sim) > EAGER_FORK_WORK and state.final
    state.seek(40)
    pod = next(n for n, phase in state.pod_phases().items() if phase == "Running")
    assert state.act("fail_pod", name=pod, exit_code=3) == []
    assert not state.final and len(state.run) == 41, "the click simulates only up to the forked cycle"
    assert state.status_line().startswith("cycle 40 of 41+ · ")
    assert "cycle 41 is ready and the cycles after it are simulated as you step" in state.notice
    assert state.step() and state.cycle == 41 and state.current.index == 41
    assert len(state.run) > 41, "each move simulates a little ahead"
    while state.step():
        assert state.status_line().startswith(f"cycle {state.cycle} of {state.n_cycles}")
    assert state.final and state.at_end and re.match(rf"cycle {state.n_cycles} of {state.n_cycles} · ",
                                                     state.status_line())
    whole = first.fork(40, "fail_pod", name=pod, exit_code=3)
    assert render_trace(state.run.trace) == render_trace(whole.trace), "the same run, simulated in slices"
    state.reset()
    assert state.run is first and state.final, "Reset returns to the first run without simulating"


def test_seeking_past_what_a_lazy_fork_has_simulated_extends_it():
    state = ExplorerState(WIDE, seed=0, nodes=2)
    state.seek(10)
    assert state.act("scale", parallelism=50) == [] and not state.final
    assert state.seek(200) == [] and state.cycle == 200 and len(state.run) >= 200
    assert state.seek(10**6) != [] and state.cycle == 200, "a cycle past the end is refused; nothing moves"
