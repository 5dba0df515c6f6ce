"""A table's exported journal, checked on a host: every entry's SHA-256 chain value, the sequence numbers, and
each export against the one before it (what `make journal` pulls, what a game lab checks offline).

    exports = [parse(path) for path in paths]      # ValueError naming the line for a file that is not one
    problems = check(exports)                      # [] or what is wrong, the first bad entry first

An export (tablectl.journal.Journal.export writes it) is:

    # tablectl journal export table=ID first=SEQ prev=CHAIN [rotated=A-B]
    SEQ ROUND EVENT A B CHAIN TEXT                 (an older firmware's entry)
    SEQ EPOCH.ROUND EVENT A B CHAIN TIME TEXT      (TIME 2026-12-02T08:30:00Z, or - while not set)
    # resync first=SEQ prev=CHAIN
    # end table=ID last=SEQ chain=CHAIN entries=N

The chain is the firmware's own (firmware/tablectl/chain.py): CHAIN = SHA-256(previous CHAIN + the entry's
text "SEQ ROUND EVENT A B TEXT", and for a stamped entry "\nTIME EPOCH"). An entry edited, removed, inserted or
reordered, a file cut short, an export that does not continue the previous one (a journal swapped for an
older one, entries the table erased before they were exported), a time that goes back but where the clock
was set (time_set), and an epoch that goes back or skips are each found and named.
"""
import pathlib
import sys

# `make journal` and a lab's machine run it with only tools/ on the path (no .venv): the firmware's own modules
_FIRMWARE = pathlib.Path(__file__).resolve().parents[3] / "firmware"
if str(_FIRMWARE) not in sys.path:
    sys.path.append(str(_FIRMWARE))
from tablectl import chain  # noqa: E402  (the board's own chain, run here on CPython)
from tablectl import utc  # noqa: E402


def _time(field):
    """Seconds since 2000 from an export's TIME ('-': None); ValueError for anything else."""
    if field == "-":
        return None
    if not field.endswith("Z") or "T" not in field:
        raise ValueError("want TIME as 2026-12-02T08:30:00Z or -, got %r" % field)
    return utc.parse(field, 2000)  # a lab reads any year the table wrote


class Export:
    def __init__(self, name):
        self.name = name
        self.table = None
        self.first = self.prev = None
        self.rotated = None
        self.entries = []  # (line number, [seq, round, event, a, b, text], chain bytes)
        self.resyncs = []  # (line number, first seq, prev chain bytes)
        self.last = self.chain = self.count = None


def _fields(line):
    out = {}
    for part in line.split()[1:]:
        if "=" in part:
            k, v = part.split("=", 1)
            out[k] = v
    return out


def parse(path, text=None):
    """An Export from a file (or its text); ValueError naming the file and line of what is not an export."""
    name = str(path)
    if text is None:
        text = pathlib.Path(path).read_text()
    e = Export(name)
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            if line.startswith("# tablectl journal export"):
                f = _fields(line[1:])
                e.table, e.first, e.prev = f["table"], int(f["first"]), chain.unhexed(f["prev"])
                if "rotated" in f:
                    a, b = f["rotated"].split("-")
                    e.rotated = (int(a), int(b))
            elif line.startswith("# resync"):
                f = _fields(line)
                e.resyncs.append((lineno, int(f["first"]), chain.unhexed(f["prev"])))
            elif line.startswith("# end"):
                f = _fields(line)
                e.last, e.chain, e.count = int(f["last"]), chain.unhexed(f["chain"]), int(f["entries"])
            elif line.startswith("#"):
                continue
            else:
                if e.first is None:
                    raise ValueError("an entry before the export's header")
                stamped = "." in line.split(" ", 2)[1] if " " in line else False
                parts = line.split(" ", 7 if stamped else 6)
                if len(parts) < (7 if stamped else 6):
                    raise ValueError("want SEQ EPOCH.ROUND EVENT A B CHAIN TIME TEXT" if stamped else
                                     "want SEQ ROUND EVENT A B CHAIN TEXT")
                seq, rnd, event, a, b, value = parts[:6]
                if stamped:
                    ep, rnd = rnd.split(".")
                    rec = [int(seq), int(rnd), event, int(a), int(b), parts[7] if len(parts) > 7 else "",
                           _time(parts[6]), int(ep)]
                else:
                    rec = [int(seq), int(rnd), event, int(a), int(b), parts[6] if len(parts) > 6 else ""]
                e.entries.append((lineno, rec, chain.unhexed(value)))
        except (KeyError, ValueError) as err:
            raise ValueError("%s line %d: not a journal export line (%s): %r" % (name, lineno, err, line[:80]))
    if e.first is None:
        raise ValueError("%s: no '# tablectl journal export' header" % name)
    return e


def _stamps(where, lineno, rec, stamp):
    """What is wrong with a stamped entry's time and epoch after the last ones seen (stamp: [time, epoch])."""
    if len(rec) < 8:
        return []
    out = []
    t, epoch = rec[6], rec[7]
    last_t, last_epoch = stamp
    if last_epoch and epoch != last_epoch and not (epoch == last_epoch + 1 and rec[2] == "ram_cleared"):
        out.append("%s line %d: entry #%d is in epoch %d after epoch %d: only a RAM clear's 'ram_cleared' moves "
                   "it, by one" % (where, lineno, rec[0], epoch, last_epoch))
    if t is not None and last_t is not None and t < last_t and rec[2] != "time_set":
        out.append("%s line %d: entry #%d's time %s is earlier than the entry before it (%s) with no time_set "
                   "between" % (where, lineno, rec[0], utc.text(t), utc.text(last_t)))
    stamp[0] = t if t is not None else last_t
    stamp[1] = epoch
    return out


def check(exports):
    """Problems of exports of one table, oldest first: each entry against its chain value and number, each
    file against its end line, each export against the previous one. [] when all is well."""
    problems = []
    before = None  # (last seq, chain) of the previous export
    stamp = [None, 0]  # the last time and epoch seen, across the exports
    for e in exports:
        where = e.name
        if before is not None:
            if e.first > before[0] + 1:
                problems.append("%s: entries #%d-#%d are missing between this export and the one before it%s"
                                % (where, before[0] + 1, e.first - 1,
                                   " (the table had erased them: export more often)" if e.rotated else ""))
            elif e.first <= before[0]:
                problems.append("%s: starts at #%d, but the export before it ended at #%d: the table's journal is "
                                "older than what was exported (swapped or rolled back)" % (where, e.first, before[0]))
            elif e.prev != before[1]:
                problems.append("%s: the chain before #%d is not the one the export before it ended with: the "
                                "journal was rewritten" % (where, e.first))
        value, seq = e.prev, e.first - 1
        resyncs = dict((first, (lineno, prev)) for lineno, first, prev in e.resyncs)
        for lineno, rec, got in e.entries:
            if rec[0] in resyncs:
                rl, prev = resyncs[rec[0]]
                problems.append("%s line %d: entries #%d-#%d missing: damaged on the table" % (where, rl, seq + 1,
                                                                                              rec[0] - 1)
                                if rec[0] > seq + 1 else "%s line %d: the chain breaks before entry #%d"
                                % (where, rl, rec[0]))
                value, seq = prev, rec[0] - 1
            if rec[0] != seq + 1:
                problems.append("%s line %d: entry #%d where #%d should be: an entry removed, inserted or "
                                "reordered" % (where, lineno, rec[0], seq + 1))
            expect = chain.link(value, rec)
            if expect != got:
                problems.append("%s line %d: entry #%d does not match its chain value: it was edited, or one "
                                "before it was" % (where, lineno, rec[0]))
            problems.extend(_stamps(where, lineno, rec, stamp))
            value, seq = got, rec[0]
        if e.last is None:
            problems.append("%s: no end line: the file was cut short after entry #%d" % (where, seq))
        else:
            if e.last != seq or e.count != len(e.entries) or e.chain != value:
                problems.append("%s: the end line says #%d (%d entries) but the file ends at #%d (%d): entries "
                                "were removed or added at the end" % (where, e.last, e.count, seq, len(e.entries)))
        before = (seq, value)
    return problems
