"""Run limits in words: why a run stopped early and how to go further, for the caller who reads it.

The engine records a :class:`~k8sjobs.sim.LimitReached` (the limit, its value, where the run
was) and a :class:`~k8sjobs.sim.BudgetError` (which limits are invalid) as data. Here they
become sentences in the current language, naming what the reader can change: a Python caller
is told the keyword of the function it called (``Run(..., max_pods=...)``), a command-line
user the option of the command (``--max-pods`` of ``python -m k8sjobs run``); neither is told
the other's.
"""

from __future__ import annotations

from ..i18n import _, join_clauses, ngettext
from ..sim import BudgetError, LimitReached


def what(limit: LimitReached) -> str:
    """The limit in words: ``it created 25012 pods, more than its limit of 25000 (max_pods)``."""
    n, v = limit.count, limit.value
    if limit.limit == "max_pods":
        return ngettext("it created {count} pod, more than its limit of {value} (max_pods)",
                        "it created {count} pods, more than its limit of {value} (max_pods)",
                        int(n)).format(count=int(n), value=int(v))
    if limit.limit == "max_events":
        return ngettext("it ran {value} simulation event, its limit (max_events)",
                        "it ran {value} simulation events, its limit (max_events)",
                        int(v)).format(value=int(v))
    if limit.limit == "max_pod_cycles":
        return ngettext("its reconcile cycles looked at {count} pod in all, more than its limit of {value} "
                        "(max_pod_cycles: each cycle looks at every live pod of the Job)",
                        "its reconcile cycles looked at {count} pods in all, more than its limit of {value} "
                        "(max_pod_cycles: each cycle looks at every live pod of the Job)",
                        int(n)).format(count=int(n), value=int(v))
    if limit.limit == "max_cycles":
        return ngettext("it ran {value} reconcile cycle, its limit (max_cycles)",
                        "it ran {value} reconcile cycles, its limit (max_cycles)",
                        int(v)).format(value=int(v))
    return _("it reached t={value} s of simulated time, its limit (max_time)").format(value=f"{v:g}")


def raised(limit: LimitReached, *, from_zero: bool) -> tuple[str, str]:
    """(the value to give, as text) for going further: double the limit; ``max_time`` doubles the span since
    the run's start, given as a time from 0 (``from_zero``: ``Run``'s keyword) or as a span (the dashboard's
    and a forecast's keywords, the ``--until`` option)."""
    if limit.limit == "max_time":
        span = 2 * max(limit.value - limit.start, 1.0)
        return (f"{limit.start + span:g}" if from_zero else f"{span:g}"), f"{span:g}"
    value = str(int(limit.value * 2 if limit.value else 1))
    return value, value


def api_hint(limit: LimitReached, api: str = "Run") -> str:
    """How a Python caller goes further: ``To go further, raise the limit: Run(..., max_pods=50000).``"""
    keyword, _span = raised(limit, from_zero=api == "Run")
    return _("To go further, raise the limit: {api}(..., {limit}={keyword}).").format(
        api=api, limit=limit.limit, keyword=keyword)


def command_hint(limit: LimitReached, option: str, command: str = "run") -> str:
    """How a command-line user goes further: ``To go further, raise the limit: --max-pods 50000 with python
    -m k8sjobs run.`` (``option`` is the command's option for the limit)."""
    _keyword, value = raised(limit, from_zero=False)
    return _("To go further, raise the limit: {option} {value} with python -m k8sjobs {command}.").format(
        option=option, value=value, command=command)


def message(limit: LimitReached, hint: str) -> str:
    """The whole message: where the run stopped, which limit, that the trace is usable, and ``hint``."""
    return _("The run stopped after cycle {cycle} (t={t} s) before the Job finished: {what}. Everything "
             "up to there can be viewed, seeked and forked. {hint}").format(
        cycle=limit.cycle, t=f"{limit.t:g}", what=what(limit), hint=hint)


def budget_problems(exc: BudgetError) -> str:
    """A :class:`~k8sjobs.sim.BudgetError` in words: ``invalid run limits: max_pods: must be ...``."""
    problems = []
    for name, value in exc.problems:
        if name == "max_time":
            problems.append(_("max_time: must be a number of seconds of at least 0, got {value!r}").format(
                value=value))
        else:
            problems.append(_("{name}: must be a whole number of at least 0, got {value!r}").format(
                name=name, value=value))
    return _("invalid run limits: {problems}").format(problems=join_clauses(problems))


__all__ = ["api_hint", "budget_problems", "command_hint", "message", "raised", "what"]
