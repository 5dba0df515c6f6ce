"""Watchdog supervisor: the hardware watchdog is fed only when every registered task has checked in."""


class Supervisor:
    def __init__(self, wdt, names):
        self.wdt = wdt
        self.names = tuple(names)
        self._seen = bytearray(len(self.names))
        self.feeds = 0

    def alive(self, i):
        self._seen[i] = 1

    def stalled(self):
        """Names of the tasks that have not checked in since the last feed."""
        return [self.names[i] for i in range(len(self.names)) if not self._seen[i]]

    def check(self):
        """Feed if all tasks were alive since the last check; a stalled task lets the watchdog reset us."""
        for s in self._seen:
            if not s:
                return False
        self.wdt.feed()
        self.feeds += 1
        for i in range(len(self._seen)):
            self._seen[i] = 0
        return True


class LazyWdt:
    """machine.WDT started at the first feed: importing the board at the REPL does not arm it.

    hold() keeps the board up once a person has stopped the firmware at the REPL (Ctrl-C): machine.WDT
    cannot be stopped once started, so without it the board would reset under the technician (or under
    `make deploy`'s copy) within timeout_ms. A timer (`timer_id`: -1 is a virtual timer where the port has
    them, the RP2040; the ESP32 needs a hardware one) feeds it from then on. A soft reset ends the timer,
    and the watchdog then resets the board into the firmware. A hang or a crash is not held: the App's
    Supervisor stops feeding and the board resets, which is what the watchdog is for."""

    def __init__(self, timeout_ms, timer_id=-1):
        self.timeout_ms = timeout_ms
        self.timer_id = timer_id
        self._wdt = None
        self._timer = None
        self.feeds = 0

    def feed(self):
        if self._wdt is None:
            from machine import WDT  # only real boards get here
            self._wdt = WDT(timeout=self.timeout_ms)
        self._wdt.feed()
        self.feeds += 1

    def hold(self):
        """Feed from a timer from now on; False if the watchdog was never armed (nothing to hold)."""
        if self._wdt is None:
            return False
        if self._timer is None:
            from machine import Timer
            wdt = self._wdt
            self._timer = Timer(self.timer_id, mode=Timer.PERIODIC, period=min(1000, self.timeout_ms // 4),
                                callback=lambda t: wdt.feed())
        return True
