"""A cron schedule said in words, in the current language: ``at 02:30 every day, Asia/Shanghai``.

The schedule is read by the model's own parser (:func:`k8sjobs.cron.parse_standard`, robfig/cron's
``ParseStandard``), so the words describe what the CronJob controller will do, whatever the syntax
(``@daily``, ``*/5``, ``9-17``, ``MON,WED,FRI``, ``TZ=...``): they are built from the parsed fields,
not from the text. Every phrase is a catalog message (no library knew cron and said it correctly
in Chinese and Russian: cron-descriptor 2.2.1, checked against a dozen schedules, left day and
month names in English in both, said "Каждые 2 часов", and refused ``@hourly``).

The day rule is robfig's: when both the day-of-month and the day-of-week fields are restricted
(neither written ``*`` or ``?``), a day matching either runs ("on day 1 of the month or on Monday").
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cron import ConstantDelaySchedule, CronParseError, SpecSchedule, parse_standard
from ..i18n import N_, Np_, _, join_list, ngettext, pgettext
from .reasons import go_duration

# TRANSLATORS: weekday names in a schedule said in words. "on weekday": a day the schedule runs every
# week ("on Monday" = every Monday; Russian "по понедельникам"); "from weekday" / "to weekday": the ends
# of a range ("Monday to Friday"; Russian "с понедельника по пятницу").
_WEEKDAYS: dict[str, tuple[str, ...]] = {
    "on weekday": (Np_("on weekday", "Sunday"), Np_("on weekday", "Monday"), Np_("on weekday", "Tuesday"),
                   Np_("on weekday", "Wednesday"), Np_("on weekday", "Thursday"), Np_("on weekday", "Friday"),
                   Np_("on weekday", "Saturday")),
    "from weekday": (Np_("from weekday", "Sunday"), Np_("from weekday", "Monday"), Np_("from weekday", "Tuesday"),
                     Np_("from weekday", "Wednesday"), Np_("from weekday", "Thursday"),
                     Np_("from weekday", "Friday"), Np_("from weekday", "Saturday")),
    "to weekday": (Np_("to weekday", "Sunday"), Np_("to weekday", "Monday"), Np_("to weekday", "Tuesday"),
                   Np_("to weekday", "Wednesday"), Np_("to weekday", "Thursday"), Np_("to weekday", "Friday"),
                   Np_("to weekday", "Saturday")),
}
# TRANSLATORS: month names in a schedule said in words. "in month": a month the schedule runs in ("in
# February"; Russian "в феврале"); "from month" / "to month": the ends of a range ("January to March";
# Russian "с января по март").
_MONTHS: dict[str, tuple[str, ...]] = {
    "in month": (Np_("in month", "January"), Np_("in month", "February"), Np_("in month", "March"),
                 Np_("in month", "April"), Np_("in month", "May"), Np_("in month", "June"),
                 Np_("in month", "July"), Np_("in month", "August"), Np_("in month", "September"),
                 Np_("in month", "October"), Np_("in month", "November"), Np_("in month", "December")),
    "from month": (Np_("from month", "January"), Np_("from month", "February"), Np_("from month", "March"),
                   Np_("from month", "April"), Np_("from month", "May"), Np_("from month", "June"),
                   Np_("from month", "July"), Np_("from month", "August"), Np_("from month", "September"),
                   Np_("from month", "October"), Np_("from month", "November"), Np_("from month", "December")),
    "to month": (Np_("to month", "January"), Np_("to month", "February"), Np_("to month", "March"),
                 Np_("to month", "April"), Np_("to month", "May"), Np_("to month", "June"),
                 Np_("to month", "July"), Np_("to month", "August"), Np_("to month", "September"),
                 Np_("to month", "October"), Np_("to month", "November"), Np_("to month", "December")),
}
_UNPARSEABLE = N_("{schedule} (not a schedule the CronJob controller can read)")

MAX_TIMES = 4
"""At most this many clock times are listed one by one ("at 00:00 and 12:00"); more are said by field."""


def _values(s: SpecSchedule, name: str) -> list[int]:
    return s.values(name)


def _runs(values: Sequence[int]) -> list[tuple[int, int]]:
    """Consecutive runs of sorted values: [1, 2, 3, 7] -> [(1, 3), (7, 7)]."""
    out: list[tuple[int, int]] = []
    for v in values:
        if out and v == out[-1][1] + 1:
            out[-1] = (out[-1][0], v)
        else:
            out.append((v, v))
    return out


def _step(values: Sequence[int], low: int, high: int) -> int | None:
    """The step n > 1 when ``values`` are every n-th value from ``low`` to the end of the field."""
    if len(values) < 2 or values[0] != low:
        return None
    n = values[1] - values[0]
    return n if n > 1 and list(values) == list(range(low, high + 1, n)) else None


def _number_list(values: Sequence[int], show=str) -> str:
    """``1, 15``, ``1 to 7``, ``1 to 5, 10`` (a run of three or more is a range)."""
    parts = []
    for a, b in _runs(values):
        if b - a >= 2:
            # TRANSLATORS: a range of numbers in a schedule said in words ("days 1 to 7 of the month").
            parts.append(pgettext("number range", "{first} to {last}").format(first=show(a), last=show(b)))
        else:
            parts.extend(show(v) for v in range(a, b + 1))
    return join_list(parts)


def _name_list(values: Sequence[int], names: dict[str, tuple[str, ...]], each: str, start: str, end: str) -> str:
    parts = []
    for a, b in _runs(values):
        if b - a >= 2:
            # TRANSLATORS: a range of weekdays or months ("Monday to Friday", "January to March"); the
            # names come in the forms of the contexts "from weekday"/"to weekday" or "from month"/"to month".
            parts.append(pgettext("name range", "{first} to {last}").format(
                first=pgettext(start, names[start][a]), last=pgettext(end, names[end][b])))
        else:
            parts.extend(pgettext(each, names[each][v]) for v in range(a, b + 1))
    return join_list(parts)


def _clock(h: int, m: int) -> str:
    return f"{h:02d}:{m:02d}"


def _time_phrase(s: SpecSchedule) -> tuple[str, bool]:
    """(when in the day, whether it names clock times: then "every day" is said when no day is restricted)."""
    minutes, hours = _values(s, "minute"), _values(s, "hour")
    all_minutes, all_hours = len(minutes) == 60, len(hours) == 24
    minute_step, hour_step = _step(minutes, 0, 59), _step(hours, 0, 23)
    if all_hours:
        if all_minutes:
            return _("every minute"), False
        if minute_step:
            return ngettext("every {n} minute", "every {n} minutes", minute_step).format(n=minute_step), False
        if minutes == [0]:
            return _("every hour, on the hour"), False
        # TRANSLATORS: {minutes} lists minutes past the hour ("15", "0, 15, 45", "10 to 20").
        return ngettext("every hour at minute {minutes}", "every hour at minutes {minutes}", len(minutes)).format(
            minutes=_number_list(minutes)), False
    if len(minutes) * len(hours) <= MAX_TIMES:
        times = [_clock(h, m) for h in hours for m in minutes]
        # TRANSLATORS: {times} lists clock times ("02:30", "00:00, 12:00").
        return _("at {times}").format(times=join_list(times)), True
    runs = _runs(hours)
    if len(minutes) == 1 and len(runs) == 1:
        # TRANSLATORS: {first} and {last} are clock times ("every hour from 09:00 to 17:00").
        return _("every hour from {first} to {last}").format(first=_clock(runs[0][0], minutes[0]),
                                                             last=_clock(runs[0][1], minutes[0])), True
    if hour_step and len(minutes) == 1:
        if minutes == [0]:
            return ngettext("every {n} hour, on the hour", "every {n} hours, on the hour", hour_step).format(
                n=hour_step), False
        return ngettext("every {n} hour at minute {minute}", "every {n} hours at minute {minute}",
                        hour_step).format(n=hour_step, minute=minutes[0]), False
    hours_text = _number_list(hours, lambda h: f"{h:02d}")
    if all_minutes:
        # TRANSLATORS: {hours} lists hours of the day ("09 to 17", "08, 20").
        return ngettext("every minute of hour {hours}", "every minute of hours {hours}", len(hours)).format(
            hours=hours_text), False
    if minute_step:
        return ngettext("every {n} minute during hours {hours}", "every {n} minutes during hours {hours}",
                        minute_step).format(n=minute_step, hours=hours_text), False
    # TRANSLATORS: {minutes} lists minutes past the hour, {hours} hours of the day ("at minute 0 of hours 09 to 17").
    return ngettext("at minute {minutes} of hours {hours}", "at minutes {minutes} of hours {hours}",
                    len(minutes)).format(minutes=_number_list(minutes), hours=hours_text), False


def _days_phrase(s: SpecSchedule, clock_times: bool) -> str:
    dom, dow = _values(s, "dom"), _values(s, "dow")
    dom_star, dow_star = s.has_star("dom"), s.has_star("dow")
    all_dom, all_dow = len(dom) == 31, len(dow) == 7
    weekdays = _name_list(dow, _WEEKDAYS, "on weekday", "from weekday", "to weekday")
    # TRANSLATORS: {days} lists days of the month ("1", "1, 15", "1 to 7").
    month_days = ngettext("on day {days} of the month", "on days {days} of the month", len(dom)).format(
        days=_number_list(dom))
    # TRANSLATORS: {weekdays} lists weekdays in the forms of the context "on weekday" ("Monday, Wednesday,
    # Friday", or a range "Monday to Friday").
    on_weekdays = _("on {weekdays}").format(weekdays=weekdays)
    if dom_star or dow_star:
        # robfig: a day must match both fields.
        if all_dom and all_dow:
            return _("every day") if clock_times else ""
        if all_dom:
            return on_weekdays
        if all_dow:
            return month_days
        # TRANSLATORS: both day fields must match ("on days 1 to 7 of the month, when it is a Monday").
        return _("{month_days}, when it is {weekdays}").format(month_days=month_days, weekdays=pgettext(
            "on weekday", _WEEKDAYS["on weekday"][dow[0]]) if len(dow) == 1 else weekdays)
    # Neither is a star: robfig runs on a day that matches either field.
    # TRANSLATORS: robfig/cron runs on a day matching either field ("on day 1 of the month or on Monday").
    return _("{month_days} or {weekdays}").format(month_days=month_days, weekdays=on_weekdays)


def _months_phrase(s: SpecSchedule) -> str:
    months = _values(s, "month")
    if len(months) == 12:
        return ""
    runs = _runs(months)
    if len(runs) == 1 and runs[0][1] - runs[0][0] >= 2:
        first, last = runs[0][0] - 1, runs[0][1] - 1
        # TRANSLATORS: the months a schedule runs in, as one range ("from January to March"); the names come
        # in the forms of the contexts "from month" and "to month".
        return _("from {first} to {last}").format(first=pgettext("from month", _MONTHS["from month"][first]),
                                                  last=pgettext("to month", _MONTHS["to month"][last]))
    # TRANSLATORS: {months} lists months in the forms of the context "in month" ("February", "July, August"),
    # or a range "January to March".
    return _("in {months}").format(months=_name_list([m - 1 for m in months], _MONTHS, "in month", "from month",
                                                     "to month"))


def say_schedule(schedule: str, time_zone: str | None = None) -> str:
    """A cron schedule in words in the current language: ``say_schedule("30 2 * * *", "Asia/Shanghai")``
    is ``at 02:30 every day, Asia/Shanghai``.

    ``time_zone`` is the CronJob's ``spec.timeZone`` (or the zone the schedule is evaluated in); a
    ``TZ=``/``CRON_TZ=`` prefix in the schedule names its own zone, which wins, as it does for the
    controller. A schedule the controller cannot parse is returned as written, with a note saying so.
    """
    try:
        parsed = parse_standard(schedule)
    except CronParseError:
        return _(_UNPARSEABLE).format(schedule=schedule)
    zone = time_zone
    if isinstance(parsed, SpecSchedule) and parsed.location is not None:
        zone = parsed.location
    if isinstance(parsed, ConstantDelaySchedule):
        # TRANSLATORS: {every} is a duration as Go prints it (1h30m0s): robfig's "@every" schedule.
        words = _("every {every}").format(
            every=go_duration(parsed.delay_seconds))
        zone = None
    else:
        when, clock_times = _time_phrase(parsed)
        days = _days_phrase(parsed, clock_times)
        months = _months_phrase(parsed)
        # TRANSLATORS: a schedule in words: {when} in the day ("at 02:30", "every 5 minutes"), {days} which days
        # ("every day", "on Monday to Friday"). Reorder as your language says it (Chinese: "{days} {when}").
        words = _("{when} {days}").format(when=when, days=days) if days else when
        if months:
            # TRANSLATORS: a schedule in words and the months it runs in ("..., in February").
            words = _("{schedule}, {months}").format(schedule=words, months=months)
    if zone:
        # TRANSLATORS: a schedule in words and its time zone, an IANA name such as Asia/Shanghai (stays English).
        words = _("{schedule}, {zone}").format(schedule=words, zone=zone)
    return words


__all__ = ["say_schedule"]
