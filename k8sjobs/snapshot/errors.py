"""Why a snapshot cannot be read or used: an error id and its fields, put into words when shown.

Reading a snapshot (:mod:`k8sjobs.snapshot.read`) raises :class:`SnapshotError` carrying
``id`` (``job.not_found``, ``now.invalid``, ...) and the fields its sentence needs (the
file, the names, the numbers); nothing is formatted when it is raised. Its text is made
when it is shown, in the current language, for the surface that shows it: the Python API
names its keyword arguments (``explain(..., job="NAME")``), the command line its options
(``--job NAME``); neither names the other's. ``str(error)`` is the Python API's text;
the command line calls ``error.render(CLI)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..api.errors import DecodeError, FieldError
from ..i18n import _, join_list, ngettext

API = "api"
"""The surface of the Python API: ``explain()``, ``load_snapshot()``, ``Explorer.from_snapshot()``."""
CLI = "cli"
"""The surface of the command line: ``python -m k8sjobs explain``."""

SNAPSHOT_COMMAND = "kubectl get job,pods -l batch.kubernetes.io/job-name=NAME -o yaml"
"""How to take a snapshot of the Job NAME (its pods carry the job-name label)."""

# The snapshot's choices, as each surface names them: keyword -> command-line option.
_OPTIONS = {"job": "--job", "now": "--now", "assume_duration": "--assume-duration"}


def option(name: str, surface: str, value: str | None = None) -> str:
    """How ``surface`` names a choice: ``--job NAME`` on the command line, ``job="NAME"`` in Python."""
    if surface == CLI:
        flag = _OPTIONS.get(name, "--" + name.replace("_", "-"))
        return flag if value is None else f"{flag} {value}"
    return f"{name}=" if value is None else f'{name}="{value}"'


class SnapshotError(DecodeError):
    """A snapshot that cannot be read or used: ``id``, its ``fields`` and any field errors.

    A :class:`~k8sjobs.api.errors.DecodeError` (a ValueError), so existing handlers keep
    working; its text is rendered when shown (:meth:`render`).
    """

    def __init__(self, id: str, errors: list[FieldError] | None = None, **fields: Any) -> None:  # noqa: A002
        self.id = id
        self.fields = fields
        self.errors = list(errors or [])
        ValueError.__init__(self, id)

    @property
    def reason(self) -> str:  # noqa: D102 -- DecodeError's first line, for the Python API
        return self.message(API)

    @reason.setter
    def reason(self, value: str) -> None:  # DecodeError's __init__ is not called; nothing to store
        pass

    def message(self, surface: str = API) -> str:
        """The first line, in the current language, as ``surface`` says it."""
        template = _MESSAGES.get(self.id)
        if template is None:  # a bug: every id raised has a sentence (a test checks it)
            return f"{self.id}: {self.fields}"
        return template(surface, **self.fields)

    def render(self, surface: str = API) -> str:
        """The message, then one line per field error."""
        head = self.message(surface)
        if not self.errors:
            return head
        return head + "\n" + "\n".join(f"* {e}" for e in self.errors)

    def __str__(self) -> str:
        return self.render(API)


class SnapshotTypeError(SnapshotError, TypeError):
    """The snapshot given is not text, a path, a document or a Snapshot."""


def _size(n: int) -> str:
    return f"{n:,}"


def _job_not_found(surface: str, source: str, name: str, names: list[str]) -> str:
    return _("{source}: {given}: no such Job in the snapshot; its Jobs: {names}").format(
        source=source, given=option("job", surface, name), names=join_list(names))


def _job_ambiguous(surface: str, source: str, name: str, names: list[str]) -> str:
    return _("{source}: {given}: several Jobs have that name ({names}): give NAMESPACE/NAME").format(
        source=source, given=option("job", surface, name), names=join_list(names))


def _job_several(surface: str, source: str, names: list[str]) -> str:
    # TRANSLATORS: {option} is how to choose a Job: --job NAME (command line) or job="NAME" (Python).
    return ngettext("{source}: {n} Job in the snapshot ({names}): choose one with {option}",
                    "{source}: {n} Jobs in the snapshot ({names}): choose one with {option}", len(names)).format(
        source=source, n=len(names), names=join_list(names), option=option("job", surface, "NAME"))


def _cronjob_several(surface: str, source: str, names: list[str]) -> str:
    # TRANSLATORS: {option} is how to choose a CronJob: --job NAME (command line) or job="NAME" (Python).
    return ngettext("{source}: {n} CronJob in the snapshot ({names}): choose one with {option}",
                    "{source}: {n} CronJobs in the snapshot ({names}): choose one with {option}", len(names)).format(
        source=source, n=len(names), names=join_list(names), option=option("job", surface, "NAME"))


def _job_none(surface: str, source: str, pods: int, others: list[tuple[str, int]]) -> str:
    held = [ngettext("{n} Pod", "{n} Pods", pods).format(n=pods)] if pods else []
    held += [f"{n} {kind}" for kind, n in others]
    return _("{source}: no batch/v1 Job in the snapshot (it holds {held}): take one with `{command}`").format(
        source=source, held=join_list(held) or _("nothing"), command=SNAPSHOT_COMMAND)


def _now_invalid(surface: str, value: str, detail: str) -> str:
    # TRANSLATORS: {option} is --now (command line) or now (Python); the rest after it is the API's format.
    return _("{option}: Invalid value: {value}: {detail}").format(
        option="--now" if surface == CLI else "now", value='"' + value.replace('"', '\\"') + '"', detail=detail)


def _now_early(surface: str, now: str, created: str) -> str:
    return _("{option}: {now} is before the Job was created ({created}): the controller cannot sync a Job "
             "before it exists").format(option="--now" if surface == CLI else "now", now=now, created=created)


def _not_kubernetes(surface: str, source: str, where: str) -> str:
    return _("{source}: not Kubernetes YAML or JSON: {where}has no apiVersion and kind (expected what `{command}` "
             "prints: a List, a Job, or several documents)").format(
        source=source, where=_("document {n}").format(n=where) + " " if where else _("the document "),
        command=SNAPSHOT_COMMAND)


_MESSAGES: dict[str, Callable[..., str]] = {
    "file.unreadable": lambda surface, source, detail: f"{source}: {detail}",
    "file.too_large": lambda surface, source, size, limit: _(
        "{source}: {size} bytes: larger than the {limit} bytes a snapshot may have").format(
        source=source, size=_size(size), limit=_size(limit)),
    "type": lambda surface, type: _(  # noqa: A006
        "snapshot: expected YAML or JSON text, a path, a dict or a Snapshot, got {type}").format(type=type),
    "empty": lambda surface, source: _(
        "{source}: empty: no Kubernetes object in it (expected what `{command}` prints)").format(
        source=source, command=SNAPSHOT_COMMAND),
    "not_kubernetes": _not_kubernetes,
    # Kubernetes' own phrasing (a field path, "Invalid value"): English, as the API server says it.
    "items.not_list": lambda surface, source, where: (
        f"{source}: {where + ': ' if where else ''}items: Invalid value: must be a list of objects"),
    "items.not_object": lambda surface, source, place: (
        f"{source}: {place}: Invalid value: must be an object with apiVersion and kind"),
    "object.unreadable": lambda surface, source, what: _("{source}: {what} cannot be read").format(
        source=source, what=what),
    "job.unreadable": lambda surface, source, where: _("{source}: the Job ({where}) cannot be read").format(
        source=source, where=where or "1"),
    "job.unusable": lambda surface, source: _("{source}: the Job cannot be used").format(source=source),
    "job.wrong_version": lambda surface, source, version: _(
        '{source}: no matches for kind "Job" in version "{version}": explain reads batch/v1 Jobs, as kubectl '
        "prints them").format(source=source, version=version),
    "job.none": _job_none,
    "job.not_found": _job_not_found,
    "job.ambiguous": _job_ambiguous,
    "job.several": _job_several,
    "cronjob.several": _cronjob_several,
    "pods.too_many": lambda surface, source, n, job, limit: _(
        "{source}: {n} pods of Job {job} still count for the controller (running, pending, or finished and not yet "
        "counted): more than the {limit} explain simulates; take a snapshot of fewer pods or wait until more of "
        "them are counted").format(source=source, n=_size(n), job=job, limit=_size(limit)),
    "now.invalid": _now_invalid,
    "now.before_creation": _now_early,
    "example.unknown": lambda surface, name, names: _("example snapshot {name!r}: there are {names}").format(
        name=name, names=join_list(names)),
    "runs.invalid": lambda surface, value, limit: _(
        "{option}: must be a whole number of schedule times from 1 to {limit}, got {value!r}").format(
        option=option("runs", surface) if surface == CLI else "runs", limit=limit, value=value),
    "duration.invalid": lambda surface, value: _(
        "{option}: must be a number of seconds between 0 and one year, got {value!r}").format(
        option=option("assume_duration", surface) if surface == CLI else "assume_duration", value=value),
}
"""Error id -> its sentence, given the surface and the error's fields."""

ERROR_IDS = tuple(_MESSAGES)

__all__ = ["API", "CLI", "ERROR_IDS", "SNAPSHOT_COMMAND", "SnapshotError", "SnapshotTypeError", "option"]
