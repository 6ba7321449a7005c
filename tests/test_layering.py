"""The architecture picture stays true: layers import only downward, time is simulated.

clock, cron, ids, hooks, i18n <- api <- cluster, controller <- sim <- trace <- snapshot, viz <- widgets <- k8sjobs
The controller never imports the cluster or the simulation (it sees the world through
listers, pod control and the clock, as upstream does); only widgets import ipywidgets.
Read from the source with ``ast``, so a lazy import inside a function counts too, and so does
a name imported from a bare package (``from k8sjobs import sim``). No circle of imports anywhere
in the package; the model (clock, ids, hooks, api, cluster, controller, sim) imports no i18n.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "k8sjobs"

# layer -> the k8sjobs layers it may import (besides itself)
ALLOWED: dict[str, set[str]] = {
    "clock": set(), "cron": set(), "ids": set(), "hooks": set(), "i18n": set(),
    "api": {"clock", "cron", "ids", "hooks", "i18n"},
    "cluster": {"clock", "cron", "ids", "hooks", "i18n", "api"},
    "controller": {"clock", "cron", "ids", "hooks", "i18n", "api"},
    "sim": {"clock", "cron", "ids", "hooks", "i18n", "api", "cluster", "controller"},
    "trace": {"clock", "cron", "ids", "hooks", "i18n", "api", "cluster", "controller", "sim"},
    # Real Jobs (read a snapshot, explain its next sync, redact it): explain drives a Simulation
    # and records it, so the package sits above the engine and the trace, beside the views.
    "snapshot": {"clock", "cron", "ids", "hooks", "i18n", "api", "cluster", "controller", "sim", "trace"},
    "viz": {"clock", "cron", "ids", "hooks", "i18n", "api", "cluster", "controller", "sim", "trace"},
    "widgets": {"clock", "cron", "ids", "hooks", "i18n", "api", "cluster", "controller", "sim", "trace", "snapshot",
                "viz"},
}
TOP = {"__init__", "__main__", "cli", "commands", "conformance"}
"""Consumers above every layer (the public API, the command line, the conformance runner)."""


def layer_of(module: str) -> str:
    """``k8sjobs.controller.job.job_controller`` -> ``controller``; the bare package -> ``__init__``."""
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
    """Absolute module names imported anywhere in the file (inside functions too).

    ``from X import name`` counts as an import of ``X.name`` when that is a module of the
    package (``from k8sjobs import sim`` imports ``k8sjobs.sim``), else of ``X`` itself (a name
    defined in ``X``: ``from k8sjobs import Run`` imports the package's ``__init__``).
    """
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
            elif node.module:
                target = node.module
            else:
                continue
            for alias in node.names:
                found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in MODULE_NAMES else target)
    return found


def in_package(name: str) -> bool:
    return name == "k8sjobs" or name.startswith("k8sjobs.")


def resolve(name: str) -> str:
    """The module of the package an imported name runs: its longest prefix that is a module."""
    parts = name.split(".")
    while parts and ".".join(parts) not in MODULE_NAMES:
        parts.pop()
    return ".".join(parts)


MODULES = modules()
MODULE_NAMES = {m for m, _ in MODULES}


def layer_violations(module: str, path: Path) -> list[str]:
    """Each import of ``module`` that runs up a layer, as a sentence (empty: none)."""
    layer = layer_of(module)
    out = []
    for imported in sorted(imports_of(module, path)):
        if in_package(imported):
            target = layer_of(imported)
            if target != layer and target not in ALLOWED[layer]:
                out.append(f"{module} imports {imported}: layer {layer} may import only {sorted(ALLOWED[layer])}")
    return out


@pytest.mark.parametrize(("module", "path"), MODULES, ids=[m for m, _ in MODULES])
def test_each_module_imports_only_layers_below_it(module: str, path: Path) -> None:
    layer = layer_of(module)
    if layer in TOP:
        return
    assert layer in ALLOWED, f"{module}: layer {layer!r} is not in the architecture picture"
    assert not layer_violations(module, path), "\n".join(layer_violations(module, path))


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


@pytest.mark.parametrize(("source", "imported"), [
    ("from k8sjobs import sim", "k8sjobs.sim"),
    ("from .. import sim", "k8sjobs.sim"),
    ("import k8sjobs.sim", "k8sjobs.sim"),
    ("def f():\n    from k8sjobs.trace import recorder", "k8sjobs.trace.recorder"),
    ("from k8sjobs import Run", "k8sjobs"),
])
def test_an_import_of_a_higher_layer_from_the_controller_is_caught_however_it_is_written(
        tmp_path: Path, source: str, imported: str) -> None:
    path = tmp_path / "x.py"
    path.write_text(source + "\n", encoding="utf-8")
    assert imports_of("k8sjobs.controller.x", path) == {imported}
    assert layer_violations("k8sjobs.controller.x", path), f"{source!r} in the controller passes the layering check"


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of the package it imports (module level and inside functions)."""
    return {module: {resolve(i) for i in imports_of(module, path) if in_package(i)} - {module}
            for module, path in MODULES}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_circles_are_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_circle_of_imports_anywhere_in_the_package() -> None:
    found = circles(import_graph())
    assert not found, "circles of imports (module level or inside functions): " + "; ".join(
        " <-> ".join(c) for c in found)


MODEL_LAYERS = {"clock", "ids", "hooks", "api", "cluster", "controller", "sim"}
"""The model: it holds no words and imports no i18n (decisions are rule ids plus fields, worded
where shown)."""

I18N_PENDING = {
}
"""Model modules that still import i18n, each with the change that removes it. An entry whose
module no longer imports i18n fails: delete it in the commit that frees the module."""


def _imports_i18n(module: str, path: Path) -> bool:
    return any(resolve(i) == "k8sjobs.i18n" for i in imports_of(module, path) if in_package(i))


@pytest.mark.parametrize(("module", "path"), [(m, p) for m, p in MODULES if layer_of(m) in MODEL_LAYERS],
                         ids=[m for m, _ in MODULES if layer_of(m) in MODEL_LAYERS])
def test_the_model_imports_no_i18n(module: str, path: Path) -> None:
    if module in I18N_PENDING:
        assert _imports_i18n(module, path), f"{module} imports no i18n any more: delete it from I18N_PENDING"
        return
    assert not _imports_i18n(module, path), (
        f"{module} imports k8sjobs.i18n: the model holds no words; emit a rule id and fields and "
        "render them in trace/viz")


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
