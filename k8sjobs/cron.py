"""Cron schedules exactly as github.com/robfig/cron v3.0.1's ``ParseStandard`` reads them.

The CronJob controller and the API server's validation both hand a CronJob's schedule to
robfig/cron's standard parser, so the model needs that parser's answers, quirks included:

* five fields (minute hour day-of-month month day-of-week), each a comma list of ``*``,
  ``?``, ``N``, ``N-M``, with an optional ``/step``; month and weekday names (``jan``,
  ``Sun``, any case); weekday 0-6 only (7 is out of range); a lone ``N/step`` means
  ``N-max/step``;
* the descriptors ``@yearly @annually @monthly @weekly @daily @midnight @hourly`` and
  ``@every <Go duration>``;
* a ``TZ=<zone>`` or ``CRON_TZ=<zone>`` prefix, which makes the schedule compute in that zone;
* the day rule: when the day-of-month or the day-of-week field was written as ``*``/``?``
  (the "star bit"), a day must match both fields, otherwise either one;
* daylight saving as Go's ``time.Date`` resolves wall times: a skipped wall time is not
  run that day, a repeated one (01:00 on a fall-back night in New York) runs twice;
* a search limit of five years, after which ``next`` returns Go's zero time.

Errors carry the library's own text (``CronParseError.args[0]``), as the API server prints
it inside ``spec.schedule: Invalid value: ...``.

Time zones come from the IANA database of the ``tzdata`` package only (never the
operating system's copy), so a result is the same on Linux, macOS, Windows, Binder and
JupyterLite.

Public names: :func:`parse_standard`, :class:`Schedule` (:class:`SpecSchedule`,
:class:`ConstantDelaySchedule`), :class:`CronParseError`, :func:`load_location`,
:class:`UnknownTimeZoneError`, :data:`ZERO_TIME`, :func:`is_zero`,
:func:`parse_go_duration`.

This is a bottom-layer library (like :mod:`k8sjobs.clock`): it imports nothing from k8sjobs.
"""

from __future__ import annotations

import datetime as _dt
import importlib.resources
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar
from zoneinfo import ZoneInfo

__all__ = [
    "STAR_BIT", "ZERO_TIME", "ConstantDelaySchedule", "CronParseError", "Schedule", "SpecSchedule",
    "UnknownTimeZoneError", "is_zero", "load_location", "parse_go_duration", "parse_standard",
]

STAR_BIT = 1 << 63
"""robfig's ``starBit``: set in a field written as ``*`` or ``?`` (step 1) or filled by a descriptor."""

ZERO_TIME = _dt.datetime(1, 1, 1, tzinfo=_dt.UTC)
"""Go's zero ``time.Time`` (0001-01-01 00:00:00 UTC): what ``Next`` returns when nothing matches in 5 years."""

_UNIX_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC)
_UNIX_ORDINAL = _dt.date(1970, 1, 1).toordinal()
_NS_PER_SECOND = 1_000_000_000
_MAX_INT64 = (1 << 63) - 1

# Go's unicode.IsSpace: what strings.Fields splits on and strings.TrimSpace trims.
_GO_SPACE = frozenset("\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                      "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")


class CronParseError(ValueError):
    """A schedule robfig/cron's ``ParseStandard`` refuses; ``str(err)`` is the library's error text.

    Mirrors the ``error`` values returned by ``Parser.Parse`` in robfig/cron v3 parser.go.
    ``panicked`` is True for the one input where the Go library panics instead of returning an
    error (a ``TZ=``/``CRON_TZ=`` prefix with no space after it); Kubernetes recovers that
    panic into ``invalid schedule format: <panic>`` (pkg/util/parsers).
    """

    def __init__(self, message: str, *, panicked: bool = False) -> None:
        super().__init__(message)
        self.panicked = panicked


class UnknownTimeZoneError(ValueError):
    """A zone name Go's ``time.LoadLocation`` refuses; ``str(err)`` is Go's error text."""


# ----------------------------------------------------------------------------- time zones


@lru_cache(maxsize=1)
def _zone_names() -> frozenset[str]:
    text = importlib.resources.files("tzdata").joinpath("zones").read_text(encoding="utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip())


class _TzdataZone(ZoneInfo):
    """A zone read from the tzdata package that copies and pickles by its name.

    ``ZoneInfo.from_file`` objects refuse to pickle; these reduce to :func:`load_location`
    of their key, so a datetime in such a zone (or an object holding one) survives
    ``copy.deepcopy`` and ``pickle`` and comes back with the very same zone object.
    """

    def __reduce__(self) -> tuple:
        return (load_location, (self.key,))

    def __copy__(self) -> _TzdataZone:
        return self

    def __deepcopy__(self, memo: dict) -> _TzdataZone:
        return self


@lru_cache(maxsize=512)
def _zone_from_tzdata(name: str) -> _dt.tzinfo:
    parts = name.split("/")
    resource = importlib.resources.files("tzdata.zoneinfo").joinpath(*parts)
    with resource.open("rb") as fh:
        return _TzdataZone.from_file(fh, key=name)


def load_location(name: str) -> _dt.tzinfo | None:
    """The zone Go's ``time.LoadLocation(name)`` gives, from the ``tzdata`` package.

    ``""`` and ``"UTC"`` are UTC; ``"Local"`` is time.Local, returned as ``None`` (no zone of
    its own: the caller's zone applies). Raises :class:`UnknownTimeZoneError` with Go's text:
    ``time: invalid location name`` for a name containing ``..`` or starting with ``/`` or
    ``\\``, ``unknown time zone NAME`` for a name the database does not have.
    Mirrors LoadLocation in Go's time/zoneinfo.go.
    """
    if name in ("", "UTC"):
        return _dt.UTC
    if name == "Local":
        return None
    if ".." in name or name[0] in "/\\":
        raise UnknownTimeZoneError("time: invalid location name")
    if name not in _zone_names():
        raise UnknownTimeZoneError(f"unknown time zone {name}")
    return _zone_from_tzdata(name)


# ----------------------------------------------------------------------------- Go text helpers


def _go_fields(text: str) -> list[str]:
    """strings.Fields: split on runs of Go whitespace."""
    out: list[str] = []
    start = -1
    for i, ch in enumerate(text):
        if ch in _GO_SPACE:
            if start >= 0:
                out.append(text[start:i])
                start = -1
        elif start < 0:
            start = i
    if start >= 0:
        out.append(text[start:])
    return out


def _go_trim_space(text: str) -> str:
    """strings.TrimSpace."""
    lo, hi = 0, len(text)
    while lo < hi and text[lo] in _GO_SPACE:
        lo += 1
    while hi > lo and text[hi - 1] in _GO_SPACE:
        hi -= 1
    return text[lo:hi]


def _strconv_quote(text: str) -> str:
    """strconv.Quote, for the printable text a cron field can hold (escapes for the rest)."""
    out = ['"']
    named = {"\a": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v"}
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch in named:
            out.append(named[ch])
        elif ch.isprintable():
            out.append(ch)
        elif ord(ch) < 0x80:
            out.append(f"\\x{ord(ch):02x}")
        elif ord(ch) < 0x10000:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    out.append('"')
    return "".join(out)


def _time_quote(text: str) -> str:
    """The time package's own quote(): non-ASCII and control bytes as \\xNN of their UTF-8."""
    out = ['"']
    for ch in text:
        if ord(ch) >= 0x80 or ch < " ":
            out.extend(f"\\x{b:02x}" for b in ch.encode("utf-8", "surrogatepass"))
        else:
            if ch in '"\\':
                out.append("\\")
            out.append(ch)
    out.append('"')
    return "".join(out)


def _atoi(text: str) -> int:
    """strconv.Atoi (base 10, optional sign, int64 range); raises ValueError with Go's message."""
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not digits or not all("0" <= c <= "9" for c in digits):
        raise ValueError(f"strconv.Atoi: parsing {_strconv_quote(text)}: invalid syntax")
    value = int(digits)
    if text[:1] == "-":
        value = -value
    if not -(1 << 63) <= value <= _MAX_INT64:
        raise ValueError(f"strconv.Atoi: parsing {_strconv_quote(text)}: value out of range")
    return value


_DURATION_UNITS = {"ns": 1, "us": 1_000, "\u00b5s": 1_000, "\u03bcs": 1_000, "ms": 1_000_000,
                   "s": _NS_PER_SECOND, "m": 60 * _NS_PER_SECOND, "h": 3600 * _NS_PER_SECOND}


def parse_go_duration(text: str) -> int:
    """Go's ``time.ParseDuration``: nanoseconds, or ValueError with Go's message.

    Accepts ``[-+]?([0-9]*(\\.[0-9]*)?[a-z]+)+`` with the units ns, us (µs, μs), ms, s, m, h,
    and a lone ``0``. Mirrors ParseDuration in Go's time/format.go.
    """
    orig = text
    invalid = f"time: invalid duration {_time_quote(orig)}"
    neg = False
    s = text
    if s and s[0] in "+-":
        neg = s[0] == "-"
        s = s[1:]
    if s == "0":
        return 0
    if not s:
        raise ValueError(invalid)
    total = 0
    while s:
        if not (s[0] == "." or "0" <= s[0] <= "9"):
            raise ValueError(invalid)
        i = 0
        whole = 0
        while i < len(s) and "0" <= s[i] <= "9":
            whole = whole * 10 + (ord(s[i]) - 48)
            if whole > 1 << 63:
                raise ValueError(invalid)
            i += 1
        pre = i > 0
        s = s[i:]
        frac, scale, post = 0, 1.0, False
        if s and s[0] == ".":
            s = s[1:]
            i = 0
            overflow = False
            while i < len(s) and "0" <= s[i] <= "9":
                if not overflow:
                    if frac > _MAX_INT64 // 10:
                        overflow = True
                    else:
                        frac = frac * 10 + (ord(s[i]) - 48)
                        scale *= 10
                i += 1
            post = i > 0
            s = s[i:]
        if not pre and not post:
            raise ValueError(invalid)
        i = 0
        while i < len(s) and not (s[i] == "." or "0" <= s[i] <= "9"):
            i += 1
        if i == 0:
            raise ValueError(f"time: missing unit in duration {_time_quote(orig)}")
        unit_name, s = s[:i], s[i:]
        unit = _DURATION_UNITS.get(unit_name)
        if unit is None:
            raise ValueError(f"time: unknown unit {_time_quote(unit_name)} in duration {_time_quote(orig)}")
        if whole > (1 << 63) // unit:
            raise ValueError(invalid)
        value = whole * unit
        if frac > 0:
            value += int(float(frac) * (float(unit) / scale))
            if value > 1 << 63:
                raise ValueError(invalid)
        total += value
        if total > 1 << 63:
            raise ValueError(invalid)
    if neg:
        return -total
    if total > _MAX_INT64:
        raise ValueError(invalid)
    return total


# ----------------------------------------------------------------------------- Go time arithmetic


_FIRST_SAFE_UNIX = -62135510400
"""0001-01-02T00:00:00Z: from here on every zone's local date is one Python's datetime can hold."""


_SEARCH_FLOOR_UNIX = -62104060800
"""0002-01-01T00:00:00Z: where :meth:`SpecSchedule.next` starts when asked about an earlier time."""


def _offset(unix: int, zone: _dt.tzinfo) -> int:
    """The zone's UTC offset in seconds at an instant.

    Near Go's zero time (year 1) the local date of a zone east of UTC may fall in year 0, which
    Python's datetime lacks; every zone keeps its local mean time until its first transition
    (the 1800s at the earliest), so the offset a day into year 1 is the same one."""
    off = _dt.datetime.fromtimestamp(max(unix, _FIRST_SAFE_UNIX), zone).utcoffset()
    return int(off.total_seconds()) if off is not None else 0


def _go_date(year: int, month: int, day: int, hour: int, minute: int, second: int, zone: _dt.tzinfo) -> int:
    """Go's ``time.Date`` as unix seconds: month and day overflow normalized, and a wall time that
    does not exist or exists twice resolved as Go resolves it.

    Go looks up the zone's offset at the wall time read as if it were UTC; if the instant that
    offset gives lies outside that offset's period, it takes the offset in force at that
    instant instead. So in New York 02:30 on a spring-forward day becomes 01:30 EST (03:30 EDT
    would be the other guess) and 01:30 on a fall-back day is the first (EDT) one, while in
    Berlin the skipped 02:30 becomes 03:30 CEST and the repeated 02:30 is the second (CET).
    Mirrors Date in Go's time/time.go.
    """
    year += (month - 1) // 12
    month = (month - 1) % 12 + 1
    days = _dt.date(year, month, 1).toordinal() + day - 1 - _UNIX_ORDINAL
    wall = days * 86400 + hour * 3600 + minute * 60 + second
    guess = _offset(wall, zone)
    if guess == 0:
        return wall
    return wall - _offset(wall - guess, zone)


# ----------------------------------------------------------------------------- schedules


class Schedule:
    """A parsed schedule: what robfig/cron's ``Schedule`` interface is (``Next(time.Time) time.Time``)."""

    __slots__ = ()

    def next(self, t: _dt.datetime) -> _dt.datetime:
        """The first activation strictly after ``t`` (an aware datetime), in ``t``'s zone;
        :data:`ZERO_TIME` when there is none within five years."""
        raise NotImplementedError


def _unix_seconds(t: _dt.datetime) -> int:
    """Whole unix seconds of an aware datetime, rounded down (its sub-second part dropped)."""
    if t.tzinfo is None or t.utcoffset() is None:
        raise ValueError("cron: the time given to next() must be timezone-aware")
    delta = t - _UNIX_EPOCH
    return delta.days * 86400 + delta.seconds


@dataclass(frozen=True, slots=True)
class ConstantDelaySchedule(Schedule):
    """``@every <duration>``: one activation every ``delay_seconds`` (whole seconds, at least 1).

    Mirrors ConstantDelaySchedule and Every in robfig/cron v3 constantdelay.go.
    """

    delay_seconds: int

    @classmethod
    def every(cls, nanoseconds: int) -> ConstantDelaySchedule:
        """robfig's ``Every(d)``: below one second becomes one second; the rest is truncated to whole seconds."""
        nanoseconds = max(nanoseconds, _NS_PER_SECOND)
        return cls(nanoseconds // _NS_PER_SECOND)

    def next(self, t: _dt.datetime) -> _dt.datetime:
        """``t`` plus the delay, with ``t``'s fraction of a second dropped, in ``t``'s zone."""
        return _dt.datetime.fromtimestamp(_unix_seconds(t) + self.delay_seconds, t.tzinfo)


@dataclass(frozen=True, slots=True)
class SpecSchedule(Schedule):
    """A cron-format schedule: one bit set per field (bit N = value N, plus :data:`STAR_BIT`).

    ``location`` is the zone name from a ``TZ=``/``CRON_TZ=`` prefix (``"UTC"`` for an empty
    name), or ``None`` for robfig's time.Local: no zone of its own, so :meth:`next` computes in
    the zone of the time it is given. Mirrors SpecSchedule in robfig/cron v3 spec.go.
    """

    second: int
    minute: int
    hour: int
    dom: int
    month: int
    dow: int
    location: str | None = None

    FIELDS: ClassVar[tuple[str, ...]] = ("second", "minute", "hour", "dom", "month", "dow")

    @property
    def zone(self) -> _dt.tzinfo | None:
        """The tzinfo of :attr:`location` (None for time.Local)."""
        return None if self.location is None else load_location(self.location)

    def values(self, field_name: str) -> list[int]:
        """The values whose bits are set in one field (the star bit left out), ascending."""
        bits = getattr(self, field_name) & ~STAR_BIT
        return [v for v in range(64) if bits >> v & 1]

    def has_star(self, field_name: str) -> bool:
        """True when the field carries robfig's star bit."""
        return bool(getattr(self, field_name) & STAR_BIT)

    def _day_matches(self, day: int, weekday: int) -> bool:
        """robfig's dayMatches: both day fields must match when either has the star bit, else one."""
        dom_match = bool(self.dom >> day & 1)
        dow_match = bool(self.dow >> weekday & 1)
        if (self.dom | self.dow) & STAR_BIT:
            return dom_match and dow_match
        return dom_match or dow_match

    def next(self, t: _dt.datetime) -> _dt.datetime:
        """The first activation after ``t``, walking month, day, hour, minute, second as robfig does.

        Each field that does not match is advanced until it does (the finer fields reset to
        their start the first time anything moves); rolling over to the next year, month or
        day starts again from the month. Days are advanced with Go's ``AddDate``, then pulled
        back to midnight if daylight saving moved them off it; hours, minutes and seconds are
        advanced as elapsed time. Mirrors SpecSchedule.Next in robfig/cron v3 spec.go.
        """
        unix = _unix_seconds(t)
        orig_zone = t.tzinfo
        # The answer depends only on the schedule, the whole second and the two zones: a controller
        # asks the same question several times per sync (mostRecentScheduleTime's t1 and t2, then
        # nextScheduleTimeDuration), and again at each sync until the next schedule time.
        # Keyed by the schedule's and the zone's identity (equal fixed-offset zones may carry different
        # names; hashing the schedule's seven fields would cost more than the rest of a hit).
        key = (id(self), unix, id(orig_zone))
        known = _NEXT_MEMO.get(key)
        if known is not None and known[0] is orig_zone and known[2] is self:
            return known[1]
        zone = self.zone or orig_zone
        # The controller asks for the time after Go's zero time (year 1) only when a search found
        # nothing: a schedule that never fires. The search steps back to the start of a month in
        # the schedule's zone, which near year 1 may be year 0 in UTC or locally, and Python's
        # datetime has no year 0; starting in year 2 finds the same nothing.
        found = self._search(max(unix + 1, _SEARCH_FLOOR_UNIX), zone)
        answer = ZERO_TIME if found is None else _dt.datetime.fromtimestamp(found, orig_zone)
        if len(_NEXT_MEMO) >= _NEXT_MEMO_SIZE:
            _NEXT_MEMO.clear()
        _NEXT_MEMO[key] = (orig_zone, answer, self)
        return answer

    def _search(self, u: int, zone: _dt.tzinfo) -> int | None:
        """The matching unix second at or after ``u`` in ``zone``, or None past the 5-year limit."""
        fromtimestamp = _dt.datetime.fromtimestamp
        month_bits, hour_bits, minute_bits, second_bits = self.month, self.hour, self.minute, self.second
        added = False
        w = fromtimestamp(u, zone)
        year_limit = w.year + 5
        while True:  # robfig's WRAP label
            w = fromtimestamp(u, zone)
            if w.year > year_limit:
                return None
            wrapped = False
            while not month_bits >> w.month & 1:
                if not added:
                    added = True
                    u = _go_date(w.year, w.month, 1, 0, 0, 0, zone)
                    w = fromtimestamp(u, zone)
                u = _go_date(w.year, w.month + 1, w.day, w.hour, w.minute, w.second, zone)
                w = fromtimestamp(u, zone)
                if w.month == 1:
                    wrapped = True
                    break
            if wrapped:
                continue
            while not self._day_matches(w.day, (w.weekday() + 1) % 7):
                if not added:
                    added = True
                    u = _go_date(w.year, w.month, w.day, 0, 0, 0, zone)
                    w = fromtimestamp(u, zone)
                u = _go_date(w.year, w.month, w.day + 1, w.hour, w.minute, w.second, zone)
                w = fromtimestamp(u, zone)
                if w.hour != 0:  # daylight saving moved the day's start off midnight
                    u += (24 - w.hour) * 3600 if w.hour > 12 else -w.hour * 3600
                    w = fromtimestamp(u, zone)
                if w.day == 1:
                    wrapped = True
                    break
            if wrapped:
                continue
            while not hour_bits >> w.hour & 1:
                if not added:
                    added = True
                    u = _go_date(w.year, w.month, w.day, w.hour, 0, 0, zone)
                u += 3600
                w = fromtimestamp(u, zone)
                if w.hour == 0:
                    wrapped = True
                    break
            if wrapped:
                continue
            if not minute_bits >> w.minute & 1:
                if not added:
                    added = True
                    u -= u % 60
                u, w, wrapped = _advance(u, w, minute_bits, 60, "minute", zone)
                if wrapped:
                    continue
            if not second_bits >> w.second & 1:
                added = True  # u is already a whole second: Truncate(time.Second) changes nothing
                u, w, wrapped = _advance(u, w, second_bits, 1, "second", zone)
                if wrapped:
                    continue
            return u


_NEXT_MEMO: dict[tuple[int, int, int], tuple[_dt.tzinfo | None, _dt.datetime, SpecSchedule]] = {}
"""SpecSchedule.next's answers by (id of the schedule, unix second, id of the zone of the time given), with
that zone and that schedule (checked by identity on a hit; the entry keeps both alive, so their ids are not
reused): a pure function, kept for the latest few thousand questions (cleared when full)."""
_NEXT_MEMO_SIZE = 4096

_WHOLE_MINUTE = _dt.timedelta(minutes=1)


def _advance(u: int, w: _dt.datetime, bits: int, unit: int, field: str,
             zone: _dt.tzinfo) -> tuple[int, _dt.datetime, bool]:
    """robfig's minute or second loop: add ``unit`` seconds until the wall ``field`` has its bit
    set, or wraps to 0 (then ``True``: start over from the month).

    The answer is the same as stepping one unit at a time; it is found in one jump when the
    zone's offset is the same whole number of minutes before and after the jump and the wall
    value moved by exactly the number of steps (no offset change in between), else by stepping.
    """
    value = getattr(w, field)
    above = (bits >> (value + 1)) & ((1 << (59 - value)) - 1)
    if above:
        steps, wraps = (above & -above).bit_length(), False
    else:
        steps, wraps = 60 - value, True
    target = u + steps * unit
    landed = _dt.datetime.fromtimestamp(target, zone)
    before, after = w.utcoffset(), landed.utcoffset()
    if (before == after and before is not None and before % _WHOLE_MINUTE == _dt.timedelta(0)
            and getattr(landed, field) == (value + steps) % 60):
        return target, landed, wraps
    while True:  # an offset change inside the span: step as robfig does
        u += unit
        w = _dt.datetime.fromtimestamp(u, zone)
        current = getattr(w, field)
        if current == 0:
            return u, w, True
        if bits >> current & 1:
            return u, w, False


# ----------------------------------------------------------------------------- the parser


@dataclass(frozen=True, slots=True)
class _Bounds:
    low: int
    high: int
    names: dict[str, int] | None = None


_MINUTES = _Bounds(0, 59)
_HOURS = _Bounds(0, 23)
_DOM = _Bounds(1, 31)
_MONTHS = _Bounds(1, 12, {name: i + 1 for i, name in enumerate(
    ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))})
_DOW = _Bounds(0, 6, {name: i for i, name in enumerate(("sun", "mon", "tue", "wed", "thu", "fri", "sat"))})


def _bits(low: int, high: int, step: int) -> int:
    """robfig's getBits: every step-th value from low to high."""
    if step == 1:
        return ((1 << (high + 1)) - 1) & ~((1 << low) - 1)
    out = 0
    for value in range(low, high + 1, step):
        out |= 1 << value
    return out


def _all(bounds: _Bounds) -> int:
    """robfig's all(): the whole range plus the star bit."""
    return _bits(bounds.low, bounds.high, 1) | STAR_BIT


def _parse_non_negative(expr: str) -> int:
    """robfig's mustParseInt."""
    try:
        num = _atoi(expr)
    except ValueError as exc:
        raise CronParseError(f"failed to parse int from {expr}: {exc}") from None
    if num < 0:
        raise CronParseError(f"negative number ({num}) not allowed: {expr}")
    return num


def _parse_int_or_name(expr: str, names: dict[str, int] | None) -> int:
    """robfig's parseIntOrName: a month/weekday name (any case) or a number."""
    if names is not None:
        named = names.get(expr.lower())
        if named is not None:
            return named
    return _parse_non_negative(expr)


def _parse_range(expr: str, bounds: _Bounds) -> int:
    """robfig's getRange: ``*``/``?``, ``N``, ``N-M``, each with an optional ``/step``."""
    range_and_step = expr.split("/")
    low_and_high = range_and_step[0].split("-")
    single = len(low_and_high) == 1
    extra = 0
    if low_and_high[0] in ("*", "?"):
        start, end, extra = bounds.low, bounds.high, STAR_BIT
    else:
        start = _parse_int_or_name(low_and_high[0], bounds.names)
        if len(low_and_high) == 1:
            end = start
        elif len(low_and_high) == 2:
            end = _parse_int_or_name(low_and_high[1], bounds.names)
        else:
            raise CronParseError(f"too many hyphens: {expr}")
    if len(range_and_step) == 1:
        step = 1
    elif len(range_and_step) == 2:
        step = _parse_non_negative(range_and_step[1])
        if single:  # "N/step" means "N-max/step"
            end = bounds.high
        if step > 1:
            extra = 0
    else:
        raise CronParseError(f"too many slashes: {expr}")
    if start < bounds.low:
        raise CronParseError(f"beginning of range ({start}) below minimum ({bounds.low}): {expr}")
    if end > bounds.high:
        raise CronParseError(f"end of range ({end}) above maximum ({bounds.high}): {expr}")
    if start > end:
        raise CronParseError(f"beginning of range ({start}) beyond end of range ({end}): {expr}")
    if step == 0:
        raise CronParseError(f"step of range should be a positive number: {expr}")
    return _bits(start, end, step) | extra


def _parse_field(field: str, bounds: _Bounds) -> int:
    """robfig's getField: the union of a comma list of ranges (empty items are skipped)."""
    bits = 0
    for expr in field.split(","):
        if expr:
            bits |= _parse_range(expr, bounds)
    return bits


def _parse_descriptor(descriptor: str, location: str | None) -> Schedule:
    """robfig's parseDescriptor: the ``@`` names and ``@every <duration>``."""
    if descriptor in ("@yearly", "@annually"):
        return SpecSchedule(1, 1, 1, 1 << 1, 1 << 1, _all(_DOW), location)
    if descriptor == "@monthly":
        return SpecSchedule(1, 1, 1, 1 << 1, _all(_MONTHS), _all(_DOW), location)
    if descriptor == "@weekly":
        return SpecSchedule(1, 1, 1, _all(_DOM), _all(_MONTHS), 1, location)
    if descriptor in ("@daily", "@midnight"):
        return SpecSchedule(1, 1, 1, _all(_DOM), _all(_MONTHS), _all(_DOW), location)
    if descriptor == "@hourly":
        return SpecSchedule(1, 1, _all(_HOURS), _all(_DOM), _all(_MONTHS), _all(_DOW), location)
    every = "@every "
    if descriptor.startswith(every):
        try:
            nanoseconds = parse_go_duration(descriptor[len(every):])
        except ValueError as exc:
            raise CronParseError(f"failed to parse duration {descriptor}: {exc}") from None
        return ConstantDelaySchedule.every(nanoseconds)
    raise CronParseError(f"unrecognized descriptor: {descriptor}")


def parse_standard(spec: str) -> Schedule:
    """Parse a schedule as robfig/cron v3's ``ParseStandard`` does; raises :class:`CronParseError`.

    ``ParseStandard`` is ``NewParser(Minute | Hour | Dom | Month | Dow | Descriptor).Parse``:
    exactly five fields (the second is always 0) or a descriptor, optionally after a
    ``TZ=<zone> `` / ``CRON_TZ=<zone> `` prefix (only a space ends the zone name). Results are
    cached: schedules are immutable. Mirrors ParseStandard and Parser.Parse in robfig/cron v3
    parser.go.
    """
    return _parse_standard(spec)


@lru_cache(maxsize=1024)
def _parse_standard(spec: str) -> Schedule:
    if not spec:
        raise CronParseError("empty spec string")
    location: str | None = None
    if spec.startswith(("TZ=", "CRON_TZ=")):
        space = spec.find(" ")
        eq = spec.find("=")
        if space < 0:
            # Go slices spec[eq+1:-1] here and panics; the API server recovers the panic.
            raise CronParseError("runtime error: slice bounds out of range [:-1]", panicked=True)
        name = spec[eq + 1:space]
        try:
            zone = load_location(name)
        except UnknownTimeZoneError as exc:
            raise CronParseError(f"provided bad location {name}: {exc}") from None
        location = None if zone is None else ("UTC" if zone is _dt.UTC else name)
        spec = _go_trim_space(spec[space:])
    if spec.startswith("@"):
        return _parse_descriptor(spec, location)
    fields = _go_fields(spec)
    if len(fields) != 5:
        raise CronParseError(f"expected exactly 5 fields, found {len(fields)}: [{' '.join(fields)}]")
    return SpecSchedule(
        second=1,  # the standard parser fills the missing seconds field with "0"
        minute=_parse_field(fields[0], _MINUTES),
        hour=_parse_field(fields[1], _HOURS),
        dom=_parse_field(fields[2], _DOM),
        month=_parse_field(fields[3], _MONTHS),
        dow=_parse_field(fields[4], _DOW),
        location=location,
    )


def is_zero(t: _dt.datetime) -> bool:
    """True for Go's zero time (what ``next`` returns when no activation is found)."""
    return t == ZERO_TIME
