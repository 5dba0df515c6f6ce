"""A REPL on the sim board's stdin/stdout that runs beside the controller: friendly and raw modes, enough for mpremote.

Written from the raw-REPL protocol that mpremote speaks (what micropython-lib's aiorepl gives a real
board; aiorepl cannot be installed here). Bytes in, `\\r\\n` line ends out, because the pseudo-terminal
is raw:

    friendly  '>>> ' prompt, line editing (backspace), Enter runs the line (expressions print their
              repr; a line ending in ':' starts a '... ' block that an empty line ends), Ctrl-C
              drops the line, Ctrl-A enters raw mode, Ctrl-D is a soft reset
    raw       Ctrl-A (re)enters raw mode, Ctrl-B back to friendly, Ctrl-C drops what was typed,
              Ctrl-D runs it: 'OK', its output, '\\x04', its traceback, '\\x04', '>';
              Ctrl-D on an empty buffer is a soft reset; '\\x05A\\x01' (raw-paste request) is answered
              'R\\x00' (not supported) so mpremote falls back to plain raw mode

Ctrl-C never reaches the controller: it only clears the line being typed. A soft reset clears this
REPL's variables and says so; the controller keeps running (restart the simulator to reboot the board).
Code typed here runs inside the controller's event loop: a long call (lamp_test) holds the loop,
as it would on a board running aiorepl.
"""
import asyncio
import io
import sys

from tablectl.hw.clock import sleep_ms

from tablectl import const

_CTRL_A = const(1)
_CTRL_B = const(2)
_CTRL_C = const(3)
_CTRL_D = const(4)
_CTRL_E = const(5)
_BS = const(8)
_DEL = const(127)
_READ = const(256)

RAW_BANNER = "raw REPL; CTRL-B to exit\r\n"
SOFT_REBOOT = "MPY: soft reboot\r\n"


def _out(s):
    try:
        sys.stdout.write(s)
    except OSError:
        pass  # the terminal is full and nobody reads it: drop the text, never the controller


def _banner():
    return "MicroPython %s on the sim board (controller running); Ctrl-A raw mode, Ctrl-D soft reset\r\n" % (
        ".".join(str(v) for v in sys.implementation.version[:3]))


class Repl:
    """The REPL's state machine, fed bytes by feed(); separated from the stream so it can be tested."""

    def __init__(self, write=_out):
        self.write = write
        self.raw = False
        self.line = bytearray()
        self.block = []  # friendly mode: the lines of a compound statement being typed
        self.last = 0
        self.names = None
        self.soft_reset(quiet=True)

    def soft_reset(self, quiet=False):
        # print and the echo of an expression's value write \r\n line ends, as a board's USB REPL does
        # (the unix port writes bare \n, and the pty is raw)
        self.names = {"__name__": "__main__", "print": self._print, "__repl_print__": self._repl_print}
        if not quiet:
            self.write(SOFT_REBOOT)

    def _print(self, *args, sep=" ", end="\n", file=None):
        if file is not None:
            return print(*args, sep=sep, end=end, file=file)
        context = sys.modules.get("tablectl.service.context")
        for i, a in enumerate(args):
            if i:
                self.write(sep)
            if context is not None and isinstance(a, context.Report):  # print(service.journal(35)): a
                a.emit(self.write, "\r\n")  # line at a time, as the REPL shows one, ending its own line
                if i == len(args) - 1 and end == "\n":
                    return
            else:
                self.write(str(a).replace("\n", "\r\n"))
        self.write(end.replace("\n", "\r\n"))

    def _repl_print(self, value):
        if value is not None:
            self.names["_"] = value
            context = sys.modules.get("tablectl.service.context")  # loaded if value may be a service report
            if context is not None and isinstance(value, context.Report):
                value.emit(self.write, "\r\n")  # a line at a time: no block as long as the report
                return
            self.write(repr(value).replace("\n", "\r\n") + "\r\n")

    def start(self):
        self.write(_banner() + ">>> ")

    def feed(self, data):
        for c in data:
            if self.raw:
                self._raw_char(c)
            else:
                self._friendly_char(c)

    # -- raw mode -------------------------------------------------------------------------------
    def _raw_char(self, c):
        line = self.line
        if c == _CTRL_A:
            if len(line) == 2 and line[0] == _CTRL_E and line[1] == 65:  # 'A': raw-paste request
                self.line = bytearray()
                self.write("R\x00")  # understood, not supported: mpremote sends plain raw input
                return
            self.line = bytearray()
            self.write(RAW_BANNER + ">")
        elif c == _CTRL_B:
            self.line = bytearray()
            self.raw = False
            self.write("\r\n" + _banner() + ">>> ")
        elif c == _CTRL_C:
            self.line = bytearray()
        elif c == _CTRL_D:
            if not line:
                self.write("\r\n")
                self.soft_reset()
                self.write(RAW_BANNER + ">")
                return
            src = bytes(line)
            self.line = bytearray()
            self.write("OK")
            self._run(src, "exec", raw=True)
            self.write(">")
        else:
            line.append(c)

    # -- friendly mode --------------------------------------------------------------------------
    def _friendly_char(self, c):
        try:
            self._friendly(c, self.line)
        finally:
            self.last = c

    def _friendly(self, c, line):
        if c == _CTRL_A:
            self.line = bytearray()
            self.raw = True
            self.write("\r\n" + RAW_BANNER + ">")
        elif c == _CTRL_C:
            self.line = bytearray()
            self.block = []
            self.write("\r\nKeyboardInterrupt (the controller keeps running)\r\n>>> ")
        elif c == _CTRL_D:
            self.line = bytearray()
            self.write("\r\n")
            self.soft_reset()
            self.write(_banner() + ">>> ")
        elif c == 13 or c == 10:
            if c == 10 and not line and self.last == 13:
                return  # the \n of a \r\n pair
            src = bytes(line)
            self.line = bytearray()
            self.write("\r\n")
            # a line ending in ':' opens a block (for, if, def): its lines, indented by the person
            # typing, are collected until an empty line
            if self.block or src.rstrip().endswith(b":"):
                if src.strip():
                    self.block.append(src)
                    self.write("... ")
                    return
                src = b"\n".join(self.block) + b"\n"
                self.block = []
            if src.strip():
                self._run(src, "single", raw=False)
            self.write(">>> ")
        elif c == _BS or c == _DEL:
            if line:
                self.line = line[:-1]
                self.write("\b \b")
        elif c >= 32 or c == 9:
            line.append(c)
            self.write(chr(c))

    # -- running code ---------------------------------------------------------------------------
    def _run(self, src, mode, raw):
        """Run src in the REPL's namespace. Raw mode: output, \\x04, traceback, \\x04 (mpremote's framing)."""
        err = None
        try:
            code = compile(src.decode(), "<stdin>", mode)
            exec(code, self.names)
        except SystemExit:
            err = "SystemExit ignored: the controller keeps running\r\n"
        except BaseException as e:  # KeyboardInterrupt too: the REPL must outlive anything typed
            err = _traceback(e)
        if raw:
            self.write("\x04")
            if err:
                self.write(err)
            self.write("\x04")
        elif err:
            self.write(err)


def _traceback(e):
    if hasattr(sys, "print_exception"):
        buf = io.StringIO()
        sys.print_exception(e, buf)
        text = buf.getvalue()
    else:  # CPython
        import traceback
        text = "".join(traceback.format_exception(type(e), e, e.__traceback__))
    return text.replace("\r\n", "\n").replace("\n", "\r\n")


async def task(stream=None):
    """Serve the REPL on `stream` for ever: its reads and writes (a board's UART, raw bytes both ways), or
    this process's stdin and stdout by default."""
    reader = asyncio.StreamReader(stream if stream is not None else sys.stdin.buffer)
    repl = Repl(stream.write if stream is not None else _out)
    repl.start()
    while True:
        try:
            data = await reader.read(_READ)
        except OSError:
            data = None  # EAGAIN/EIO: nobody at the other end of the terminal for now
        if data:
            try:
                repl.feed(data)
            except Exception as e:  # a bug here must not end the REPL (nor the controller)
                repl.line = bytearray()
                _out("\r\nREPL error: " + _traceback(e))
        else:
            await sleep_ms(100)
