"""The ``k8sjobs`` command line: one sub-command per module in :mod:`k8sjobs.commands`.

Every command turns bad input into a one-line reason on stderr and a non-zero exit;
a traceback is always a bug.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from .i18n import ENV_VAR, LANGUAGES, N_, _, join_list, set_language

COMMANDS = {
    "conformance": N_("run upstream-derived conformance cases and print the results as JSON"),
    "validate": N_("check a Job manifest as the API server would (defaulting + validation)"),
    "run": N_("simulate a Job manifest on an in-memory cluster and print the trace"),
    "explain": N_("say what the Job controller does next with a real Job (kubectl get -o yaml), and why"),
    "redact": N_("print a snapshot (kubectl get -o yaml/json) with only what explain reads: no env, commands, "
                 "secrets"),
}
"""Sub-command -> its help (marked; shown with ``_()``)."""


def _lang_argument(p: argparse.ArgumentParser) -> None:
    # SUPPRESS: given before or after the sub-command, whichever is present wins (no default overwrites it).
    p.add_argument("--lang", metavar="LANG", default=argparse.SUPPRESS,
                   help=_("language of the output: {languages} (default: ${env} or en)").format(
                       languages=join_list(LANGUAGES), env=ENV_VAR))


def _language_in(argv: list[str]) -> str | None:
    """The value of --lang in ``argv`` (read before the parser is built, so its help is translated too)."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered by its module."""
    parser = argparse.ArgumentParser(prog="python -m k8sjobs",
                                     description=_("k8sjobs: the Kubernetes Job controller, modelled."))
    _lang_argument(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, help_text in COMMANDS.items():
        module = importlib.import_module(f"k8sjobs.commands.{name}")
        p = sub.add_parser(name, help=_(help_text), description=_(help_text))
        _lang_argument(p)
        module.add_arguments(p)
        p.set_defaults(_handler=module.handle)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` and run the command; returns the exit status.

    ``--lang`` (or ``K8SJOBS_LANG``) chooses the language of our own words; what mirrors
    Kubernetes (kubectl-style output, API errors, events, conditions) stays English.
    """
    argv = sys.argv[1:] if argv is None else list(argv)
    language = _language_in(argv)
    if language is not None:
        try:
            set_language(language)
        except ValueError as exc:
            print(f"python -m k8sjobs: --lang: {exc}", file=sys.stderr)
            return 2
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._handler(args) or 0)
    except KeyboardInterrupt:
        print(_("interrupted"), file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
