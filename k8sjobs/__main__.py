"""``python -m k8sjobs``: the command line (conformance, validate, run)."""

from k8sjobs.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
