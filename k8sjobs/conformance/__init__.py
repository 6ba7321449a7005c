"""``python -m k8sjobs conformance FILE...``: run upstream-derived cases through the real model.

The contract is ``../shared/conformance/README.md``: read case files, ignore every
``expect``, run each case's ``input`` through the same code the lessons use and print
``{"results": [{"id", "actual"} | {"id", "error"}]}``. Each kind has a module in this
package exposing ``run_case(input: dict) -> dict``; a kind not (yet) modelled answers
``{"id", "error": "not implemented: ..."}``.
"""

from __future__ import annotations

import importlib
import json
from typing import Any

KINDS = ("validation", "indexes", "ordering", "slowstart", "backoff", "sync", "scenario",
         "cron-parse", "cron-next", "cronjob-validation", "cronjob-sync", "cronjob-schedule", "cronjob-history")


def module_name(kind: str) -> str:
    """The runner module of a kind: ``cron-parse`` -> ``k8sjobs.conformance.cron_parse``."""
    return f"k8sjobs.conformance.{kind.replace('-', '_')}"


def run_case(case: dict[str, Any]) -> dict[str, Any]:
    """Run one case; never raises: failures become ``{"id", "error"}``."""
    cid = case.get("id", "?")
    kind = case.get("kind")
    if kind not in KINDS:
        return {"id": cid, "error": f"unknown kind {kind!r}; known kinds: {', '.join(KINDS)}"}
    try:
        module = importlib.import_module(module_name(kind))
    except ModuleNotFoundError as exc:
        if exc.name != module_name(kind):  # the runner exists but something it imports does not
            return {"id": cid, "error": f"{type(exc).__name__}: {exc}"}
        return {"id": cid, "error": f"not implemented: the {kind} kind has no runner yet"}
    try:
        actual = module.run_case(case.get("input") or {})
    except NotImplementedError as exc:
        return {"id": cid, "error": f"not implemented: {exc}"}
    except Exception as exc:  # a case the model cannot run must not stop the others
        return {"id": cid, "error": f"{type(exc).__name__}: {exc}"}
    return {"id": cid, "actual": actual}


def run_documents(documents: list[dict[str, Any]]) -> dict[str, Any]:
    """Run every case of every loaded case file, in file order."""
    results = []
    for doc in documents:
        for case in doc.get("cases", []):
            results.append(run_case(case))
    return {"results": results}


def load_files(paths: list[str]) -> list[dict[str, Any]]:
    """Read case files; raises OSError/ValueError with the file name on a bad file."""
    docs = []
    for p in paths:
        with open(p, encoding="utf-8") as fh:
            try:
                doc = json.load(fh)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{p}: not a JSON case file: {exc}") from exc
        if not isinstance(doc, dict) or not isinstance(doc.get("cases"), list):
            raise ValueError(f"{p}: not a case file (expected an object with a 'cases' list)")
        docs.append(doc)
    return docs
