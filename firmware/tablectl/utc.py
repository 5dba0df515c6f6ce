"""Times as the journal holds them, seconds since 2000-01-01 UTC, to and from the calendar (no time module needed).

    parse('2026-12-02 08:30:00')  -> seconds (ValueError, one line);  text(seconds) -> '2026-12-02T08:30:00Z'
    seconds(y, mo, d, h, mi, s), fields(t) -> (y, mo, d, h, mi, s);  days(y, mo, d), date(n)

Imported only where a time is shown or set (the service, an export, a board's machine.RTC): the 64 KB
board keeps it out of the heap otherwise.
"""
EARLIEST = 2024  # a setting before this year is a mistake (or a clock that lost its time)
LATEST = 2099


def days(y, m, d):
    """Days from 2000-01-01 to the date (the proleptic Gregorian calendar, any year)."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m - 3 if m > 2 else m + 9) + 2) // 5 + d - 1
    return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 730425


def date(n):
    """(year, month, day) of day n after 2000-01-01: days()'s inverse."""
    n += 730425
    era = n // 146097
    doe = n - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    m = mp + 3 if mp < 10 else mp - 9
    return yoe + era * 400 + (m <= 2), m, doy - (153 * mp + 2) // 5 + 1


def seconds(y, mo, d, h=0, mi=0, s=0):
    return days(y, mo, d) * 86400 + h * 3600 + mi * 60 + s


def fields(t):
    """(year, month, day, hour, minute, second) of t seconds after 2000-01-01."""
    y, mo, d = date(t // 86400)
    t %= 86400
    return y, mo, d, t // 3600, t // 60 % 60, t % 60


def text(t):
    """'2026-12-02T08:30:00Z' (UTC), '-' for None (no time)."""
    if t is None:
        return "-"
    return "%04d-%02d-%02dT%02d:%02d:%02dZ" % fields(t)


def _month_days(y, mo):
    return days(y + (mo == 12), mo % 12 + 1, 1) - days(y, mo, 1)


def parse(value, earliest=EARLIEST):
    """Seconds from 'YYYY-MM-DD HH:MM:SS' ('T' between, a trailing 'Z' allowed: UTC): ValueError, one line, for
    anything else, a date that does not exist, or a year outside earliest..LATEST."""
    form = "the time is text 'YYYY-MM-DD HH:MM:SS' (UTC), e.g. '2026-12-02 08:30:00'"
    if not isinstance(value, str):
        raise ValueError("%s; got %r" % (form, value))
    s = value[:-1] if value.endswith("Z") else value
    if len(s) != 19 or s[4] != "-" or s[7] != "-" or s[10] not in " T" or s[13] != ":" or s[16] != ":":
        raise ValueError("%s; got %r" % (form, value))
    parts = []
    for a, b in ((0, 4), (5, 7), (8, 10), (11, 13), (14, 16), (17, 19)):
        digits = s[a:b]
        for ch in digits:
            if not "0" <= ch <= "9":
                raise ValueError("%s; got %r" % (form, value))
        parts.append(int(digits))
    y, mo, d, h, mi, sec = parts
    if not earliest <= y <= LATEST:
        raise ValueError("year %d outside %d..%d: %r" % (y, earliest, LATEST, value))
    if not 1 <= mo <= 12 or not 1 <= d <= _month_days(y, mo):
        raise ValueError("no such date: %r" % value)
    if h > 23 or mi > 59 or sec > 59:
        raise ValueError("no such time of day (00:00:00..23:59:59): %r" % value)
    return seconds(y, mo, d, h, mi, sec)

