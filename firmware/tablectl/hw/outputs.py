"""Timed outputs: the dice shaker (maximum on-time, cover interlock) and the bell pulse, both off on any exit."""
from tablectl.hw.clock import ticks_add, ticks_diff


class Pulse:
    """A pin switched on for a bounded time: on(ms) then service(now) switches it off at the deadline.
    The pin is an output with value(); active_high=False for a relay driven low."""

    def __init__(self, pin, clock, max_on_ms, active_high=True):
        self._pin = pin
        self._clock = clock
        self.max_on_ms = max_on_ms
        self._on = 1 if active_high else 0
        self._deadline = 0
        self.is_on = False
        self.pulses = 0
        self.off()

    def on(self, ms):
        if not 0 < ms <= self.max_on_ms:
            raise ValueError("on-time %d ms outside 1..%d" % (ms, self.max_on_ms))
        self._deadline = ticks_add(self._clock(), ms)
        self._pin.value(self._on)
        self.is_on = True
        self.pulses += 1

    def service(self, now=None):
        """Switch off once the deadline has passed; returns True while still on."""
        if self.is_on and ticks_diff(self._clock() if now is None else now, self._deadline) >= 0:
            self.off()
        return self.is_on

    def off(self):
        self._pin.value(1 - self._on)
        self.is_on = False


class Shaker(Pulse):
    """Electric dice shaker (SB-1.2, SB-2.1): refuses to start unless the cover interlock input reads
    closed (the dealer clips the cover to the base before shaking), never runs past max_on_ms."""

    def __init__(self, pin, clock, max_on_ms=8000, interlock=None, active_high=True):
        Pulse.__init__(self, pin, clock, max_on_ms, active_high)
        self._interlock = interlock  # input reading 1 when the cover is clipped
        self.interrupted = False     # the last run was cut short by the interlock

    def cover_closed(self):
        return self._interlock is None or self._interlock.value() == 1

    def on(self, ms):
        if not self.cover_closed():
            raise ValueError("cover not clipped")  # SB-2.1
        Pulse.on(self, ms)
        self.interrupted = False

    def service(self, now=None):
        if self.is_on and not self.cover_closed():
            self.off()  # the cover came off mid-shake: stop at once
            self.interrupted = True
        return Pulse.service(self, now)


class Bell(Pulse):
    """The bell that closes betting (SB-3.1, FT-4): ring() gives one pulse of pulse_ms."""

    def __init__(self, pin, clock, pulse_ms=300, active_high=True):
        Pulse.__init__(self, pin, clock, pulse_ms, active_high)
        self.pulse_ms = pulse_ms

    def ring(self):
        self.on(self.pulse_ms)


class Lamp:
    """A plain on/off lamp output (the betting-open lamp, SB-2.2)."""

    def __init__(self, pin, active_high=True):
        self._pin = pin
        self._on = 1 if active_high else 0
        self.is_on = False
        self.set(False)

    def set(self, on):
        self.is_on = bool(on)
        self._pin.value(self._on if on else 1 - self._on)
