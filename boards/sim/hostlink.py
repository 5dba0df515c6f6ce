"""The sim board's host link to the simulator: a TCP line protocol carrying inputs in and output changes out.

The simulator (tools/sim) listens on 127.0.0.1 and passes "host:port" in env TABLECTL_HOSTLINK; the sim
board's tasks() then starts task(board, address). The qemu board runs the same protocol on its second
UART, where qemu connects to the simulator (serve(board, uart) once the host has spoken). Everything the
page shows is what the drivers wrote to the virtual hardware (the WS2812 chain, the MAX7219 registers,
the text display, the pins), so the page runs no rules of its own.

host -> board, one command a line:
    press ROLE | release ROLE      a dealer's button (roles: the board's roles)
    seat N 0|1                     a chip off/on seat N's bet sensor (1 = the dealer's left)
    cover 0|1                      the shaker cover clip (SB-2.1 interlock)
    key 0|1                        the technician's service key switch
    game NAME [CODE]               select the game through service.configure (refused mid-round; closing
                                   a jackpot that holds money needs the code its refusal names)
    sync                           send everything again

board -> host, one JSON object a line, field "t" says which:
    hello   game, layout (spot id under each lamp, '' where none), roles, seats (configured),
            sensors (the board's seat sensors), progressive and shaker (what the table has), legend
            ([what a lamp colour means, hex RGB] for this table), language (the pages' first): what the
            page needs to draw the table; sent again as soon as the game or the wiring changes (a
            configure at the REPL too); a tilted table's game is its controller's ('' when unknown)
    out     any of: lamps (hex RGB per lamp as the chain shows), display (lines) and with it oled (the
            graphic display's RAM in hex, a board with one; else null), jackpot (digits
            decoded from the MAX7219 registers), betting_lamp, shaker, bell, cover, service_key, seats (0/1 each)
    status  the controller's status() (state, round, entry, message, ...), refused: {role: why}
            for every key the controller would refuse now (its reason(); VOID as the long hold), and
            results: the controller's own history list as it stands (the players' board; no copy made)
    error   text (a command the board refused)
    boot    (the qemu board, once as it comes up) the host answers "sync" and the table's inputs
"""
import asyncio
import binascii
import gc
import json

from tablectl.hw.clock import sleep_ms, ticks_diff
from tablectl.rules import DICE, PROGRESSIVE

BOOT = b'{"t": "boot"}\n'  # a board on a serial line says it came up: the host cannot see a reset
STATUS_MS = 250  # the status line follows the controller this often (outputs go out as they change)
# a press lasts at least this long on the board's clock: a press and its release that a busy loop
# delayed together would otherwise reach the pin at one tick and debounce away (a real button's edges
# keep their own times in the interrupt's latch); above Buttons.debounce_ms and a poll
HOLD_MS = 60
_PINS = ("betting_lamp", "shaker", "bell", "cover", "service_key")


try:
    from io import IOBase as _Base  # json.dump writes to a Python stream only through IOBase on MicroPython
except ImportError:
    _Base = object


class _Line(_Base):
    """A message as json.dump hands it out, written a small buffer at a time: a status with its results runs past
    a kilobyte, which a linked table's heap (the sim's 256 KB, fragmented by rounds) has no block for, and
    json.dumps(obj) + "\\n" and its encode() wanted three."""

    def __init__(self, stream):
        self.stream = stream
        self.buf = bytearray(128)
        self.fill = 0

    def write(self, data):
        if isinstance(data, str):  # CPython's json.dump hands out str
            data = data.encode()
        n = len(data)
        if self.fill + n > len(self.buf):
            self.flush()
        if n > len(self.buf):
            self.put(data)
        else:
            self.buf[self.fill:self.fill + n] = data
            self.fill += n
        return n

    def flush(self):
        if self.fill:
            fill, self.fill = self.fill, 0
            self.put(memoryview(self.buf)[:fill])

    def put(self, data):
        n = self.stream.write(data)
        if n is None or n < len(data):  # a full socket buffer: the line is broken, the link resyncs
            raise OSError("short write")


class HostLink:
    def __init__(self, board, stream):
        self.board = board
        self.stream = stream  # a socket, or a UART: a MicroPython stream
        self.resync = False
        self.layout = None
        self.game = None
        self.pressed_at = {}  # role -> the board's ticks when the host's press reached the pin
        self.last_status = None
        board.listeners.append(self.changed)
        self.line = _Line(stream)

    # -- board -> host ---------------------------------------------------------------------------
    def send(self, obj, dump=json.dump):
        line = self.line
        try:
            line.fill = 0
            dump(obj, line)
            line.write(b"\n")
            line.flush()
        except (OSError, MemoryError):  # a full socket, or a fragmented heap: never the controller's error
            self.resync = True  # resend everything later

    def send_lamps(self):
        self.send(memoryview(self.board.neopixel.shown), _dump_lamps)

    def output(self, what):
        b = self.board
        if what == "display":
            return list(b.display.lines)
        if what == "oled":  # the graphic display's RAM, as the panel shows it (hex)
            oled = getattr(b, "oled", None)
            return binascii.hexlify(oled.ram).decode() if oled is not None else None
        if what == "jackpot":
            return b.jackpot_bus.text()
        if what == "seats":
            return [p.value() for p in b.seats]
        if what == "betting_lamp":
            return b.betting_pin.value()
        if what == "shaker":
            return b.shaker_pin.value()
        if what == "bell":
            return b.bell_pin.value()
        if what == "cover":
            return b.cover.value()
        if what == "service_key":
            return b.service_key.value()
        return None

    def changed(self, what):
        # called by the board on every output change, possibly from inside a long service call
        if what.startswith("seat_"):
            what = "seats"
        elif what not in ("lamps", "display", "jackpot") and what not in _PINS:
            return  # buttons, the watchdog and chip-selects are not shown
        try:
            self.hello_if_rewired()
            if what == "lamps":
                self.send_lamps()
            elif what == "display" and getattr(self.board, "oled", None) is not None:
                self.send({"t": "out", what: self.output(what), "oled": self.output("oled")})
            else:
                self.send({"t": "out", what: self.output(what)})
        except MemoryError:  # the board's caller is the controller (a key's lamps): it must not see it
            self.resync = True

    def hello_if_rewired(self):
        app = _app()
        game = _game(app)
        if self.board.lamps.layout is not self.layout or game != self.game:
            self.hello()

    def hello(self):
        app = _app()
        cfg = app.config if app is not None else None
        self.layout = self.board.lamps.layout
        self.game = _game(app)
        colours = self.board.lamps.backend.COLOURS
        legend = getattr(app.controller, "LEGEND", ()) if app is not None else ()
        self.send({"t": "hello", "game": self.game, "layout": list(self.layout), "roles": list(self.board.roles),
                   "seats": cfg["seats"] if cfg is not None else 0, "sensors": len(self.board.seats),
                   "progressive": self.game in PROGRESSIVE, "shaker": self.game in DICE,
                   "legend": [[what, "%02x%02x%02x" % colours[level]] for what, level in legend],
                   "language": cfg["language"] if cfg is not None else "en"})

    def everything(self):
        self.resync = False
        self.hello()
        self.send_lamps()
        out = {"t": "out"}
        for what in ("display", "jackpot", "seats", "oled") + _PINS:
            out[what] = self.output(what)
        self.send(out)
        self.last_status = None
        self.status()

    def status(self):
        app = _app()
        if app is None:
            return
        self.hello_if_rewired()  # a game changed at the REPL may leave every output as it was
        ctl = app.controller
        st = ctl.status()
        refused = {}
        for role in self.board.roles:
            why = ctl.reason("VOID_LONG" if role == "VOID" else role)
            if why:
                refused[role] = why
        st["refused"] = refused
        if st != self.last_status:  # the history changes only with the round number, which is in st
            self.last_status = st
            msg = {"t": "status", "results": getattr(ctl, "results", ())}
            msg.update(st)
            self.send(msg)

    # -- host -> board ---------------------------------------------------------------------------
    def command(self, line):
        parts = line.split()
        if not parts:
            return
        op = parts[0]
        b = self.board
        try:
            if op == "press" and len(parts) == 2:
                b.press(parts[1])
                self.pressed_at[parts[1]] = b.ticks_ms()
            elif op == "release" and len(parts) == 2:
                b.release(parts[1])
            elif op == "seat" and len(parts) == 3:
                b.set_seat(int(parts[1]), parts[2] == "1")
            elif op == "cover" and len(parts) == 2:
                b.set_cover(parts[1] == "1")
            elif op == "key" and len(parts) == 2:
                b.set_service_key(parts[1] == "1")
            elif op == "game" and len(parts) in (2, 3):
                self.select_game(parts[1], parts[2] if len(parts) == 3 else None)
            elif op == "sync":
                self.everything()
            else:
                raise ValueError("unknown command %r" % line)
        except ValueError as e:
            self.send({"t": "error", "text": str(e)})

    def hold_left(self, line):
        """How many ms the press that `line` releases must still last (0 for any other line)."""
        parts = line.split()
        if len(parts) != 2 or parts[0] != "release":
            return 0
        at = self.pressed_at.pop(parts[1], None)
        return 0 if at is None else max(0, HOLD_MS - ticks_diff(self.board.ticks_ms(), at))

    def select_game(self, game, confirm=None):
        app = _app()
        if app is None or app.config["game"] == game:
            return
        from tablectl import service  # the technician's validated path: refused mid-round (ValueError),
        service.configure(game=game, confirm=confirm)  # journalled, a live jackpot closed only with its code
        self.everything()


def _dump_lamps(shown, line):
    """The lamps' out message as json.dump would write it, the chain's hex a slice at a time: 120 lamps are
    720 characters, a block a linked table's heap in the sim's 256 KB may not have (their MemoryError
    ended the controller's button task)."""
    line.write(b'{"t": "out", "lamps": "')
    for i in range(0, len(shown), 48):
        line.write(binascii.hexlify(shown[i:i + 48]))
    line.write(b'"}')


def _game(app):
    """The game the table runs: its controller's (a tilted table's may be unknown: ''), else the configured."""
    if app is None:
        return ""
    ctl = getattr(app, "controller", None)
    return (ctl.game or "") if ctl is not None else app.config["game"]


def _app():
    from tablectl import app
    return app.current


async def task(board, address):
    """Connect to the simulator at 'host:port' and serve the link until the connection drops."""
    import socket  # here: a board without a network (qemu's) serves the link on a UART

    host, port = address.rsplit(":", 1)
    sock = socket.socket()
    sock.connect(socket.getaddrinfo(host, int(port))[0][-1])
    sock.setblocking(False)
    try:
        await serve(board, sock)
    except OSError:
        pass  # reset (ECONNRESET): a simulator killed with our data unread; the same as closed
    finally:
        sock.close()
    # the simulator went away (even killed outright): the simulated board powers off with it rather
    # than run on unseen; SystemExit is not caught by asyncio, and App.run switches the outputs off
    raise SystemExit("host link closed")


async def serve(board, stream, reader=None, first=b""):
    """The link on a connected stream: everything first, then commands (`first`, a line already read, the
    first of them) until the stream ends."""
    link = HostLink(board, stream)
    link.everything()
    if first.strip() not in (b"", b"sync"):
        link.command(first.decode().strip())
    reader = reader or asyncio.StreamReader(stream)
    pending = asyncio.create_task(_status_loop(link))
    try:
        while True:
            line = await reader.readline()
            if not line:
                break
            line = line.decode().strip()
            wait = link.hold_left(line)
            if wait:
                await sleep_ms(wait)
            link.command(line)
    finally:
        pending.cancel()
        board.listeners.remove(link.changed)


async def _status_loop(link):
    while True:
        await sleep_ms(STATUS_MS)
        try:
            if link.resync:
                link.everything()
            else:
                link.status()
        except MemoryError:
            # a fragmented heap refused one message: the page must not freeze on a stale status for
            # good (this task ending did that); everything goes again once the heap allows
            gc.collect()
            link.resync = True
