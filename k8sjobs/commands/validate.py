"""``python -m k8sjobs validate FILE``: check a Job or CronJob manifest as the API server would.

The manifest (YAML or JSON; ``-`` reads standard input) is read strictly, defaulted,
given the name, UID and generated selector the server would give it, and validated
with ``ValidateJob`` (a CronJob: ``ValidateCronJobCreate``, its schedule and time zone
included), exactly as ``kubectl create --dry-run=server`` would. Output:

* valid: ``job.batch/NAME valid`` (``cronjob.batch/NAME valid``) on stdout, exit status 0
  (with the API server's warnings, if any, on stderr: ``Warning: metadata.name: ...``);
* invalid: the reason on stderr, one line per error, each naming its field path in
  kubectl's words (``The Job "x" is invalid: ...``, ``unknown field "spec.foo"``),
  exit status 1;
* unreadable (missing file, a directory, no permission): one line on stderr, exit 2.

Never a traceback: an unexpected failure is reported in one line as a bug.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from k8sjobs.api.admission import admit_cronjob_create, admit_job_create
from k8sjobs.api.errors import DecodeError, ErrorType, FieldError, InvalidError
from k8sjobs.api.types import CronJob, Job
from k8sjobs.api.validation import cronjob_warnings_on_create, warnings_on_create
from k8sjobs.api.yamlio import MAX_BYTES, load_manifest
from k8sjobs.ids import IdSource

from ..i18n import _

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE, EXIT_BUG = 0, 1, 2, 3


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    p.add_argument("file", metavar="FILE", help=_("a Job or CronJob manifest, YAML or JSON ('-' for standard input)"))


class _Unreadable(Exception):
    """The input could not be read at all."""


def _read(path: str) -> tuple[bytes, str]:
    if path == "-":
        return sys.stdin.buffer.read(MAX_BYTES + 1), "<stdin>"
    try:
        with open(path, "rb") as fh:
            return fh.read(MAX_BYTES + 1), path
    except FileNotFoundError:
        raise _Unreadable(_("{path}: no such file").format(path=path)) from None
    except IsADirectoryError:
        raise _Unreadable(_("{path}: is a directory, not a manifest file").format(path=path)) from None
    except PermissionError:
        raise _Unreadable(_("{path}: permission denied").format(path=path)) from None
    except OSError as exc:
        # TRANSLATORS: {error} is the operating system's message.
        raise _Unreadable(_("{path}: cannot be read: {error}").format(path=path, error=exc.strerror or exc)) from None


def _decode_line(err: FieldError) -> str:
    if err.type == ErrorType.UNKNOWN_FIELD:
        return f'unknown field "{err.field}"'
    return str(err)


def as_submitted(job: Job | CronJob) -> Job | CronJob:
    """Name, namespace and UID as the API server assigns them before validating a create."""
    meta = job.metadata
    name = meta.name
    if not name and meta.generate_name:
        name = IdSource(0).generate_name(meta.generate_name)
    meta = replace(meta, name=name, namespace=meta.namespace or "default", uid=IdSource(0).uid(job.kind))
    return replace(job, metadata=meta)


def check(data: bytes | str, source: str) -> tuple[int, list[str]]:
    """Validate one manifest; returns (exit status, lines to print)."""
    try:
        job = load_manifest(data, source)
    except DecodeError as exc:
        if not exc.errors:
            return EXIT_INVALID, [f"error: {exc.reason}"]
        return EXIT_INVALID, [f"error: {exc.reason}:"] + [f"* {_decode_line(e)}" for e in exc.errors]
    if isinstance(job, CronJob):
        try:
            cronjob = admit_cronjob_create(as_submitted(job))
        except InvalidError as exc:
            return EXIT_INVALID, exc.message().splitlines()
        warnings = [f"Warning: {w}" for w in cronjob_warnings_on_create(cronjob)]
        return EXIT_VALID, warnings + [f"cronjob.batch/{cronjob.metadata.name} valid"]
    try:
        admitted = admit_job_create(as_submitted(job))
    except InvalidError as exc:
        return EXIT_INVALID, exc.message().splitlines()
    warnings = [f"Warning: {w}" for w in warnings_on_create(admitted)]
    return EXIT_VALID, warnings + [f"job.batch/{admitted.metadata.name} valid"]


def handle(args: argparse.Namespace) -> int:
    """Read, default and validate the manifest; print the verdict."""
    try:
        data, source = _read(args.file)
        status, lines = check(data, source)
    except _Unreadable as exc:
        print(f"validate: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    except (KeyboardInterrupt, BrokenPipeError):
        raise
    except Exception as exc:  # never a traceback: report the bug in one line
        print("validate: " + _("internal error (a bug in k8sjobs, please report it): {error}").format(
            error=f"{type(exc).__name__}: {exc}"), file=sys.stderr)
        return EXIT_BUG
    for line in lines:
        # Warnings go to stderr as kubectl prints them; the verdict of a valid Job to stdout.
        to_stdout = status == EXIT_VALID and not line.startswith("Warning: ")
        print(line, file=sys.stdout if to_stdout else sys.stderr)
    return status
