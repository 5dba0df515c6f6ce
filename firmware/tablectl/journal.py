"""The event journal: every state change with its round and amounts, for reconciling meters, kept in the flash log.

    j = Journal(log)
    j.append('hit', round_no, a=seat, b=amount_cents, text='royal_flush')   # -> the entry's seq
    j.records(10)   # -> the last 10 entries as tuples (seq, round_no, event, a, b, text), oldest first
    j.tail(10)      # -> the same as readable lines
    j.damaged       # damaged journal frames the last records() met (skipped, never fatal)

An entry goes into the log's next frame (with the record saved in the same step, inside log.atomic()),
so it is on flash once the step is, and never without it. `seq` numbers every entry since the journal
was created (a gap shows lost entries); the journal is bounded by the log's ring: the oldest entries go
when their block is erased. `event` is a short identifier (a-z, 0-9, _), `a` and `b` integers (cents,
seats, counts), `text` at most 48 printable characters.
"""
from tablectl.log import F_ENT

MAX_TEXT = 48


def _clean_text(text):
    text = str(text)
    out = []
    for ch in text[:MAX_TEXT]:
        out.append(ch if " " <= ch <= "~" else "?")
    return "".join(out)


_EVENT_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789_"


def _check_event(event):
    if not isinstance(event, str) or not 0 < len(event) <= 16:
        raise ValueError("journal event must be 1..16 characters, got %r" % (event,))
    # strip() in C leaves nothing of a good name (and allocates nothing then); a loop a character took 20k
    # instructions a step on a Pico
    if event.strip(_EVENT_CHARS):
        raise ValueError("journal event %r: only a-z, 0-9 and _ allowed" % event)


def _check_int(label, value):
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError("journal %s must be an int, got %r" % (label, value))


def entry(rec):
    """An entry as the log holds it ([seq, round, event, a, b, text]) as a tuple, None if it is not one."""
    try:
        seq, round_no, event, a, b, text = rec
    except (TypeError, ValueError):
        return None
    for v in (seq, round_no, a, b):
        if not isinstance(v, int) or isinstance(v, bool):
            return None
    if not isinstance(event, str) or not isinstance(text, str):
        return None
    return seq, round_no, event, a, b, text


def describe(rec):
    """A journal record as one line with its raw fields (tail()); service.journal() renders each event for
    a person (seats, money)."""
    seq, round_no, event, a, b, text = rec
    return "#%d round %d %s a=%d b=%d%s" % (seq, round_no, event, a, b, (" " + text) if text else "")


class Journal:
    """Events appended to the flash log; `writes` counts the entries appended since boot."""

    def __init__(self, log):
        self.log = log
        self.writes = 0
        self.damaged = 0

    @property
    def seq(self):
        """The sequence number of the last entry written."""
        return self.log.jseq

    def entries(self, events):
        """The log's form of new entries (event, round_no, a, b, text) numbered from the next seq, every
        field checked (ValueError, nothing written): for a caller that commits them itself (a checkpoint)."""
        seq = self.log.last_entry()  # an atomic() block's entries counted
        out = []
        for event, round_no, a, b, text in events:
            _check_event(event)
            if type(round_no) is not int or type(a) is not int or type(b) is not int:  # one test, then which
                _check_int("round_no", round_no)
                _check_int("a", a)
                _check_int("b", b)
            seq += 1
            out.append([seq, round_no, event, a, b, _clean_text(text)])
        return out

    def append(self, event, round_no, a=0, b=0, text=""):
        """Add one entry; returns its sequence number. ValueError (nothing written) for a bad field."""
        new = self.entries(((event, round_no, a, b, text),))
        self.log.commit(entries=new)
        self.writes += 1
        return new[0][0]

    def records(self, n=20):
        """The last n valid entries as tuples (seq, round_no, event, a, b, text), oldest first."""
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise ValueError("n must be an int >= 0, got %r" % (n,))
        found, self.damaged = self.log.entries(n)
        out = []
        for rec in found:
            rec = entry(rec)
            if rec is None:
                self.damaged += 1
            else:
                out.append(rec)
        return out

    def page(self, from_seq, n=20):
        """Up to n valid entries with seq >= from_seq, oldest first (service.journal(n, from_seq) pages the
        journal beyond records()' last n); the scan reads the ring a frame at a time."""
        out = []
        for flags, obj in self.log.payloads():
            for e in (obj.get("j") or ()) if isinstance(obj, dict) else ():
                rec = entry(e)
                if rec is not None and rec[0] >= from_seq:
                    out.append(rec)
                    if len(out) >= n:
                        return out
        return out

    def export(self, from_seq, emit, table="table"):
        """Every entry from seq `from_seq` on, for a host that keeps the table's journal, one line at a time
        through emit(line) (a board prints them: no line is kept):

            # tablectl journal export table=ID first=SEQ prev=CHAIN [rotated=A-B]
            SEQ ROUND EVENT A B CHAIN TEXT          (CHAIN: the SHA-256 chain value after the entry)
            # resync first=SEQ prev=CHAIN           (after entries damaged on the table: they are missing)
            # end table=ID last=SEQ chain=CHAIN entries=N

        prev is the chain value before the first entry, so the host checks the file on its own and against
        the previous export (tools/journalcheck). rotated: entries the ring had erased before this export
        reached them. Returns the number of entries emitted."""
        from tablectl import chain
        chained = None   # the chain value after the last entry seen (None: not known yet)
        head = False
        last = self.log.jseq
        count = 0
        for flags, obj in self.log.payloads():
            if obj is None:
                if flags is None or flags & F_ENT:
                    chained = None  # entries lost here: the next frame's 'c' starts the chain again
                continue
            j = obj.get("j")
            if not j:
                continue
            before = chain.unhexed(obj["c"]) if "c" in obj else chained
            for e in j:
                rec = entry(e)
                if rec is None or before is None:
                    before = None
                    continue
                after = chain.link(before, e)
                if rec[0] >= from_seq:
                    if not head:
                        rotated = (" rotated=%d-%d" % (from_seq, rec[0] - 1)) if rec[0] > from_seq > 0 else ""
                        emit("# tablectl journal export table=%s first=%d prev=%s%s"
                             % (table, rec[0], chain.hexed(before), rotated))
                        head = True
                    elif chained is None or chained != before:
                        emit("# resync first=%d prev=%s" % (rec[0], chain.hexed(before)))
                    emit("%d %d %s %d %d %s %s" % (rec[0], rec[1], rec[2], rec[3], rec[4], chain.hexed(after),
                                                  rec[5]))
                    count += 1
                    last = rec[0]
                chained = before = after
        if not head:  # nothing from from_seq on: the journal ends before it (an export asking past the end
            # is told where the end is: a host whose last export went further sees the journal went back)
            emit("# tablectl journal export table=%s first=%d prev=%s"
                 % (table, self.log.jseq + 1, chain.hexed(self.log.chain)))
        emit("# end table=%s last=%d chain=%s entries=%d" % (table, last, chain.hexed(self.log.chain), count))
        return count

    def tail(self, n=20):
        """The last n entries as readable lines, oldest first."""
        return [describe(r) for r in self.records(n)]
