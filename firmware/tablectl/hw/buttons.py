"""Debounced push buttons polled from a task (peterhinch style): press and long-press events by role name."""
from tablectl import const

from tablectl.hw.clock import ticks_diff

_UP = const(0)
_DOWN = const(1)
_LONG_SENT = const(2)


class Buttons:
    """`pins` maps a role ('BELL', '7', ...) to anything with value(); pressed reads 0 when active_low
    (GPIO with pull-up). poll(now) returns the events since the last poll: 'ROLE' when a press has been
    stable for debounce_ms, 'ROLE_LONG' once when it is held long_ms. A board may override the timings.
    The App's button task calls poll() every poll_ms (tablectl.app)."""

    debounce_ms = 30
    long_ms = 1000
    poll_ms = 10

    def __init__(self, pins, active_low=True, scanners=()):
        self._scanners = tuple(scanners)  # e.g. a keypad Matrix, scanned once per poll before reading
        self.roles = tuple(sorted(pins))
        self._pins = tuple(pins[r] for r in self.roles)
        self._long = tuple(r + "_LONG" for r in self.roles)  # built once: polling never allocates names
        self._level = 0 if active_low else 1
        n = len(self.roles)
        self._raw = bytearray(n)       # last raw reading, 1 = pressed
        self._since = [0] * n          # ticks when the raw reading last changed
        self._state = bytearray(n)     # _UP, _DOWN or _LONG_SENT
        self._events = []

    def pressed(self, role):
        return self._state[self.roles.index(role)] != _UP

    def poll(self, now):
        ev = self._events
        del ev[:]
        for s in self._scanners:
            s.scan()
        for i in range(len(self._pins)):
            raw = 1 if self._pins[i].value() == self._level else 0
            if raw != self._raw[i]:
                self._raw[i] = raw
                self._since[i] = now
                continue
            held = ticks_diff(now, self._since[i])
            st = self._state[i]
            if raw:
                if st == _UP and held >= self.debounce_ms:
                    self._state[i] = _DOWN
                    ev.append(self.roles[i])
                elif st == _DOWN and held >= self.long_ms:
                    self._state[i] = _LONG_SENT
                    ev.append(self._long[i])
            elif st != _UP and held >= self.debounce_ms:
                self._state[i] = _UP
        return ev
