"""``python -m k8sjobs redact FILE``: a snapshot without what may hold secrets, ready to share.

Reads what ``kubectl get job,pods -l batch.kubernetes.io/job-name=NAME -o yaml`` (or
``-o json``) printed (``-`` reads standard input) and prints it again, in the same format,
with only what ``explain`` reads (:mod:`k8sjobs.snapshot.redact` lists what is kept):
environment variables, commands, arguments, image pull secrets, volumes, other annotations
(``last-applied-configuration`` among them), termination messages and IPs are removed. What
was removed is said on stderr. Typical use, before a snapshot leaves the machine::

    kubectl get job,pods -l batch.kubernetes.io/job-name=NAME -o json | python -m k8sjobs redact - > snapshot.json
"""

from __future__ import annotations

import argparse
import sys

from ..api.errors import DecodeError
from ..i18n import _
from ..snapshot.read import MAX_SNAPSHOT_BYTES
from ..snapshot.redact import redact_snapshot
from ._input import Unreadable, read_input


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    p.add_argument("file", metavar="FILE", help=_("what kubectl get -o yaml or -o json printed ('-' for standard "
                                                  "input)"))
    p.add_argument("-q", "--quiet", action="store_true", help=_("do not say on stderr what was removed"))


def handle(args: argparse.Namespace) -> int:
    """Print the redacted snapshot; bad input gives one line on stderr and exit 1."""
    try:
        data, source = read_input(args.file, MAX_SNAPSHOT_BYTES, snapshot=True)
    except Unreadable as exc:
        print(f"redact: {exc}", file=sys.stderr)
        return 1
    try:
        result = redact_snapshot(data, source)
    except DecodeError as exc:
        print(exc.render(), file=sys.stderr)
        return 1
    sys.stdout.write(result.text)
    if not args.quiet:
        print(_("redact: {summary}").format(summary=result.summary()), file=sys.stderr)
    return 0
