"""Shared by the language tests: the catalog tool (tools/i18n.py) and a set of runs that make
every kind of decision and note (faults, learner actions, suspend, ttl, every docs example)."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

from k8sjobs.trace import Run

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "examples" / "docs"


@cache
def tool():
    """tools/i18n.py (the catalogs' tool)."""
    from tools import i18n

    return i18n


@cache
def runs() -> dict[str, Run]:
    """Runs covering the rule ids: the docs examples, the view scenarios, faults and actions."""
    sys.path.insert(0, str(ROOT / "tests" / "viz"))
    import viz_scenarios as vs

    out = {name: fn() for name, fn in vs.ALL.items()}
    for path in sorted(DOCS.glob("*.yaml")):
        out["docs-" + path.stem] = Run(path.read_text(), seed=0, nodes=3)
    base = out["indexed"]
    pods = [p.metadata.name for p in base.state_at(4).pods]
    node = base.state_at(3).nodes[0].metadata.name
    out["lost-node"] = base.fork(3, "lose_node", name=node)
    out["evicted"] = base.fork(4, "evict_pod", name=pods[0])
    out["failed-pod"] = base.fork(4, "fail_pod", name=pods[1], exit_code=42)
    out["suspended"] = out["quota"].fork(5, "suspend")
    return out
