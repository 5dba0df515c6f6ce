"""Append-only event journal of bounded size: every state change with its round and amounts, for reconciling meters.

    j = Journal('/journal.log', max_bytes=16384)
    j.append('hit', round_no, a=seat, b=amount_cents, text='royal_flush')
    j.tail(10)      # -> the last 10 entries as readable lines, oldest first
    j.records(10)   # -> the same as tuples (seq, round_no, event, a, b, text)

Each entry is one line "<crc32 8 hex> <seq> <round> <event> <a> <b> <text>" with the CRC over the
rest of the line, so a line torn by a power cut on a filesystem that does not append atomically is
skipped by readers instead of being misread. `seq` numbers every entry since the journal was created
(a gap shows lost entries). The bound: entries go to one of two halves, PATH and PATH.1; when the
current half would grow past max_bytes // 2 the other half is truncated and continued, so at most
max_bytes are on flash and at least the newest max_bytes // 2 are kept (records() orders the halves
by sequence number). `event` is a short identifier (a-z, 0-9, _), `a` and `b`
integers (cents, seats, counts), `text` at most 48 printable characters.
`writes` counts appends (for the storage-writes bench).
"""
import os

from tablectl.store import crc32

MAX_TEXT = 48


def _clean_text(text):
    text = str(text)
    out = []
    for ch in text[:MAX_TEXT]:
        out.append(ch if " " <= ch <= "~" else "?")
    return "".join(out)


def _check_event(event):
    if not isinstance(event, str) or not 0 < len(event) <= 16:
        raise ValueError("journal event must be 1..16 characters, got %r" % (event,))
    for ch in event:
        if not ("a" <= ch <= "z" or "0" <= ch <= "9" or ch == "_"):
            raise ValueError("journal event %r: only a-z, 0-9 and _ allowed" % event)


def _check_int(label, value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError("journal %s must be an int, got %r" % (label, value))


def parse(line):
    """(seq, round_no, event, a, b, text) from one journal line, or None if it is torn or corrupt."""
    if line.endswith("\n"):
        line = line[:-1]
    if len(line) < 10 or line[8] != " ":
        return None
    try:
        if crc32(line[9:].encode()) != int(line[:8], 16):
            return None
        parts = line[9:].split(" ", 5)
        if len(parts) < 5:
            return None
        text = parts[5] if len(parts) == 6 else ""
        return (int(parts[0]), int(parts[1]), parts[2], int(parts[3]), int(parts[4]), text)
    except (ValueError, UnicodeError):
        return None


def describe(rec):
    """A journal record as one line with its raw fields (tail()); service.journal() renders each event for
    a person (seats, money)."""
    seq, round_no, event, a, b, text = rec
    return "#%d round %d %s a=%d b=%d%s" % (seq, round_no, event, a, b, (" " + text) if text else "")


class Journal:
    """Bounded append-only event log in two halves, PATH and PATH.1, written alternately."""

    def __init__(self, path, max_bytes=16384):
        if not isinstance(max_bytes, int) or max_bytes < 512:
            raise ValueError("journal max_bytes must be an int >= 512, got %r" % (max_bytes,))
        self.path = path
        self.paths = (path, path + ".1")
        self.max_bytes = max_bytes
        self.writes = 0
        self.seq = 0  # sequence number of the last entry written
        last = [0, 0]
        for i in (0, 1):
            for rec in self._scan(self.paths[i]):
                last[i] = rec[0]
        self._cur = 1 if last[1] > last[0] else 0  # the half holding the newest entry
        self.seq = last[self._cur]
        self._size = _size_of(self.paths[self._cur])
        self._need_newline = False
        if self._size:
            with open(self.paths[self._cur], "rb") as f:
                f.seek(self._size - 1)
                self._need_newline = f.read(1) != b"\n"

    def _scan(self, path):
        try:
            f = open(path, "r")
        except OSError:
            return
        with f:
            while True:
                line = f.readline()
                if not line:
                    break
                rec = parse(line)
                if rec is not None:
                    yield rec

    def append(self, event, round_no, a=0, b=0, text=""):
        """Add one entry; returns its sequence number. ValueError (nothing written) for a bad field."""
        _check_event(event)
        _check_int("round_no", round_no)
        _check_int("a", a)
        _check_int("b", b)
        body = "%d %d %s %d %d %s" % (self.seq + 1, round_no, event, a, b, _clean_text(text))
        line = "%08x %s\n" % (crc32(body.encode()), body)
        cur, mode = self._cur, "a"
        if self._size and self._size + len(line) + self._need_newline > self.max_bytes // 2:
            # the other half is started afresh (truncated: one atomic file write on LittleFS);
            # no rename: renames were seen to lose a file on a power cut (test_store_powercut.py)
            cur, mode = 1 - cur, "w"
        elif self._need_newline:
            line = "\n" + line  # end a line torn by a power cut so the new one stays whole
        with open(self.paths[cur], mode) as f:
            f.write(line)
        if mode == "w":
            self._cur, self._size = cur, 0
        self._need_newline = False
        self._size += len(line)
        self.seq += 1
        self.writes += 1
        return self.seq

    def records(self, n=20):
        """The last n valid entries as tuples (seq, round_no, event, a, b, text), oldest first."""
        if not isinstance(n, int) or n < 0:
            raise ValueError("n must be an int >= 0, got %r" % (n,))
        if n == 0:
            return []
        last = []
        for p in (self.paths[1 - self._cur], self.paths[self._cur]):
            for rec in self._scan(p):
                last.append(rec)
                if len(last) > n:
                    last.pop(0)
        return last

    def tail(self, n=20):
        """The last n entries as readable lines, oldest first."""
        return [describe(r) for r in self.records(n)]


def _size_of(path):
    try:
        return os.stat(path)[6]
    except OSError:
        return 0
