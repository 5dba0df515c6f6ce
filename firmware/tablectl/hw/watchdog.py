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
    """machine.WDT started at the first feed: importing the board at the REPL does not arm it."""

    def __init__(self, timeout_ms):
        self.timeout_ms = timeout_ms
        self._wdt = None
        self.feeds = 0

    def feed(self):
        if self._wdt is None:
            from machine import WDT  # only real boards get here
            self._wdt = WDT(timeout=self.timeout_ms)
        self._wdt.feed()
        self.feeds += 1
