"""Pod lifecycle on a simulated node: the kubelet's status changes as pure functions.

Each function takes a pod and a time and returns the pod as the kubelet would write it:
scheduled, started (Running and Ready), a container restarted in place
(restartPolicy OnFailure), finished (Succeeded or Failed with exit codes and finish
times), or stopped after a deletion. The simulated kubelet (:mod:`.cluster`) and the
conformance harness both use them, so a pod that "fails" looks the same everywhere.
"""

from __future__ import annotations

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


def bind(pod: Pod, node: str, t: float) -> Pod:
    """The scheduler assigned the pod to ``node``."""
    conds = merged_conditions(pod.status.conditions, t, (("PodScheduled", ConditionStatus.TRUE, "", ""),))
    return evolve(pod, spec=evolve(pod.spec, node_name=node),
                  status=pod.status if conds is None else evolve(pod.status, conditions=conds))


def unschedulable(pod: Pod, t: float, message: str) -> Pod:
    """No node has room: PodScheduled=False, reason Unschedulable."""
    return set_condition(pod, "PodScheduled", ConditionStatus.FALSE, t, "Unschedulable", message)


def start(pod: Pod, t: float, *, ready: bool = True) -> Pod:
    """Containers run; the pod is Running (and Ready unless ``ready`` is false)."""
    old = {s.name: s for s in pod.status.container_statuses}
    statuses = tuple(
        ContainerStatus(name=n, ready=ready, started=True,
                        restart_count=old[n].restart_count if n in old else 0,
                        last_state=old[n].last_state if n in old else ContainerState(),
                        state=ContainerState(running=ContainerStateRunning(started_at=t)))
        for n in container_names(pod))
    state = ConditionStatus.TRUE if ready else ConditionStatus.FALSE
    conds = merged_conditions(pod.status.conditions, t, (("Initialized", ConditionStatus.TRUE, "", ""),
                                                          ("ContainersReady", state, "", ""), ("Ready", state, "", "")))
    return evolve(pod, status=evolve(pod.status, phase=Phase.RUNNING,
                                     start_time=pod.status.start_time if pod.status.start_time is not None else t,
                                     container_statuses=statuses,
                                     conditions=pod.status.conditions if conds is None else conds))


def restart_container(pod: Pod, t: float, exit_code: int) -> Pod:
    """restartPolicy OnFailure: the container exited ``exit_code`` and waits to restart (CrashLoopBackOff)."""
    statuses = []
    for s in pod.status.container_statuses:
        last = ContainerState(terminated=ContainerStateTerminated(exit_code=exit_code, reason="Error",
                                                                  finished_at=t))
        statuses.append(evolve(s, ready=False, restart_count=s.restart_count + 1, last_state=last,
                                state=ContainerState(waiting=ContainerStateWaiting(reason="CrashLoopBackOff"))))
    conds = merged_conditions(pod.status.conditions, t, (("ContainersReady", ConditionStatus.FALSE, "", ""),
                                                          ("Ready", ConditionStatus.FALSE, "", "")))
    return evolve(pod, status=evolve(pod.status, container_statuses=tuple(statuses),
                                     conditions=pod.status.conditions if conds is None else conds))


def finish(pod: Pod, t: float, exit_code: int = 0, container: str | None = None, *,
           reason: str | None = None) -> Pod:
    """Every container terminated at ``t``: ``container`` (default the first) exits ``exit_code``, others 0.

    The phase is Succeeded when every exit code is 0, else Failed; Ready turns False.
    """
    names = container_names(pod)
    target = container or names[0]
    old = {s.name: s for s in pod.status.container_statuses}
    statuses = []
    for n in names:
        code = exit_code if n == target else 0
        prev = old.get(n)
        started = prev.state.running.started_at if prev is not None and prev.state.running else None
        term = ContainerStateTerminated(exit_code=code, reason=reason or ("Completed" if code == 0 else "Error"),
                                        started_at=started, finished_at=t)
        statuses.append(ContainerStatus(name=n, ready=False, started=False,
                                        restart_count=prev.restart_count if prev is not None else 0,
                                        last_state=prev.last_state if prev is not None else ContainerState(),
                                        state=ContainerState(terminated=term)))
    phase = Phase.SUCCEEDED if all(s.state.terminated.exit_code == 0 for s in statuses) else Phase.FAILED
    conds = merged_conditions(pod.status.conditions, t, (("ContainersReady", ConditionStatus.FALSE, "PodCompleted", ""),
                                                          ("Ready", ConditionStatus.FALSE, "PodCompleted", "")))
    return evolve(pod, status=evolve(pod.status, phase=phase, container_statuses=tuple(statuses),
                                     conditions=pod.status.conditions if conds is None else conds))


def stop_after_deletion(pod: Pod, t: float, exit_code: int = EXIT_SIGTERM) -> Pod:
    """A deleted pod's containers stopped: phase Failed (Succeeded if they had all exited 0 already)."""
    if pod.status.phase in (Phase.SUCCEEDED, Phase.FAILED):
        return pod
    return finish(pod, t, exit_code, reason="Error")


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
