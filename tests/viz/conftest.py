"""The view tests need plotly and networkx (the ``viz`` extra); the runs they look at are in viz_scenarios."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("plotly")
pytest.importorskip("networkx")

sys.path.insert(0, str(Path(__file__).resolve().parent))
