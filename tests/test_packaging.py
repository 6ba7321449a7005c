"""pyproject.toml's extras: what a plain ``pip install "k8sjobs[...]"`` brings, checked against the lock."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
EXTRAS = PROJECT["optional-dependencies"]


def expanded(extra: str) -> list[Requirement]:
    """The requirements of ``extra``, with the project's own extras (``k8sjobs[widgets]``) expanded."""
    out: list[Requirement] = []
    for text in EXTRAS[extra]:
        req = Requirement(text)
        if canonicalize_name(req.name) == "k8sjobs":
            for inner in sorted(req.extras):
                out += expanded(inner)
        else:
            out.append(req)
    return out


def lock_pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "binder" / "requirements.txt").read_text(encoding="utf-8").splitlines():
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)==(\S+)", line.strip())
        if m:
            pins[canonicalize_name(m.group(1))] = m.group(2)
    return pins


def test_the_lessons_extra_brings_jupyterlab_voila_notebook_and_the_widget_stack() -> None:
    names = {canonicalize_name(r.name) for r in expanded("lessons")}
    assert {"jupyterlab", "voila", "notebook", "ipywidgets", "anywidget", "plotly", "networkx"} <= names


def test_every_requirement_of_the_lessons_extra_is_met_by_the_pinned_lock() -> None:
    # A pip user and Binder get compatible versions: the lock's pins satisfy the extra.
    pins = lock_pins()
    for req in expanded("lessons"):
        name = canonicalize_name(req.name)
        assert name in pins, f"{req} is not in binder/requirements.txt"
        assert req.specifier.contains(pins[name], prereleases=True), f"the lock pins {name}=={pins[name]}, not {req}"
