"""Real Jobs: read a snapshot of one (``kubectl get job,pods -o yaml``), explain its next sync, redact it.

Above the engine and the trace (explain drives a :class:`~k8sjobs.sim.Simulation` and records it):

* :mod:`.read` — what kubectl printed, into the model's objects (:class:`~k8sjobs.api.snapshot.Snapshot`,
  the data the engine takes); pods the status counts but the snapshot lacks are stood in for;
* :mod:`.errors` — why a snapshot cannot be read: an error id and its fields, put into words for
  the surface that shows it (the command line names its options, the Python API its keywords);
* :mod:`.notes` — what an explanation rests on and what looks odd: note ids and their fields;
* :mod:`.explain` — the controller's next sync on a snapshot, in words, and its forecast;
* :mod:`.redact` — a snapshot without what may hold secrets.

The command-line edges are ``k8sjobs/commands/explain.py`` and ``k8sjobs/commands/redact.py``.
"""

from ..api.snapshot import Snapshot
from .errors import SnapshotError
from .explain import Explanation, explain
from .read import EXAMPLE_SNAPSHOTS, example_snapshot, load_snapshot, read_snapshot
from .redact import Redaction, redact_snapshot

__all__ = ["EXAMPLE_SNAPSHOTS", "Explanation", "Redaction", "Snapshot", "SnapshotError", "example_snapshot", "explain",
           "load_snapshot", "read_snapshot", "redact_snapshot"]
