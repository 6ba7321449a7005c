"""What a pod's containers "do" in the simulation, read from the pod template's annotations.

One manifest describes the experiment, KWOK-stage style. Keys (on
``spec.template.metadata.annotations``):

==========================================  ===========================================================
``sim.k8sjobs.io/duration``                 run time once started: ``30s``, ``1m30s``, a range
                                            ``20s..40s`` drawn with the seed, or ``never``
``sim.k8sjobs.io/start-latency``            Pending -> Running delay after scheduling (default 1s)
``sim.k8sjobs.io/fail-rate``                probability 0..1 that a run fails
``sim.k8sjobs.io/exit-code``                exit code of a failing run (default 1)
``sim.k8sjobs.io/fail-indexes``             Indexed Jobs: these indexes always fail (``1,3-4``)
``sim.k8sjobs.io/exit-codes``               per-index exit codes ``0=1;1=42;*=0`` (0 = success)
``sim.k8sjobs.io/durations``                per-index durations ``2=1s;*=3s``
``sim.k8sjobs.io/fail-attempts``            the first N pods (per index for Indexed Jobs) fail
``sim.k8sjobs.io/restarts``                 restartPolicy OnFailure: fail N times in place first
``sim.k8sjobs.io/termination-delay``        how long a deleted pod takes to stop (default 1s)
``sim.k8sjobs.io/sidecar-termination-delay``  how long native sidecars take to stop once the kubelet
                                            stops them (default 1s)
``sim.k8sjobs.io/keeps-running``            regular containers that never exit on their own
                                            (``istio-proxy``; a classic sidecar)
``sim.k8sjobs.io/evict-after``              evict the pod this long after it starts (DisruptionTarget)
``sim.k8sjobs.io/evict-pods``               which pods are evicted, by 1-based creation ordinal
``pod-complete.stage.kwok.x-k8s.io/delay``  KWOK: run time (used when ``duration`` is absent)
``pod-complete.stage.kwok.x-k8s.io/jitter-delay``  KWOK: upper bound of a random run time
==========================================  ===========================================================

Invalid values are field errors whose path names the annotation, e.g.
``spec.template.metadata.annotations[sim.k8sjobs.io/fail-rate]: Invalid value: "2": must be
between 0 and 1``.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from ..api.errors import FieldError
from ..api.types import share_on_deepcopy

PREFIX = "sim.k8sjobs.io/"
KWOK_DELAY = "pod-complete.stage.kwok.x-k8s.io/delay"
KWOK_JITTER = "pod-complete.stage.kwok.x-k8s.io/jitter-delay"
ANNOTATIONS_PATH = "spec.template.metadata.annotations"

DEFAULT_DURATION = 10.0
DEFAULT_START_LATENCY = 1.0
DEFAULT_TERMINATION_DELAY = 1.0
DEFAULT_EXIT_CODE = 1
MAX_RESTARTS = 20
"""The most in-place failures ``sim.k8sjobs.io/restarts`` may plan (with CrashLoopBackOff, about 1.5 h)."""
CRASH_LOOP_BASE, CRASH_LOOP_MAX = 10.0, 300.0
"""The kubelet's container restart back-off: 10 s, doubling, at most 5 minutes (see :func:`crash_loop_backoff`)."""

KNOWN_KEYS = ("duration", "start-latency", "fail-rate", "exit-code", "fail-indexes", "exit-codes", "durations",
              "fail-attempts", "restarts", "termination-delay", "evict-after", "evict-pods",
              "sidecar-termination-delay", "keeps-running")

_GO_DURATION = re.compile(r"^(?:(\d+(?:\.\d+)?)(h|ms|us|µs|ns|m|s))+$")
_GO_PART = re.compile(r"(\d+(?:\.\d+)?)(h|ms|us|µs|ns|m|s)")
_UNIT = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}


def parse_go_duration(text: str) -> float:
    """``1m30s`` -> 90.0 (Go's time.ParseDuration for non-negative values); raises ValueError."""
    s = text.strip()
    if s == "0":
        return 0.0
    if not _GO_DURATION.match(s):
        raise ValueError(f"must be a duration such as 30s, 1m30s or 500ms, not {text!r}")
    return sum(float(n) * _UNIT[u] for n, u in _GO_PART.findall(s))


@dataclass(frozen=True, slots=True)
class Span:
    """A duration: fixed, a seeded range ``low..high``, or ``never``."""

    low: float
    high: float | None = None
    never: bool = False

    @property
    def draws(self) -> bool:
        """Whether :meth:`draw` takes a number from the generator (a range; not fixed, not ``never``)."""
        return not self.never and self.high is not None and self.high != self.low

    def draw(self, rng: random.Random) -> float:
        """The duration for one pod (inf for ``never``)."""
        if self.never:
            return float("inf")
        if self.high is None or self.high == self.low:
            return self.low
        return round(rng.uniform(self.low, self.high), 3)

    def __str__(self) -> str:
        if self.never:
            return "never"
        if self.high is None:
            return f"{self.low:g}s"
        return f"{self.low:g}s..{self.high:g}s"


def parse_span(text: str, *, allow_never: bool = True) -> Span:
    """``30s``, ``20s..40s`` or ``never``; raises ValueError."""
    s = text.strip()
    if allow_never and s == "never":
        return Span(0.0, never=True)
    if ".." in s:
        lo_text, _, hi_text = s.partition("..")
        lo, hi = parse_go_duration(lo_text), parse_go_duration(hi_text)
        if hi < lo:
            raise ValueError(f"range {text!r} must go from the shorter to the longer duration")
        return Span(lo, hi)
    return Span(parse_go_duration(s))


def parse_index_set(text: str) -> frozenset[int]:
    """``1,3-4`` -> {1, 3, 4}; raises ValueError."""
    out: set[int] = set()
    if not text.strip():
        return frozenset()
    for part in text.split(","):
        part = part.strip()
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m:
            raise ValueError(f"{part!r} is not an index or a range such as 3-5")
        lo = int(m.group(1))
        hi = int(m.group(2)) if m.group(2) is not None else lo
        if hi < lo:
            raise ValueError(f"range {part!r} must go from the lower to the higher index")
        if hi - lo > 1_000_000:
            raise ValueError(f"range {part!r} is too large")
        out.update(range(lo, hi + 1))
    return frozenset(out)


_DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")


def parse_container_names(text: str) -> frozenset[str]:
    """``istio-proxy,log-shipper`` -> the container names; raises ValueError."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise ValueError("must name at least one container, such as istio-proxy")
    for n in names:
        if not _DNS_LABEL.match(n):
            raise ValueError(f"{n!r} is not a container name (a DNS label such as istio-proxy)")
    return frozenset(names)


def _parse_per_index(text: str, parse_value) -> tuple[tuple[frozenset[int] | None, object], ...]:
    rules = []
    for item in text.split(";"):
        item = item.strip()
        if not item:
            continue
        where, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"{item!r} must look like INDEXES=VALUE or *=VALUE")
        indexes = None if where.strip() == "*" else parse_index_set(where)
        rules.append((indexes, parse_value(value.strip())))
    return tuple(rules)


def _pick(rules: tuple, index: int | None) -> object | None:
    for indexes, value in rules:
        if indexes is None or (index is not None and index in indexes):
            return value
    return None


@dataclass(frozen=True, slots=True)
class PodPlan:
    """What one pod will do: start after ``start_latency``, then its runs, each ``(duration, exit code)``.

    ``runs`` holds the runs drawn when the pod was planned; :meth:`Workload.draw_run` draws
    the next ones when the kubelet gets there (a pod that fails ``restarts`` times in place
    keeps no list of them), in the same order, so the outcome is the same either way.
    """

    start_latency: float
    runs: tuple[tuple[float, int], ...]
    """(duration, exit code) of the runs drawn so far: more than one only for restartPolicy OnFailure."""
    termination_delay: float
    evict_after: float | None = None
    sidecar_termination_delay: float = DEFAULT_TERMINATION_DELAY
    failing_runs: int = 0
    """Runs that fail in place before the last planned one (``restarts`` under OnFailure, else 0)."""
    span: Span | None = None
    """The run time of this pod's runs (its index's duration, or the Job's)."""


@dataclass(frozen=True, slots=True)
class Workload:
    """The parsed annotations of a pod template."""

    duration: Span = field(default_factory=lambda: Span(DEFAULT_DURATION))
    start_latency: Span = field(default_factory=lambda: Span(DEFAULT_START_LATENCY))
    fail_rate: float = 0.0
    exit_code: int = DEFAULT_EXIT_CODE
    fail_indexes: frozenset[int] = frozenset()
    exit_codes: tuple = ()
    durations: tuple = ()
    fail_attempts: int = 0
    restarts: int = 0
    termination_delay: Span = field(default_factory=lambda: Span(DEFAULT_TERMINATION_DELAY))
    evict_after: Span | None = None
    evict_pods: frozenset[int] | None = None
    sidecar_termination_delay: Span = field(default_factory=lambda: Span(DEFAULT_TERMINATION_DELAY))
    keeps_running: frozenset[str] = frozenset()
    """Regular containers that only stop when the pod is deleted or killed."""

    def plan(self, rng: random.Random, *, index: int | None, attempt: int, ordinal: int,
             restart_policy: str) -> PodPlan:
        """Decide what a new pod does.

        ``index`` is its completion index (None for NonIndexed Jobs), ``attempt`` the 1-based
        number of pods created so far for that index (or the Job), ``ordinal`` its 1-based
        creation number in the Job.
        """
        latency = self.start_latency.draw(rng)
        span = _pick(self.durations, index) or self.duration
        term = self.termination_delay.draw(rng)
        runs: list[tuple[float, int]] = []
        # OnFailure restarts the container in place: the first `restarts` runs fail.
        failing_runs = self.restarts if restart_policy == "OnFailure" else 0
        wants_evict = self.evict_after is not None and (self.evict_pods is None or ordinal in self.evict_pods)
        # The eviction time and the sidecars' termination delay are drawn after every planned run:
        # when either draws, the runs are drawn now; otherwise each when the kubelet gets to it.
        later_draws = wants_evict or self.sidecar_termination_delay.draws
        runs.append(self.draw_run(rng, 0, failing_runs, span, index, attempt, runs))
        while later_draws and len(runs) <= failing_runs:
            runs.append(self.draw_run(rng, len(runs), failing_runs, span, index, attempt, runs))
        evict = self.evict_after.draw(rng) if wants_evict else None
        # Drawn last, so manifests without sidecars keep every other draw where it was.
        sidecar_term = self.sidecar_termination_delay.draw(rng)
        return PodPlan(latency, tuple(runs), term, evict, sidecar_term, failing_runs, span)

    def draw_run(self, rng: random.Random, k: int, failing_runs: int, span: Span, index: int | None, attempt: int,
                 drawn: list[tuple[float, int]]) -> tuple[float, int]:
        """``(duration, exit code)`` of a pod's run ``k`` (0-based), once runs 0..k-1 are ``drawn``.

        The first ``failing_runs`` fail with the Job's exit code; the next is the planned last
        run; past it (a container failed in place more often than planned) each new run keeps
        the last duration and draws its outcome afresh.
        """
        if k < failing_runs:
            return span.draw(rng), self.exit_code or DEFAULT_EXIT_CODE
        if k == failing_runs:
            return span.draw(rng), self.final_exit_code(rng, index, attempt)
        return drawn[-1][0], self.final_exit_code(rng, index, 10**9)

    def final_exit_code(self, rng: random.Random, index: int | None, attempt: int) -> int:
        """The exit code of a pod's last (or, under OnFailure, next) run."""
        per_index = _pick(self.exit_codes, index)
        if per_index is not None:
            return int(per_index)
        if index is not None and index in self.fail_indexes:
            return self.exit_code
        if attempt <= self.fail_attempts:
            return self.exit_code
        # Draw even when fail_rate is 0, so adding a rate later keeps other draws aligned.
        return self.exit_code if rng.random() < self.fail_rate else 0


def parse_workload(annotations: dict[str, str]) -> tuple[Workload, list[FieldError]]:
    """Read the sim annotations; returns the workload and every invalid value as a field error."""
    errors: list[FieldError] = []
    kw: dict[str, object] = {}

    def path(key: str) -> str:
        return f"{ANNOTATIONS_PATH}[{key}]"

    def read(key: str, parse, name: str) -> None:
        if key not in annotations:
            return
        try:
            kw[name] = parse(annotations[key])
        except ValueError as exc:
            errors.append(FieldError.invalid(path(key), annotations[key], str(exc)))

    def rate(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise ValueError("must be a number between 0 and 1") from None
        if not 0.0 <= value <= 1.0:
            raise ValueError("must be between 0 and 1")
        return value

    def exit_code(text: str) -> int:
        if not re.fullmatch(r"\d+", text.strip()) or not 0 <= int(text) <= 255:
            raise ValueError("must be an exit code between 0 and 255")
        return int(text)

    def count(text: str, most: int = 1_000_000) -> int:
        if not re.fullmatch(r"\d+", text.strip()) or int(text) > most:
            raise ValueError(f"must be a whole number between 0 and {most}")
        return int(text)

    read(PREFIX + "duration", parse_span, "duration")
    read(PREFIX + "start-latency", lambda s: parse_span(s), "start_latency")
    read(PREFIX + "fail-rate", rate, "fail_rate")
    read(PREFIX + "exit-code", exit_code, "exit_code")
    read(PREFIX + "fail-indexes", parse_index_set, "fail_indexes")
    read(PREFIX + "exit-codes", lambda s: _parse_per_index(s, exit_code), "exit_codes")
    read(PREFIX + "durations", lambda s: _parse_per_index(s, parse_span), "durations")
    read(PREFIX + "fail-attempts", count, "fail_attempts")
    # A pod planned to be evicted draws every planned run first (see Workload.plan).
    read(PREFIX + "restarts", lambda s: count(s, MAX_RESTARTS), "restarts")
    read(PREFIX + "termination-delay", lambda s: parse_span(s, allow_never=False), "termination_delay")
    read(PREFIX + "evict-after", lambda s: parse_span(s, allow_never=False), "evict_after")
    read(PREFIX + "evict-pods", parse_index_set, "evict_pods")
    read(PREFIX + "sidecar-termination-delay", lambda s: parse_span(s, allow_never=False),
         "sidecar_termination_delay")
    read(PREFIX + "keeps-running", parse_container_names, "keeps_running")
    # KWOK's pod-complete stage: delay, or a random time between delay and jitter-delay.
    low = high = None
    if KWOK_DELAY in annotations:
        try:
            low = parse_go_duration(annotations[KWOK_DELAY])
        except ValueError as exc:
            errors.append(FieldError.invalid(path(KWOK_DELAY), annotations[KWOK_DELAY], str(exc)))
    if KWOK_JITTER in annotations:
        try:
            high = parse_go_duration(annotations[KWOK_JITTER])
        except ValueError as exc:
            errors.append(FieldError.invalid(path(KWOK_JITTER), annotations[KWOK_JITTER], str(exc)))
        if KWOK_DELAY not in annotations:
            errors.append(FieldError.required(path(KWOK_DELAY), f"{KWOK_JITTER} is an upper bound and needs "
                                              f"{KWOK_DELAY}"))
    if low is not None and high is not None and high < low:
        errors.append(FieldError.invalid(path(KWOK_JITTER), annotations[KWOK_JITTER],
                                         f"must not be shorter than {KWOK_DELAY} ({annotations[KWOK_DELAY]})"))
    elif low is not None and PREFIX + "duration" not in annotations:
        kw["duration"] = Span(low, high)
    for key in annotations:
        if key.startswith(PREFIX) and key[len(PREFIX):] not in KNOWN_KEYS:
            errors.append(FieldError.not_supported(path(key), key, [PREFIX + k for k in KNOWN_KEYS]))
    return Workload(**kw), errors  # type: ignore[arg-type]


CrashLoopEntry = tuple[float, float]
"""The kubelet's back-off record for one container: (current back-off, time it was last moved on)."""


def crash_loop_backoff(entry: CrashLoopEntry | None, finished_at: float) -> tuple[float, CrashLoopEntry]:
    """(wait before the restart, the new record) for a container that exited at ``finished_at``.

    Mirrors the kubelet's container restart back-off (``doBackOff`` in kuberuntime_manager.go
    on a ``flowcontrol.Backoff`` of 10 s, at most 5 minutes): with no record, or one not moved
    on for more than twice the maximum (the container ran that long), the container restarts
    at once and a 10 s back-off is armed; otherwise the restart waits the current back-off,
    counted from the exit, and the back-off then doubles up to the maximum. So the waits of a
    container that keeps crashing are 0, 10, 20, 40, 80, 160, 300, 300, ... s.
    """
    if entry is None or finished_at - entry[1] > 2 * CRASH_LOOP_MAX:
        return 0.0, (CRASH_LOOP_BASE, finished_at)
    wait = entry[0]
    return wait, (min(wait * 2, CRASH_LOOP_MAX), finished_at + wait)


for _immutable in (Span, PodPlan, Workload):
    _immutable.__deepcopy__ = share_on_deepcopy  # snapshots share them (see k8sjobs.sim.Simulation.snapshot)
