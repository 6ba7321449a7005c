"""A CronJob schedule said in words, in every language, read from the parsed schedule (not its text)."""

from __future__ import annotations

import pytest

from k8sjobs import say_schedule, set_language

CASES = [
    # (what it says, schedule, time zone, en, zh-CN, zh-TW, ru)
    ("a daily time in a zone", "30 2 * * *", "Asia/Shanghai",
     "at 02:30 every day, Asia/Shanghai", "每天 02:30（Asia/Shanghai）", "每天 02:30（Asia/Shanghai）",
     "в 02:30 каждый день, Asia/Shanghai"),
    ("@hourly", "@hourly", None,
     "every hour, on the hour", "每小时整点", "每小時整點", "каждый час, в начале часа"),
    ("a step of minutes", "*/5 * * * *", None, "every 5 minutes", "每 5 分钟", "每 5 分鐘", "каждые 5 минут"),
    ("every minute", "* * * * *", None, "every minute", "每分钟", "每分鐘", "каждую минуту"),
    ("a range of hours on a range of weekdays", "0 9-17 * * 1-5", None,
     "every hour from 09:00 to 17:00 on Monday to Friday", "每周一至周五 09:00 至 17:00 每小时一次",
     "每週一至週五 09:00 至 17:00 每小時一次", "каждый час с 09:00 до 17:00 с понедельника по пятницу"),
    ("a list of hours", "0 0,12 * * *", None,
     "at 00:00, 12:00 every day", "每天 00:00、12:00", "每天 00:00、12:00", "в 00:00, 12:00 каждый день"),
    ("weekday names", "15 10 * * MON,WED,FRI", None,
     "at 10:15 on Monday, Wednesday, Friday", "每周一、周三、周五 10:15", "每週一、週三、週五 10:15",
     "в 10:15 по понедельникам, по средам, по пятницам"),
    ("a day of the month", "0 0 1 * *", None,
     "at 00:00 on day 1 of the month", "每月 1 日 00:00", "每月 1 日 00:00", "в 00:00 1 числа каждого месяца"),
    ("a step of hours", "0 */2 * * *", None,
     "every 2 hours, on the hour", "每 2 小时整点", "每 2 小時整點", "каждые 2 часа, в начале часа"),
    ("both day fields restricted: either matches (robfig)", "30 2 1-7 * 1", None,
     "at 02:30 on days 1 to 7 of the month or on Monday", "每月 1 至 7 日或每周一 02:30",
     "每月 1 至 7 日或每週一 02:30", "в 02:30 с 1 по 7 числа каждого месяца или по понедельникам"),
    ("a TZ= prefix names its own zone, which wins", "TZ=Europe/Berlin 0 3 * * *", "UTC",
     "at 03:00 every day, Europe/Berlin", "每天 03:00（Europe/Berlin）", "每天 03:00（Europe/Berlin）",
     "в 03:00 каждый день, Europe/Berlin"),
    ("a range of months", "0 8 * 1-3 *", None,
     "at 08:00 every day, from January to March", "1月至3月，每天 08:00", "1月至3月，每天 08:00",
     "в 08:00 каждый день, с января по март"),
    ("@weekly is Sunday at midnight", "@weekly", None,
     "at 00:00 on Sunday", "每周日 00:00", "每週日 00:00", "в 00:00 по воскресеньям"),
    ("@every", "@every 1h30m", None, "every 1h30m0s", "每隔 1h30m0s", "每隔 1h30m0s", "каждые 1h30m0s"),
]
LANGS = ("en", "zh-CN", "zh-TW", "ru")


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    set_language("en")


@pytest.mark.parametrize(("what", "schedule", "zone", "en", "zh_cn", "zh_tw", "ru"), CASES, ids=[c[0] for c in CASES])
def test_a_schedule_is_said_in_words_in_every_language(what, schedule, zone, en, zh_cn, zh_tw, ru):
    for lang, words in zip(LANGS, (en, zh_cn, zh_tw, ru), strict=True):
        set_language(lang)
        assert say_schedule(schedule, zone) == words, (what, lang)


def test_the_same_times_written_otherwise_are_said_the_same():
    assert say_schedule("0 0 * * *") == say_schedule("@daily") == say_schedule("0 0 * * ?") == "at 00:00 every day"
    assert say_schedule("*/15 * * * *") == say_schedule("0-59/15 * * * *") == say_schedule("0,15,30,45 * * * *")
    assert say_schedule("0 9 * * mon-fri") == say_schedule("0 9 * * 1-5")


def test_a_schedule_the_controller_cannot_parse_is_returned_as_written_with_a_note():
    assert say_schedule("61 * * * *") == "61 * * * * (not a schedule the CronJob controller can read)"
    set_language("ru")
    assert say_schedule("nonsense").startswith("nonsense (")
