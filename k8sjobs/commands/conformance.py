"""``python -m k8sjobs conformance FILE...``."""

from __future__ import annotations

import argparse
import json
import sys

from k8sjobs import conformance


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    p.add_argument("files", nargs="+", metavar="FILE", help="conformance case files (JSON)")


def handle(args: argparse.Namespace) -> int:
    """Run every case and print one JSON document; exit 0 whenever the files could be read."""
    try:
        docs = conformance.load_files(args.files)
    except (OSError, ValueError) as exc:
        print(f"conformance: {exc}", file=sys.stderr)
        return 2
    json.dump(conformance.run_documents(docs), sys.stdout, indent=1, sort_keys=False)
    sys.stdout.write("\n")
    return 0
