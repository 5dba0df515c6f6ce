"""Real-time clocks as the table reads them: now() -> seconds since 2000-01-01 UTC (None: it does not know), set(t).

    MachineRTC(machine.RTC())   # a Pico's or an ESP32's (its datetime() tuple)
    TickRTC(ticks_ms)           # counted from ticks (the qemu board; tests on a virtual clock): lost at reset
    FileRTC(path, time.time)    # the sim board's battery-backed clock: an offset from the host's, in a file

What a clock says is checked by tablectl.timeofday (a clock that reads earlier than the journal is not set).
"""
from tablectl.hw.clock import ticks_add, ticks_diff

_EPOCH_1970 = 946684800  # seconds from 1970-01-01 to 2000-01-01
_ROLL_MS = 1 << 28  # ticks wrap at 2**30 ms: the count moves on to seconds well before ticks_diff fails


class MachineRTC:
    def __init__(self, rtc):
        self.rtc = rtc

    def now(self):
        from tablectl.utc import seconds
        y, mo, d, _wd, h, mi, s, _sub = self.rtc.datetime()
        return seconds(y, mo, d, h, mi, s)

    def set(self, t):
        from tablectl.utc import fields
        y, mo, d, h, mi, s = fields(t)
        self.rtc.datetime((y, mo, d, (t // 86400 + 5) % 7, h, mi, s, 0))  # 2000-01-01 was a Saturday (5)


class TickRTC:
    """A clock counted from ticks_ms: read it at least every 3 days (the journal does) or it loses the time."""

    def __init__(self, ticks_ms):
        self.ticks_ms = ticks_ms
        self.base = None  # seconds at tick `at`
        self.at = 0

    def now(self):
        if self.base is None:
            return None
        now = self.ticks_ms()
        ms = ticks_diff(now, self.at)
        if ms < 0:
            self.base = None  # read too late: the ticks wrapped
            return None
        if ms >= _ROLL_MS:
            self.base += ms // 1000
            self.at = ticks_add(self.at, ms // 1000 * 1000)
            ms %= 1000
        return self.base + ms // 1000

    def set(self, t):
        self.base = t
        self.at = self.ticks_ms()


class FileRTC:
    """The host's clock plus an offset kept in a file, so it keeps time across a power cut as a battery-backed
    one does; no file, or one that is not a number: not set."""

    def __init__(self, path, host_time):
        self.path = path
        self.host_time = host_time

    def _offset(self):
        try:
            with open(self.path) as f:
                return int(f.read().strip())
        except (OSError, ValueError):
            return None

    def now(self):
        off = self._offset()
        return None if off is None else self._host() + off

    def _host(self):
        return int(self.host_time()) - _EPOCH_1970  # the unix port's time.time() counts from 1970

    def set(self, t):
        with open(self.path, "w") as f:
            f.write("%d\n" % (t - self._host()))
