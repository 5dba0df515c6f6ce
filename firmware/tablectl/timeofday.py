"""Whether the board's clock is set, as the journal reads it (seconds since 2000-01-01 UTC; tablectl.utc for text).

    clock = TimeOfDay(board.rtc, floor)   # rtc: now() -> seconds or None, set(seconds) (tablectl.hw.rtc)
    clock.now()          # seconds, or None while the time is not set (TIME NOT SET)

The clock counts as set once a technician set it, for as long as it never reads earlier than `floor`,
the latest time the journal holds: a clock that lost its battery, or goes back on its own, is not set
again until someone sets it (docs/technicians.md, "Time of day").
"""
NOT_SET = "TIME NOT SET"
FIRST = 757382400   # 2024-01-01: a time a table takes from its link server (tablectl.utc: 2024..2099)
END = 3155760000    # 2100-01-01
DRIFT_S = 2         # a clock further off than this from the link server's is set from it


class TimeOfDay:
    """The board's clock as the journal reads it: set or not (`lost`: it was set, then read earlier than the
    journal; why() says it)."""

    def __init__(self, rtc, floor=None):
        self.rtc = rtc
        self.floor = floor  # the latest time the journal holds (None: never set on this table)
        self.lost = False
        self.lost_floor = self.lost_read = None  # what lost it: the journal's time, the clock's reading
        self.told = False  # the loss journalled (App.time_lost)
        if floor is not None:
            t = self._read()
            if t is None or t < floor:
                self._lose(t)

    def _read(self):
        return self.rtc.now() if self.rtc is not None else None

    def _lose(self, t):
        self.lost = True
        self.lost_floor, self.lost_read, self.told = self.floor, t, False
        self.floor = None

    def is_set(self):
        return self.floor is not None

    def now(self):
        """Seconds since 2000-01-01 UTC, None while not set; a clock that goes back is no longer set."""
        if self.floor is None:
            return None
        t = self._read()
        if t is None or t < self.floor:
            self._lose(t)
            return None
        self.floor = t
        return t

    def set(self, t):
        """The clock set to t (the caller journalled it first, so a cut between leaves it not set)."""
        self.rtc.set(t)
        self.floor = t
        self.lost = False
        self.told = True

    def why(self):
        """Why the clock is not set ('' if it is, or was never set)."""
        if not self.lost:
            return ""
        from tablectl.utc import text
        return "the clock read %s, earlier than %s the journal holds" % (text(self.lost_read), text(self.lost_floor))
