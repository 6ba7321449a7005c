"""Count pytest results from JUnit XML files (used by tools/test.sh for its summary).

    python tools/junit_summary.py FILE.xml [...]            -> "N passed, N failed, N skipped, N xfailed"
    python tools/junit_summary.py --check-skips FILE.xml    -> also exit 1 if any test was skipped

Errors (a failing fixture or collection) count as failed. A skip is reported by name with its
reason: in this project a skipped check is a defect (an xfail is listed, not failed).
Standard library only.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def count(paths: list[Path]) -> tuple[dict[str, int], list[str]]:
    totals = {"passed": 0, "failed": 0, "skipped": 0, "xfailed": 0}
    skipped_names: list[str] = []
    for path in paths:
        if not path.exists():
            continue
        root = ET.parse(path).getroot()
        for case in root.iter("testcase"):
            name = f"{case.get('classname', '')}::{case.get('name', '')}"
            if case.find("failure") is not None or case.find("error") is not None:
                totals["failed"] += 1
            elif (skip := case.find("skipped")) is not None:
                if skip.get("type") == "pytest.xfail":
                    totals["xfailed"] += 1
                else:
                    totals["skipped"] += 1
                    skipped_names.append(f"{name}: {skip.get('message', '')}")
            else:
                totals["passed"] += 1
        # collection errors appear as <error> on the suite without a testcase
        for suite in root.iter("testsuite"):
            declared = int(suite.get("errors", 0))
            in_cases = sum(1 for c in suite.iter("testcase") if c.find("error") is not None)
            totals["failed"] += max(0, declared - in_cases)
    return totals, skipped_names


def line(totals: dict[str, int]) -> str:
    text = f"{totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped"
    if totals["xfailed"]:
        text += f", {totals['xfailed']} xfailed"
    return text


def main(argv: list[str]) -> int:
    check = "--check-skips" in argv
    paths = [Path(a) for a in argv if a != "--check-skips"]
    totals, skipped = count(paths)
    print(line(totals))
    if check and skipped:
        print(f"{len(skipped)} skipped test(s) -- a skipped check is a defect in this project:", file=sys.stderr)
        for name in skipped:
            print(f"  SKIPPED {name}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
