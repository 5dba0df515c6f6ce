"""Input drivers on fake pins: debounced buttons with long press, the keypad matrix, the watchdog supervisor."""
# mp-heap: 64K
from tablectl.hw.buttons import Buttons
from tablectl.hw.clock import VirtualClock, ticks_add, ticks_diff
from tablectl.hw.keypad import Matrix
from tablectl.hw.watchdog import Supervisor


class Pin:
    def __init__(self, v=1):
        self.v = v
        self.log = []

    def value(self, v=None):
        if v is None:
            return self.v
        self.v = v
        self.log.append(v)


def run(buttons, pin, script, step=10):
    """Drive pin per script [(ms, level)], polling every `step` ms; returns [(ms, event)]."""
    out = []
    t = 0
    for until, level in script:
        pin.v = level
        while t < until:
            for e in buttons.poll(t):
                out.append((t, e))
            t += step
    return out


def test_press_reported_once_after_debounce():
    p = Pin()
    b = Buttons({"BELL": p})
    ev = run(b, p, [(100, 1), (300, 0), (500, 1)])
    assert [e for _, e in ev] == ["BELL"]
    t = ev[0][0]
    assert 100 + b.debounce_ms <= t <= 100 + b.debounce_ms + 20


def test_bounce_shorter_than_debounce_is_ignored():
    p = Pin()
    b = Buttons({"BELL": p})
    script = [(50, 1)]
    t = 50
    for _ in range(10):  # contact bounce: 10 ms low, 10 ms high
        script += [(t + 10, 0), (t + 20, 1)]
        t += 20
    script.append((t + 200, 1))
    assert run(b, p, script) == []


def test_long_press_reported_once_and_release_rearms():
    p = Pin()
    b = Buttons({"VOID": p})
    ev = run(b, p, [(20, 1), (20 + 2500, 0), (2700, 1), (2800, 0), (3000, 1)])
    names = [e for _, e in ev]
    assert names == ["VOID", "VOID_LONG", "VOID"]
    t_long = ev[1][0]
    assert ticks_diff(t_long, 20) >= b.long_ms


def test_active_high_buttons_and_several_roles():
    a, c = Pin(0), Pin(0)
    b = Buttons({"A": a, "C": c}, active_low=False)
    a.v = 1
    c.v = 1
    ev = []
    for t in range(0, 200, 10):
        ev += b.poll(t)
    assert sorted(ev) == ["A", "C"]
    assert b.pressed("A") and b.pressed("C")


def test_debounce_across_tick_wraparound():
    p = Pin()
    b = Buttons({"BELL": p})
    start = ticks_add(0, -15)  # 15 ms before the tick counter wraps
    p.v = 0
    seen = []
    t = start
    for _ in range(10):
        seen += b.poll(t)
        t = ticks_add(t, 10)
    assert seen == ["BELL"]


def test_poll_reuses_its_event_list():
    p = Pin()
    b = Buttons({"BELL": p})
    assert b.poll(0) is b.poll(10)


def test_keypad_matrix_reports_the_key_at_row_and_column():
    rows = [Pin(1), Pin(1)]

    class Col:
        def __init__(self, c):
            self.c = c
            self.down = set()

        def value(self):
            for r in range(2):
                if rows[r].v == 0 and (r, self.c) in self.down:
                    return 0
            return 1

    cols = [Col(0), Col(1), Col(2)]
    m = Matrix(rows, cols, (("1", "2", "3"), ("CLEAR", "0", "ENTER")))
    b = Buttons(m.pins, scanners=[m])
    for c in cols:
        c.down.add((1, 2))  # ENTER pressed
    ev = []
    for t in range(0, 100, 10):
        ev += b.poll(t)
    assert ev == ["ENTER"]
    assert rows[0].v == 1 and rows[1].v == 1  # rows released after the scan


def test_keypad_rejects_a_key_map_of_the_wrong_shape():
    try:
        Matrix([Pin()], [Pin(), Pin()], (("1",),))
    except ValueError:
        return
    raise AssertionError("a 1x1 key map for a 1x2 matrix was accepted")


class Wdt:
    def __init__(self):
        self.feeds = 0

    def feed(self):
        self.feeds += 1


def test_watchdog_fed_only_when_every_task_checked_in():
    w = Wdt()
    s = Supervisor(w, ("buttons", "controller", "display"))
    assert not s.check() and w.feeds == 0
    s.alive(0)
    s.alive(2)
    assert s.stalled() == ["controller"]
    assert not s.check() and w.feeds == 0
    s.alive(1)
    assert s.check() and w.feeds == 1
    assert not s.check() and w.feeds == 1  # a new round of check-ins is needed each time


def test_virtual_clock_moves_only_when_told():
    c = VirtualClock(100)
    assert c.ticks_ms() == 100 and c.ticks_ms() == 100
    c.advance(50)
    assert c.ticks_ms() == 150


def test_74hc165_chain_reads_each_input_in_shift_order():
    from tablectl.hw.shiftin import ShiftIn
    inputs = [1, 0, 0, 1, 1, 0, 0, 1, 0, 1]  # input 0 reaches QH first
    pos = [0]

    class Load(Pin):
        def value(self, v=None):
            if v == 0:
                pos[0] = 0  # SH/LD low: the inputs are loaded, QH shows input 0
            return Pin.value(self, v)

    class Clk(Pin):
        def value(self, v=None):
            if v == 1 and self.v == 0:
                pos[0] += 1  # a rising edge shifts the next input to QH
            return Pin.value(self, v)

    class Data:
        def value(self):
            return inputs[pos[0]] if pos[0] < len(inputs) else 0

    chain = ShiftIn(Load(1), Clk(0), Data(), count=10)
    chain.scan()
    assert [p.value() for p in chain.pins] == inputs
    inputs[1] = 1
    assert chain.pins[1].value() == 0  # nothing changes until the next scan
    chain.scan()
    assert chain.pins[1].value() == 1
