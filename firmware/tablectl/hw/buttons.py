"""Debounced push buttons polled from a task (peterhinch style): press and long-press events by role name, with
edges latched by the pins' interrupts so a tap during a long commit is not lost."""
import array

from tablectl import const

from tablectl.hw.clock import ticks_diff

_UP = const(0)
_DOWN = const(1)
_LONG_SENT = const(2)
EDGES = const(32)  # the interrupt's ring: edges between two polls (a tap is two, a bouncing contact more)


class Buttons:
    """`pins` maps a role ('BELL', '7', ...) to anything with value(); pressed reads 0 when active_low
    (GPIO with pull-up). poll(now) returns the events since the last poll: 'ROLE' when a press has been
    stable for debounce_ms, 'ROLE_LONG' once when it is held long_ms. A board may override the timings.
    The App's button task calls poll() every poll_ms (tablectl.app).

    With `ticks` (the board's ticks_ms), every pin that has irq() gets a handler for both edges that only
    records (role, level, time) into a preallocated ring (micropython-async's pattern: no allocation, a
    hard interrupt may run it); poll() replays those edges through the same debounce first, so a press
    and release that both came while a commit held the task still counts, by the edges' own times."""

    debounce_ms = 30
    long_ms = 1000
    poll_ms = 10

    def __init__(self, pins, active_low=True, scanners=(), ticks=None):
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
        self._ring_role = bytearray(EDGES)
        self._ring_level = bytearray(EDGES)
        self._ring_t = array.array("I", bytes(4 * EDGES))
        self._ends = array.array("I", bytes(8))  # [head, tail]: head written by the interrupt only
        self._ticks = ticks
        if ticks is not None:
            edge = self._edge  # one handler for every pin (a closure a pin would take 3 KB of heap)
            for pin in self._pins:
                if hasattr(pin, "irq"):
                    pin.irq(edge, pin.IRQ_FALLING | pin.IRQ_RISING)

    def _edge(self, pin):
        """The pins' interrupt handler: records the edge and returns (no allocation: it may be a hard IRQ)."""
        ends = self._ends
        h = ends[0]
        nxt = (h + 1) % EDGES
        if nxt != ends[1]:  # full: the edge is dropped, and poll() still reads the pin as it is
            self._ring_role[h] = self._pins.index(pin)
            self._ring_level[h] = pin.value()
            self._ring_t[h] = self._ticks() & 0x3FFFFFFF
            ends[0] = nxt

    def _edges(self, ev):
        """Replay the latched edges, oldest first, through the debounce (poll's rules, at the edges' times)."""
        ends = self._ends
        t = ends[1]
        while t != ends[0]:
            i = self._ring_role[t]
            raw = 1 if self._ring_level[t] == self._level else 0
            at = self._ring_t[t]
            t = (t + 1) % EDGES
            ends[1] = t
            if raw == self._raw[i]:
                continue
            held = ticks_diff(at, self._since[i])  # how long the level before this edge lasted
            st = self._state[i]
            if not raw:  # released: a press held past the debounce counted, even if no poll saw it
                if st == _UP and held >= self.debounce_ms:
                    st = _DOWN
                    ev.append(self.roles[i])
                if st == _DOWN and held >= self.long_ms:
                    st = _LONG_SENT
                    ev.append(self._long[i])
            elif st != _UP and held >= self.debounce_ms:
                st = _UP  # the release before this press was no bounce
            self._state[i] = st
            self._raw[i] = raw
            self._since[i] = at

    def pressed(self, role):
        return self._state[self.roles.index(role)] != _UP

    def poll(self, now):
        ev = self._events
        del ev[:]
        self._edges(ev)
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
