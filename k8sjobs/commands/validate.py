"""``python -m k8sjobs validate``: not built yet (see the open issues)."""

from __future__ import annotations

import argparse
import sys


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    p.add_argument("file", metavar="FILE")


def handle(args: argparse.Namespace) -> int:
    """Not implemented yet."""
    print("validate: not implemented yet", file=sys.stderr)
    return 2
