"""The event journal: every state change with its round and amounts, for reconciling meters, kept in the flash log.

    j = Journal(log)
    j.append('hit', round_no, a=seat, b=amount_cents, text='royal_flush')   # -> the entry's seq
    j.records(10)   # -> the last 10 entries as tuples (seq, round_no, event, a, b, text), oldest first
    j.records(10, stamps=True)  # -> (seq, round_no, event, a, b, text, time, epoch) each
    j.tail(10)      # -> the same as readable lines
    j.damaged       # damaged journal frames the last records() met (skipped, never fatal)
    j.epoch, j.clock  # a table's: the RAM clears' count (1 before the first), its TimeOfDay (or None)

An entry goes into the log's next frame (with the record saved in the same step, inside log.atomic()),
so it is on flash once the step is, and never without it. `seq` numbers every entry since the journal
was created (a gap shows lost entries); the journal is bounded by the log's ring: the oldest entries go
when their block is erased. `event` is a short identifier (a-z, 0-9, _), `a` and `b` integers (cents,
seats, counts), `text` at most 48 printable characters. A table's journal (epoch 1 or more) stamps each
entry [seq, round, event, a, b, text, time, epoch]: the time (seconds since 2000 UTC, None while the clock
is not set) and the epoch (round numbers restart at 1 in each: `epoch.round` never repeats); an entry of
the bare six fields (an older firmware's, a journal outside a table) still reads, with time None, epoch 0.
"""
from tablectl.storage import F_ENT
from tablectl.valid import NAME_CHARS, is_int

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
    if event.strip(NAME_CHARS):  # valid.name_ok's test, without its call: every entry of every key passes here
        raise ValueError("journal event %r: only a-z, 0-9 and _ allowed" % event)


def _check_int(label, value):
    if not is_int(value):
        raise ValueError("journal %s must be an int, got %r" % (label, value))


def entry(rec):
    """An entry as the log holds it ([seq, round, event, a, b, text] and, stamped, time and epoch) as the tuple
    (seq, round, event, a, b, text, time, epoch), None if it is not one (a damaged field)."""
    if not isinstance(rec, (list, tuple)) or len(rec) not in (6, 8):
        return None
    if len(rec) == 8:
        t, epoch = rec[6], rec[7]
        if not (t is None or is_int(t) and t >= 0) or not is_int(epoch) or epoch < 1:
            return None
    else:
        t, epoch = None, 0
    seq, round_no, event, a, b, text = rec[0], rec[1], rec[2], rec[3], rec[4], rec[5]
    for v in (seq, round_no, a, b):
        if not is_int(v):
            return None
    if not isinstance(event, str) or not isinstance(text, str):
        return None
    return seq, round_no, event, a, b, text, t, epoch


def stamps(rec):
    """(time, epoch) of an entry tuple, bare or stamped."""
    return (rec[6], rec[7]) if len(rec) == 8 else (None, 0)


def round_text(round_no, epoch):
    """A round as the technician and the lab see it: 'epoch.round' (a bare entry's: the round alone)."""
    return "%d.%d" % (epoch, round_no) if epoch else "%d" % round_no


def describe(rec):
    """A journal record as one line with its raw fields (tail()); service.journal() renders each event for
    a person (seats, money)."""
    seq, round_no, event, a, b, text = rec[:6]
    t, epoch = stamps(rec)
    at = ""
    if t is not None:
        from tablectl.utc import text as time_text
        at = time_text(t) + " "
    return "#%d %sround %s %s a=%d b=%d%s" % (seq, at,
                                             round_text(round_no, epoch), event, a, b, (" " + text) if text else "")


class Journal:
    """Events appended to the flash log; `writes` counts the entries appended since boot."""

    def __init__(self, log):
        self.log = log
        self.writes = 0
        self.damaged = 0
        self.epoch = 0     # 0: bare entries; a table sets its epoch (App)
        self.clock = None  # a TimeOfDay: the time each entry carries

    @property
    def seq(self):
        """The sequence number of the last entry written."""
        return self.log.jseq

    def entries(self, events, at=None):
        """The log's form of new entries (event, round_no, a, b, text) numbered from the next seq, every
        field checked (ValueError, nothing written): for a caller that commits them itself (a checkpoint).
        Stamped with self.epoch and the time `at` (default the clock's now)."""
        seq = self.log.last_entry()  # an atomic() block's entries counted
        epoch = self.epoch
        if epoch and at is None and self.clock is not None:
            at = self.clock.now()
        out = []
        for event, round_no, a, b, text in events:
            _check_event(event)
            if type(round_no) is not int or type(a) is not int or type(b) is not int:  # one test, then which
                _check_int("round_no", round_no)
                _check_int("a", a)
                _check_int("b", b)
            seq += 1
            e = [seq, round_no, event, a, b, _clean_text(text)]
            if epoch:
                e.append(at)
                e.append(epoch)
            out.append(e)
        return out

    def append(self, event, round_no, a=0, b=0, text="", at=None):
        """Add one entry; returns its sequence number. ValueError (nothing written) for a bad field."""
        new = self.entries(((event, round_no, a, b, text),), at=at)
        self.log.commit(entries=new)
        self.writes += 1
        return new[0][0]

    def records(self, n=20, stamps=False):
        """The last n valid entries as tuples (seq, round_no, event, a, b, text), oldest first; with stamps,
        (seq, round_no, event, a, b, text, time, epoch)."""
        if not is_int(n) or n < 0:
            raise ValueError("n must be an int >= 0, got %r" % (n,))
        found, self.damaged = self.log.entries(n)
        out = []
        for rec in found:
            rec = entry(rec)
            if rec is None:
                self.damaged += 1
            else:
                out.append(rec if stamps else rec[:6])
        return out

    def page(self, from_seq, n=20):
        """Up to n valid entries (stamped tuples) with seq >= from_seq, oldest first (service.journal(n, from_seq) pages the
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
            SEQ EPOCH.ROUND EVENT A B CHAIN TIME TEXT   (a stamped entry; TIME 2026-12-02T08:30:00Z or -)
            # resync first=SEQ prev=CHAIN           (after entries damaged on the table: they are missing)
            # end table=ID last=SEQ chain=CHAIN entries=N

        prev is the chain value before the first entry, so the host checks the file on its own and against
        the previous export (tools/boardops/journalcheck). rotated: entries the ring had erased before this export
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
                    if rec[7]:
                        if rec[6] is None:
                            at = "-"
                        else:
                            from tablectl.utc import text as time_text
                            at = time_text(rec[6])
                        emit("%d %d.%d %s %d %d %s %s %s" % (rec[0], rec[7], rec[1], rec[2], rec[3], rec[4],
                                                            chain.hexed(after), at, rec[5]))
                    else:
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
        return [describe(r) for r in self.records(n, True)]

    def last_time(self):
        """The time the newest entry carries (None: none, or the clock was not set then)."""
        found = self.records(1, True)
        return found[0][6] if found else None
