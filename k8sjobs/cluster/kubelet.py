"""Pod lifecycle on a simulated node: the kubelet's status changes as pure functions.

Each function takes a pod and a time and returns the pod as the kubelet would write it:
scheduled, started (Running and Ready), a container restarted in place
(restartPolicy OnFailure), finished (Succeeded or Failed with exit codes and finish
times), or stopped after a deletion. The simulated kubelet (:mod:`.cluster`) and the
conformance harness both use them, so a pod that "fails" looks the same everywhere.

Init containers: a regular init container has run to completion (exit 0) by the time the
pod starts; a *native sidecar* (an init container with ``restartPolicy: Always``) keeps
running beside the regular containers. The pod's phase follows the kubelet's ``getPhase``
(pkg/kubelet/kubelet_pods.go): while any regular or sidecar container runs the pod is
Running; once none does, it is Succeeded when every regular container exited 0, else
Failed, and the exit codes of sidecars do not count. The kubelet stops the sidecars only
after the last regular container has exited (:func:`stop_sidecars`).
"""

from __future__ import annotations

from typing import Any

from ..api.types import (
    ConditionStatus,
    ContainerState,
    ContainerStateRunning,
    ContainerStateTerminated,
    ContainerStateWaiting,
    ContainerStatus,
    Phase,
    Pod,
    PodCondition,
    evolve,
)

EXIT_SIGTERM = 143
EXIT_SIGKILL = 137
POD_DEADLINE_REASON = "DeadlineExceeded"
POD_DEADLINE_MESSAGE = "Pod was active on the node longer than the specified deadline"


def set_condition(pod: Pod, ctype: str, status: str, t: float, reason: str = "", message: str = "") -> Pod:
    """Set (or replace) one pod condition; the transition time moves only when the status changes."""
    return set_conditions(pod, t, ((ctype, status, reason, message),))


def set_conditions(pod: Pod, t: float, changes: tuple[tuple[str, str, str, str], ...]) -> Pod:
    """Set several conditions ``(type, status, reason, message)`` in one write."""
    conds = merged_conditions(pod.status.conditions, t, changes)
    if conds is None:
        return pod
    return evolve(pod, status=evolve(pod.status, conditions=conds))


def merged_conditions(current: tuple[PodCondition, ...], t: float,
                      changes: tuple[tuple[str, str, str, str], ...]) -> tuple[PodCondition, ...] | None:
    """``current`` with ``changes`` applied (None when nothing changes)."""
    conds = list(current)
    changed = False
    for ctype, status, reason, message in changes:
        for i, c in enumerate(conds):
            if c.type == ctype:
                if c.status == status and c.reason == reason and c.message == message:
                    break
                ltt = c.last_transition_time if c.status == status else t
                conds[i] = PodCondition(type=ctype, status=status, last_transition_time=ltt, reason=reason,
                                        message=message)
                changed = True
                break
        else:
            conds.append(PodCondition(type=ctype, status=status, last_transition_time=t, reason=reason,
                                      message=message))
            changed = True
    return tuple(conds) if changed else None


def container_names(pod: Pod) -> list[str]:
    """The regular containers of the pod (one called "main" when the template names none)."""
    return [c.name for c in pod.spec.containers] or ["main"]


def sidecar_names(pod: Pod) -> list[str]:
    """The pod's native sidecars: init containers with ``restartPolicy: Always``, in spec order.

    Mirrors ``IsRestartableInitContainer`` (pkg/api/v1/pod).
    """
    return [c.name for c in pod.spec.init_containers or () if c.restart_policy == "Always"]


def bind(pod: Pod, node: str, t: float) -> Pod:
    """The scheduler assigned the pod to ``node``, and the node's kubelet accepted it.

    The kubelet sets ``status.startTime`` when it first handles the pod, before any image is
    pulled or container started (the pod-level ``activeDeadlineSeconds`` counts from it).
    """
    conds = merged_conditions(pod.status.conditions, t, (("PodScheduled", ConditionStatus.TRUE, "", ""),))
    changes: dict[str, Any] = {} if conds is None else {"conditions": conds}
    if pod.status.start_time is None:
        changes["start_time"] = t
    status = evolve(pod.status, **changes) if changes else pod.status  # (one copy for both fields)
    return evolve(pod, spec=evolve(pod.spec, node_name=node), status=status)


def unschedulable(pod: Pod, t: float, message: str) -> Pod:
    """No node has room: PodScheduled=False, reason Unschedulable."""
    return set_condition(pod, "PodScheduled", ConditionStatus.FALSE, t, "Unschedulable", message)


def _init_statuses_at_start(pod: Pod, t: float, ready: bool) -> tuple[ContainerStatus, ...]:
    """Init container statuses once the regular containers start (kept as they are on a restart in place)."""
    if pod.status.init_container_statuses or not pod.spec.init_containers:
        return pod.status.init_container_statuses
    out = []
    for c in pod.spec.init_containers:
        if c.restart_policy == "Always":
            out.append(ContainerStatus(name=c.name, ready=ready, started=True,
                                       state=ContainerState(running=ContainerStateRunning(started_at=t))))
        else:
            done = ContainerStateTerminated(exit_code=0, reason="Completed", started_at=t, finished_at=t)
            out.append(ContainerStatus(name=c.name, ready=True, started=False, state=ContainerState(terminated=done)))
    return tuple(out)


def start(pod: Pod, t: float, *, ready: bool = True, restarted: bool = False) -> Pod:
    """Containers run; the pod is Running (and Ready unless ``ready`` is false).

    Regular init containers have completed and native sidecars run (they start first, in
    spec order; the simulation folds that into the pod's start latency).

    ``restarted``: the containers that had exited are started again in place (restartPolicy
    OnFailure); the kubelet gives a new container the old restartCount + 1 when it creates
    it, so the count grows at the restart, not at the crash. Containers still running keep
    their status.
    """
    old = {s.name: s for s in pod.status.container_statuses}
    statuses = []
    for n in container_names(pod):
        prev = old.get(n)
        if restarted and prev is not None and prev.state.running is not None:
            statuses.append(evolve(prev, ready=ready))
            continue
        bump = 1 if restarted and prev is not None else 0
        # A container restarted at once still shows its exit as its state: that becomes lastState.
        last = (prev.state if restarted and prev.state.terminated is not None else prev.last_state) \
            if prev is not None else ContainerState()
        statuses.append(ContainerStatus(name=n, ready=ready, started=True,
                                        restart_count=(prev.restart_count if prev is not None else 0) + bump,
                                        last_state=last,
                                        state=ContainerState(running=ContainerStateRunning(started_at=t))))
    state = ConditionStatus.TRUE if ready else ConditionStatus.FALSE
    conds = merged_conditions(pod.status.conditions, t, (("Initialized", ConditionStatus.TRUE, "", ""),
                                                          ("ContainersReady", state, "", ""), ("Ready", state, "", "")))
    return evolve(pod, status=evolve(pod.status, phase=Phase.RUNNING,
                                     start_time=pod.status.start_time if pod.status.start_time is not None else t,
                                     init_container_statuses=_init_statuses_at_start(pod, t, ready),
                                     container_statuses=tuple(statuses),
                                     conditions=pod.status.conditions if conds is None else conds))


def container_exited(pod: Pod, t: float, exit_code: int, *, waiting: bool,
                     keep_running: frozenset[str] = frozenset()) -> Pod:
    """restartPolicy OnFailure: the containers exited ``exit_code`` and will be restarted in place.

    The pod stays Running but not Ready, and the restartCount does not change yet. While the
    restart waits for the back-off (``waiting``) a container shows ``waiting: CrashLoopBackOff``
    with the exit in ``lastState``; a restart at once shows the exit as its state. Containers
    named in ``keep_running`` did not exit and keep their status.
    """
    statuses = []
    for s in pod.status.container_statuses:
        if s.name in keep_running and s.state.running is not None:
            statuses.append(s)
            continue
        started = s.state.running.started_at if s.state.running else None
        term = ContainerState(terminated=ContainerStateTerminated(exit_code=exit_code, reason="Error",
                                                                  started_at=started, finished_at=t))
        state = ContainerState(waiting=ContainerStateWaiting(reason="CrashLoopBackOff")) if waiting else term
        statuses.append(evolve(s, ready=False, started=False, last_state=term if waiting else s.last_state,
                               state=state))
    conds = merged_conditions(pod.status.conditions, t, (("ContainersReady", ConditionStatus.FALSE, "", ""),
                                                          ("Ready", ConditionStatus.FALSE, "", "")))
    return evolve(pod, status=evolve(pod.status, container_statuses=tuple(statuses),
                                     conditions=pod.status.conditions if conds is None else conds))


def _terminated(prev: ContainerStatus | None, name: str, t: float, code: int, reason: str | None) -> ContainerStatus:
    started = prev.state.running.started_at if prev is not None and prev.state.running else None
    term = ContainerStateTerminated(exit_code=code, reason=reason or ("Completed" if code == 0 else "Error"),
                                    started_at=started, finished_at=t)
    return ContainerStatus(name=name, ready=False, started=False,
                           restart_count=prev.restart_count if prev is not None else 0,
                           last_state=prev.last_state if prev is not None else ContainerState(),
                           state=ContainerState(terminated=term))


def _settle(pod: Pod, t: float, statuses: tuple[ContainerStatus, ...],
            init_statuses: tuple[ContainerStatus, ...]) -> Pod:
    """The pod with these container statuses, its phase and readiness as the kubelet computes them.

    Mirrors the terminal branch of ``getPhase``: a running regular or sidecar container keeps
    the pod Running (not Ready); otherwise Succeeded when every regular container exited 0,
    else Failed (sidecar exit codes are ignored).
    """
    sidecars = set(sidecar_names(pod))
    busy = [s.name for s in statuses if s.state.running is not None]
    busy_sidecars = [s.name for s in init_statuses if s.name in sidecars and s.state.running is not None]
    if busy or busy_sidecars:
        unready = [s.name for s in statuses if s.state.running is None]
        message = "containers with unready status: [" + " ".join(unready) + "]"
        conds = merged_conditions(pod.status.conditions, t,
                                  (("ContainersReady", ConditionStatus.FALSE, "ContainersNotReady", message),
                                   ("Ready", ConditionStatus.FALSE, "ContainersNotReady", message)))
        phase = Phase.RUNNING
    else:
        phase = Phase.SUCCEEDED if all(s.state.terminated.exit_code == 0 for s in statuses) else Phase.FAILED
        conds = merged_conditions(pod.status.conditions, t,
                                  (("ContainersReady", ConditionStatus.FALSE, "PodCompleted", ""),
                                   ("Ready", ConditionStatus.FALSE, "PodCompleted", "")))
    return evolve(pod, status=evolve(pod.status, phase=phase, container_statuses=statuses,
                                     init_container_statuses=init_statuses,
                                     conditions=pod.status.conditions if conds is None else conds))


def finish(pod: Pod, t: float, exit_code: int = 0, container: str | None = None, *,
           reason: str | None = None, keep_running: frozenset[str] = frozenset()) -> Pod:
    """The regular containers exit at ``t``: ``container`` (default the first) with ``exit_code``, others 0.

    Containers named in ``keep_running`` (other than ``container``) that are running do not
    exit. The phase is Succeeded when every regular container exited 0, else Failed; while a
    regular container or a native sidecar still runs, the pod stays Running, not Ready (the
    kubelet then stops the sidecars: :func:`stop_sidecars`).
    """
    names = container_names(pod)
    target = container or names[0]
    old = {s.name: s for s in pod.status.container_statuses}
    statuses = []
    for n in names:
        prev = old.get(n)
        if n != target and n in keep_running and prev is not None and prev.state.running is not None:
            statuses.append(prev)
        elif prev is not None and prev.state.terminated is not None:
            statuses.append(prev)  # exited earlier; its exit code stays
        else:
            statuses.append(_terminated(prev, n, t, exit_code if n == target else 0, reason))
    return _settle(pod, t, tuple(statuses), pod.status.init_container_statuses)


def regular_containers_running(pod: Pod) -> bool:
    """Whether a regular container of the pod still runs (or has not started yet)."""
    statuses = {s.name: s for s in pod.status.container_statuses}
    return any(n not in statuses or statuses[n].state.terminated is None for n in container_names(pod))


def stop_sidecars(pod: Pod, t: float, exit_code: int = EXIT_SIGTERM) -> Pod:
    """The kubelet stopped the native sidecars after the last regular container exited.

    Upstream sends them SIGTERM in reverse spec order (then SIGKILL when the grace period
    runs out); their exit codes do not count for the phase.
    """
    sidecars = set(sidecar_names(pod))
    init = tuple(_terminated(s, s.name, t, exit_code, "Error" if exit_code else None)
                 if s.name in sidecars and s.state.running is not None else s
                 for s in pod.status.init_container_statuses)
    return _settle(pod, t, pod.status.container_statuses, init)


def stop_after_deletion(pod: Pod, t: float, exit_code: int = EXIT_SIGTERM) -> Pod:
    """A deleted pod's containers stopped: phase Failed (Succeeded if they had all exited 0 already).

    Every container still running (regular or sidecar) ends with ``exit_code``; containers
    that had exited keep their own.
    """
    if pod.status.phase in (Phase.SUCCEEDED, Phase.FAILED):
        return pod
    names = container_names(pod)
    old = {s.name: s for s in pod.status.container_statuses}
    statuses = tuple(old[n] if n in old and old[n].state.terminated is not None
                     else _terminated(old.get(n), n, t, exit_code, "Error") for n in names)
    sidecars = set(sidecar_names(pod))
    init = tuple(_terminated(s, s.name, t, exit_code, "Error") if s.name in sidecars and s.state.running is not None
                 else s for s in pod.status.init_container_statuses)
    return _settle(pod, t, statuses, init)


def fail_for_deadline(pod: Pod, t: float, exit_code: int = EXIT_SIGTERM) -> Pod:
    """The pod outlived its own ``spec.activeDeadlineSeconds``: the kubelet killed it.

    Mirrors pkg/kubelet/active_deadline.go: phase Failed with reason ``DeadlineExceeded`` and
    the message "Pod was active on the node longer than the specified deadline", written
    once its containers have stopped (the kubelet never reports a terminal phase while a
    container may still run).
    """
    stopped = stop_after_deletion(pod, t, exit_code)
    return evolve(stopped, status=evolve(stopped.status, phase=Phase.FAILED, reason=POD_DEADLINE_REASON,
                                         message=POD_DEADLINE_MESSAGE))


def gc_mark_failed(pod: Pod, t: float, condition: tuple[str, str] | None = None) -> Pod:
    """Pod GC's status patch before it force-deletes a pod: phase Failed, and ``(reason, message)`` of a
    DisruptionTarget=True condition if given. Mirrors ``markFailedAndDeletePodWithCondition`` in
    podgc/gc_controller.go: the container statuses stay as they were (no kubelet wrote them), and a
    pod that already finished is left as it is.
    """
    if pod.status.phase in (Phase.SUCCEEDED, Phase.FAILED):
        return pod
    failed = evolve(pod, status=evolve(pod.status, phase=Phase.FAILED))
    return add_disruption(failed, t, *condition) if condition else failed


def add_disruption(pod: Pod, t: float, reason: str, message: str) -> Pod:
    """The DisruptionTarget=True condition the system adds before evicting, preempting or GC-ing a pod."""
    return set_condition(pod, "DisruptionTarget", ConditionStatus.TRUE, t, reason, message)


def set_restart_count(pod: Pod, count: int) -> Pod:
    """Every container shows ``count`` restarts (what a CrashLoop looks like from the API)."""
    names = container_names(pod)
    old = {s.name: s for s in pod.status.container_statuses}
    statuses = tuple(evolve(old[n], restart_count=count) if n in old else
                     ContainerStatus(name=n, restart_count=count) for n in names)
    return evolve(pod, status=evolve(pod.status, container_statuses=statuses))
