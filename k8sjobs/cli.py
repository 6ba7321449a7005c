"""The ``k8sjobs`` command line: one sub-command per module in :mod:`k8sjobs.commands`.

Every command turns bad input into a one-line reason on stderr and a non-zero exit;
a traceback is always a bug.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = {
    "conformance": "run upstream-derived conformance cases and print the results as JSON",
    "validate": "check a Job manifest as the API server would (defaulting + validation)",
    "run": "simulate a Job manifest on an in-memory cluster and print the trace",
    "explain": "say what the Job controller does next with a real Job (kubectl get -o yaml), and why",
}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered by its module."""
    parser = argparse.ArgumentParser(prog="python -m k8sjobs", description="k8sjobs: the Kubernetes Job controller, modelled.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, help_text in COMMANDS.items():
        module = importlib.import_module(f"k8sjobs.commands.{name}")
        p = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(p)
        p.set_defaults(_handler=module.handle)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` and run the command; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._handler(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
