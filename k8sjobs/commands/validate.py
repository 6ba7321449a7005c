"""``python -m k8sjobs validate FILE``: check a manifest's Jobs and CronJobs as the API server would.

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

from k8sjobs.api.errors import DecodeError, ErrorType, FieldError
from k8sjobs.api.yamlio import MAX_BYTES
from k8sjobs.sim import check_manifest

from ..i18n import _
from ._input import Unreadable, read_input

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE, EXIT_BUG = 0, 1, 2, 3


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    p.add_argument("file", metavar="FILE", help=_("a Job or CronJob manifest, YAML or JSON ('-' for standard input)"))


def _decode_line(err: FieldError) -> str:
    if err.type == ErrorType.UNKNOWN_FIELD:
        return f'unknown field "{err.field}"'
    return str(err)


def check(data: bytes | str, source: str) -> tuple[int, list[str]]:
    """Validate every object of a manifest file; returns (exit status, lines to print).

    The same checks as ``run`` and :func:`k8sjobs.validate` (:func:`k8sjobs.sim.check_manifest`):
    strict decoding, defaulting and validation as on create, and the sim annotations. Each
    object of a file of several gets its own verdict; one invalid object makes the status 1.
    """
    try:
        checked = check_manifest(data, source)
    except DecodeError as exc:
        if not exc.errors:
            return EXIT_INVALID, [f"error: {exc.reason}"]
        return EXIT_INVALID, [f"error: {exc.reason}:"] + [f"* {_decode_line(e)}" for e in exc.errors]
    status, lines = EXIT_VALID, []
    for c in checked:
        if c.error is not None:
            status = EXIT_INVALID
            lines.extend(c.error.message().splitlines())
            continue
        lines.extend(f"Warning: {w}" for w in c.warnings)
        lines.append(f"{c.admitted.kind.lower()}.batch/{c.admitted.metadata.name} valid")
    return status, lines


def handle(args: argparse.Namespace) -> int:
    """Read, default and validate the manifest; print the verdict."""
    try:
        data, source = read_input(args.file, MAX_BYTES)
        status, lines = check(data, source)
    except Unreadable as exc:
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
        to_stdout = line.endswith(" valid") and line.startswith(("job.batch/", "cronjob.batch/"))
        print(line, file=sys.stdout if to_stdout else sys.stderr)
    return status
