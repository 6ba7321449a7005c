"""The architecture picture stays true: layers import only downward, time is simulated.

clock, ids, hooks, i18n <- api <- cluster, controller <- sim <- trace <- snapshot, viz <- widgets <- k8sjobs
The controller never imports the cluster or the simulation (it sees the world through
listers, pod control and the clock, as upstream does); only widgets import ipywidgets.
Read from the source with ``ast``, so a lazy import inside a function counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "k8sjobs"

# layer -> the k8sjobs layers it may import (besides itself)
ALLOWED: dict[str, set[str]] = {
    "clock": set(), "ids": set(), "hooks": set(), "i18n": set(),
    "api": {"clock", "ids", "hooks", "i18n"},
    "cluster": {"clock", "ids", "hooks", "i18n", "api"},
    "controller": {"clock", "ids", "hooks", "i18n", "api"},
    "sim": {"clock", "ids", "hooks", "i18n", "api", "cluster", "controller"},
    "trace": {"clock", "ids", "hooks", "i18n", "api", "cluster", "controller", "sim"},
    # Real Jobs (read a snapshot, explain its next sync, redact it): explain drives a Simulation
    # and records it, so the package sits above the engine and the trace, beside the views.
    "snapshot": {"clock", "ids", "hooks", "i18n", "api", "cluster", "controller", "sim", "trace"},
    "viz": {"clock", "ids", "hooks", "i18n", "api", "cluster", "controller", "sim", "trace"},
    "widgets": {"clock", "ids", "hooks", "i18n", "api", "cluster", "controller", "sim", "trace", "snapshot", "viz"},
}
TOP = {"__init__", "__main__", "cli", "commands", "conformance"}
"""Consumers above every layer (the public API, the command line, the conformance runner)."""


def layer_of(module: str) -> str:
    """``k8sjobs.controller.job_controller`` -> ``controller``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def modules() -> list[tuple[str, Path]]:
    out = []
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG.parent).with_suffix("")
        name = ".".join(rel.parts)
        if name.endswith(".__init__"):
            name = name[: -len(".__init__")]
        out.append((name, path))
    return out


def imports_of(module: str, path: Path) -> set[str]:
    """Absolute module names imported anywhere in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    is_pkg = path.name == "__init__.py"
    base = module.split(".") if is_pkg else module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                anchor = base[: len(base) - (node.level - 1)]
                target = ".".join(anchor + ([node.module] if node.module else []))
                if node.module is None:
                    found.update(f"{target}.{a.name}" for a in node.names)
                else:
                    found.add(target)
            elif node.module:
                found.add(node.module)
    return found


MODULES = modules()


@pytest.mark.parametrize(("module", "path"), MODULES, ids=[m for m, _ in MODULES])
def test_each_module_imports_only_layers_below_it(module: str, path: Path) -> None:
    layer = layer_of(module)
    if layer in TOP:
        return
    assert layer in ALLOWED, f"{module}: layer {layer!r} is not in the architecture picture"
    for imported in imports_of(module, path):
        if not imported.startswith("k8sjobs."):
            continue
        target = layer_of(imported)
        assert target == layer or target in ALLOWED[layer], (
            f"{module} imports {imported}: layer {layer} may import only {sorted(ALLOWED[layer])}")


def test_the_controller_never_reaches_the_cluster_or_the_simulation() -> None:
    for module, path in MODULES:
        if layer_of(module) == "controller":
            bad = {i for i in imports_of(module, path) if layer_of(i) in {"cluster", "sim", "trace"}
                   and i.startswith("k8sjobs.")}
            assert not bad, f"{module} imports {bad}"


def test_only_widgets_import_ipywidgets() -> None:
    for module, path in MODULES:
        if any(i == "ipywidgets" or i.startswith("ipywidgets.") for i in imports_of(module, path)):
            assert layer_of(module) == "widgets", f"{module} imports ipywidgets"


BANNED_CALLS = {
    ("time", "time"), ("time", "monotonic"), ("time", "perf_counter"), ("time", "sleep"),
    ("datetime", "now"), ("datetime", "utcnow"), ("date", "today"),
    ("random", "random"), ("random", "randint"), ("random", "choice"), ("random", "shuffle"),
    ("random", "uniform"), ("uuid", "uuid4"), ("uuid", "uuid1"), ("os", "urandom"),
}


@pytest.mark.parametrize(("module", "path"), MODULES, ids=[m for m, _ in MODULES])
def test_the_model_reads_no_wall_clock_and_no_unseeded_randomness(module: str, path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) else ""
            assert (name, node.func.attr) not in BANNED_CALLS, (
                f"{module}:{node.lineno} calls {name}.{node.func.attr}(): use the injected clock or a seeded "
                "random.Random")
