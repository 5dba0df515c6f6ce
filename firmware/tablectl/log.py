"""The table's power-fail-safe log on raw flash: records and journal entries in CRC-framed frames, appended into
erased space, so that a flash block is erased once it fills instead of once a write.

    log = Log(dev)                    # dev: a block device (the extended vfs block protocol, see below)
    log.problem                       # '' or why the log cannot be trusted: the table tilts
    log.state                         # {record name: its committed value}, rebuilt from flash at boot
    log.commit(full={'config': {...}}, patch={'round': {'state': 'betting'}}, entries=[...])
    with log.atomic():                # the commits inside become one frame: all of it or none after a cut
        ...
    log.checkpoint(records, entries)  # the whole state restated (a RAM clear: records left out are gone)
    log.entries(n)                    # the last n journal entries, oldest first, and damaged frames met
    log.idle()                        # between keys: erase the next block ahead, or write a due checkpoint

The device: readblocks(block, buf, offset), writeblocks(block, buf, offset) (programs, never erases),
ioctl(4) block count, ioctl(5) block size, ioctl(6, block) erase; `dev.prog` (default 16) is the
smallest unit it programs, to which every write is aligned (a Pico's flash programs 256-byte pages).

Blocks are used in turn, as a ring. Each starts with a header (b'TLOG', version, its sequence number
`bseq`, CRC-32) written right after the block is erased; frames follow at prog-aligned offsets:

    length u16 | flags u8 | 0 | seq u32 | CRC-32 of those 8 bytes | payload: JSON, length bytes | CRC-32

the payload's CRC continuing from the header's, so a frame is whole or it is not there. `seq` numbers
every frame. A payload holds records ('r': full values, 'p': the keys that changed, 'q': the changed keys of
dict-valued keys, 'd': names removed)
and journal entries ('j': [seq, round, event, a, b, text] each): a save writes only what changed, which
keeps a round to a few programmed pages.

A checkpoint restates the whole state, one frame a record, then an end frame ('n': how many parts;
'js': the journal's seq): every `every` blocks, and for a RAM clear. Boot replays from the newest whole
checkpoint, and a block is erased only when a whole checkpoint comes after it.

The journal is chained (tablectl.chain): every frame holding entries, and every checkpoint's end, carries
'c', the chain value before its entries. Boot checks that each frame continues the chain and the entries'
numbers: an entry edited, removed or reordered, even with its CRC made right, is `problem` (a tilt).

What boot makes of a damaged frame (a bad CRC, a hole in the sequence numbers):
- nothing valid after it: a write a power cut tore. It is discarded, and the next block starts with a
  frame saying so ('v': the last good seq): `torn` tells the application, which journals it;
- valid frames after it, and its header says it held journal entries only: those entries are lost
  (`lost` counts the frames), the state is sound;
- valid frames after it otherwise: the state after it cannot be rebuilt, and the state before it is
  older than what the log proves happened: `problem` (a tilt, until a RAM clear's checkpoint). `state`
  then holds what the frames after the damage make of it, unverified: for the technician's report.
  A checkpoint of that state carries the problem in its end frame ('x'): no reboot clears it.
A block whose header is bad but which holds frames newer than the log's last, and a block whose sequence
number does not fit its place in the ring (a copy), are damage too. A table of every kind: docs/storage.md.
"""
import gc
import json
import struct
import sys

from tablectl import chain as _chain
from tablectl import const
from tablectl.crc import crc32

_CONFIG = "config"  # the record (Config.RECORD) whose frames are flagged F_CFG
_MAGIC = b"TLOG"
_VERSION = const(1)
_BHDR = const(16)
_FHDR = const(12)
_UNIT = const(256)  # bytes programmed at a time (a multiple of the program unit): a Pico's flash page
_CHUNK = const(32)  # bytes a long frame is read in (_Reader)
_ERASED = b"\xff" * _UNIT  # a page as erased flash reads: the padding after a frame

F_REC = const(1)     # sets, patches or removes records
F_ENT = const(2)     # journal entries
F_CKPT = const(4)    # a checkpoint part: one record's full value
F_END = const(8)     # a checkpoint's end
F_ACK = const(16)    # the damage right before it is a torn write, discarded
F_CFG = const(32)    # touches the configuration record

# A frame's text is built in one piece by json.dumps (C: the fast way) when the heap has the block; when it
# has not (after hours of play a 64 KB heap may have none as long as a kilobyte), json.dump hands it out in
# pieces, streamed into flash page by page. A MicroPython without io.IOBase cannot take a Python stream.
_STREAM = False
if sys.implementation.name == "micropython":
    try:
        from io import IOBase as _Base
        _STREAM = True
    except ImportError:
        pass
if not _STREAM:
    _Base = object


class LogError(OSError):
    """The flash cannot take this write without losing live state (an OSError: the flash fails the table)."""


class Refused(LogError):
    """This write cannot be made (a frame or a checkpoint the ring cannot hold): nothing was changed."""


class _Pages(_Base):
    """What json.dump writes. First pass: staged in the page buffer after room for the frame's header, and
    counted; a frame that fits the buffer (most: a round's step) is then programmed in one go. Second pass,
    for a longer one: programmed page by page with the payload's CRC-32. The buffer is the log's, allocated
    once."""

    def __init__(self, log):
        self.log = log
        self.buf = bytearray(_UNIT)
        self.counting = True
        self.n = 0
        self.crc = 0
        self.block = 0
        self.offset = 0
        self.fill = 0

    def stage(self):
        """Begin the first pass: `n` counts the payload; `fill` is where it stands in the buffer until it
        no longer fits (then 0: the second pass programs it)."""
        self.counting = True
        self.n = 0
        self.fill = _FHDR

    def start(self, block, offset):
        self.counting = False
        self.block = block
        self.offset = offset
        self.fill = 0

    def write(self, data):
        n = len(data)
        if self.counting:
            self.n += n
            fill = self.fill
            if fill and fill + n <= _UNIT - 4:  # room for the payload's CRC after it
                self.buf[fill:fill + n] = data
                self.fill = fill + n
            else:
                self.fill = 0
        else:
            self.crc = crc32(data, self.crc)
            self.raw(data)
        return n

    def raw(self, data):
        buf = self.buf
        mv = memoryview(data)
        i, n, size = 0, len(data), len(buf)
        while i < n:
            take = min(n - i, size - self.fill)
            buf[self.fill:self.fill + take] = mv[i:i + take]
            self.fill += take
            i += take
            if self.fill == size:
                self.flush()

    def flush(self):
        """Program what the buffer holds, padded with 0xFF (left erased) to the program unit."""
        if not self.fill:
            return
        size = self.log.align(self.fill)
        buf = self.buf
        if size > self.fill:  # one copy in C, where a loop a byte took 60k instructions a frame on a Pico
            buf[self.fill:size] = memoryview(_ERASED)[:size - self.fill]
        self.log.program(self.block, memoryview(buf)[:size], self.offset)
        self.offset += size
        self.fill = 0


class _Reader(_Base):
    """A long frame's payload as json.load reads it (a character at a time) out of a small buffer, its CRC-32
    taken on the way: reading a checkpoint's part or a baccarat round's entries (over a kilobyte) then needs
    no block of heap as long as the frame, which a heap fragmented by hours of play may not have."""

    def __init__(self, dev, block, off, n, crc):
        self.dev = dev
        self.block = block
        self.off = off  # the next byte to read from flash
        self.left = n   # bytes of the payload not read yet
        self.crc = crc
        self.buf = bytearray(_CHUNK)
        self.at = self.fill = 0

    def readinto(self, b):
        if self.at == self.fill:
            if not self.refill():
                return 0
        buf, at = self.buf, self.at
        k = min(len(b), self.fill - at)
        for i in range(k):  # by item: a slice would allocate, and json.load asks for one byte at a time
            b[i] = buf[at + i]
        self.at = at + k
        return k

    def refill(self):
        k = min(self.left, _CHUNK)
        if not k:
            return 0
        mv = self.buf if k == _CHUNK else memoryview(self.buf)[:k]
        self.dev.readblocks(self.block, mv, self.off)
        self.crc = crc32(mv, self.crc)
        self.off += k
        self.left -= k
        self.at, self.fill = 0, k
        return k

    def rest(self):
        """Read what json.load left (nothing, for a sound frame), then the stored CRC: True if they agree."""
        while self.refill():
            pass
        mv = memoryview(self.buf)[:4]
        self.dev.readblocks(self.block, mv, self.off)
        return struct.unpack_from("<I", mv, 0)[0] == self.crc


class _Atomic:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.depth += 1
        return self.log

    def __exit__(self, kind, value, tb):
        log = self.log
        log.depth -= 1
        if log.depth == 0:
            held, log.held = log.held, None
            if kind is None and held is not None:
                log._commit(held[0], held[1], held[2], held[3], held[4])
        return False


def _merged(value, sub):
    """A copy of dict `value` with the keys of `sub` set (a deep patch of one key)."""
    if not isinstance(value, dict):
        raise LogError("a deep patch of a key that holds no dict")
    value = dict(value)
    value.update(sub)
    return value


def _hold(held, full, patch, gone, entries, deep):
    """Fold one commit into those atomic() holds: (full, patch, gone, entries, deep)."""
    hf, hp, hg, he, hq = held
    for name in full or ():
        hf[name] = full[name]
        hp.pop(name, None)
        hq.pop(name, None)
        if name in hg:  # removed, then saved again: the frame's removals come after its full values
            hg.remove(name)
    for name in patch or ():
        if name in hf:
            value = dict(hf[name])
            value.update(patch[name])
            hf[name] = value
        else:
            hp[name] = dict(hp.get(name, {}))
            hp[name].update(patch[name])
            if name in hq:
                for k in patch[name]:
                    hq[name].pop(k, None)
    for name in deep or ():
        for k in deep[name]:
            sub = deep[name][k]
            if name in hf:
                value = dict(hf[name])
                value[k] = _merged(value[k], sub)
                hf[name] = value
            elif k in hp.get(name, ()):
                hp[name][k] = _merged(hp[name][k], sub)
            else:
                hq[name] = dict(hq.get(name, {}))
                hq[name][k] = _merged(hq[name].get(k, {}), sub)
    for name in gone or ():
        hf.pop(name, None)
        hp.pop(name, None)
        hq.pop(name, None)
        if name not in hg:
            hg.append(name)
    for e in entries or ():
        he.append(e)
    return held


def _apply(state, obj):
    r = obj.get("r")
    if r:
        for name in r:
            state[name] = r[name]
    p = obj.get("p")
    if p:
        for name in p:
            if name not in state:
                raise LogError("record '%s' patched before it was written" % name)
            state[name].update(p[name])
    q = obj.get("q")  # deep patches: the changed keys of a record's dict-valued keys
    if q:
        for name in q:
            if name not in state:
                raise LogError("record '%s' patched before it was written" % name)
            rec = state[name]
            for k in q[name]:
                rec[k] = _merged(rec.get(k), q[name][k])
    d = obj.get("d")
    if d:
        for name in d:
            state.pop(name, None)


class Log:
    every = 8  # blocks between two checkpoints (fewer on a small device)

    def __init__(self, dev):
        self.dev = dev
        self.blocks = dev.ioctl(4, 0)
        self.block_size = dev.ioctl(5, 0)
        self.prog = getattr(dev, "prog", 16)
        if self.blocks < 5 or self.block_size < 1024 or self.block_size % _UNIT or _UNIT % self.prog:
            raise ValueError("flash: %d blocks of %d bytes, program unit %d: the log needs 5 or more blocks of "
                             "a multiple of %d bytes (1 KB or more), and a unit dividing %d"
                             % (self.blocks, self.block_size, self.prog, _UNIT, _UNIT))
        self.first = self.align(_BHDR)  # where a block's first frame goes
        # a block is erased only once a whole checkpoint comes after it: with one every `every` blocks, the
        # live state spans every + 1 blocks (+1 if a checkpoint spills into the next), one block spare
        self.every = min(Log.every, self.blocks - 3)
        self._hdr = bytearray(_FHDR)
        self._bhdr = bytearray(_BHDR)
        self._pages = _Pages(self)
        self.depth = 0       # atomic() nesting
        self.held = None     # the commits atomic() holds
        self.frames = 0      # frames written since boot
        self.erases = 0      # blocks erased since boot
        self.programs = 0    # program operations since boot
        self._checkpointing = False
        self._open()

    def align(self, n):
        p = self.prog
        return (n + p - 1) // p * p

    def program(self, block, data, offset):
        self.programs += 1
        self.dev.writeblocks(block, data, offset)

    # -- reading --------------------------------------------------------------------------------
    def _bseq(self, block):
        """The block's sequence number, 0 when its header is not valid (erased, torn or damaged)."""
        h = self._bhdr
        self.dev.readblocks(block, h, 0)
        if h[:4] != _MAGIC or h[4] != _VERSION:
            return 0
        bseq, crc = struct.unpack_from("<II", h, 8)
        return bseq if crc32(memoryview(h)[:12]) == crc else 0

    def _block_of(self, bseq):
        """Where the ring keeps block sequence number bseq (it may have been reused since)."""
        return (self.head - (self.bseq - bseq)) % self.blocks

    def _ring(self):
        """(block, bseq) from the head backwards, while the headers say the ring is unbroken."""
        for k in range(self.blocks):
            bseq = self.bseq - k
            block = self._block_of(bseq)
            if bseq < 1 or self._bseq(block) != bseq:
                return
            yield block, bseq

    def _erased(self, block, offset):
        """True if the block is erased (0xFF) from offset to its end."""
        buf = self._pages.buf  # free between frames
        while offset < self.block_size:
            mv = memoryview(buf)[:min(len(buf), self.block_size - offset)]
            self.dev.readblocks(block, mv, offset)
            for b in mv:
                if b != 0xFF:
                    return False
            offset += len(mv)
        return True

    def _frames(self, block):
        """Each frame of a block in order: (offset, flags, seq, length, header CRC); where a header is
        damaged, one (offset, None, None, 0, None), then the scan resyncs on the next valid header.
        Ends at erased space: self._end is its offset (None if the block is full or damaged there)."""
        hdr = self._hdr
        size = self.block_size
        off = self.first
        self._end = None
        damaged = False
        while off + _FHDR + 4 <= size:
            self.dev.readblocks(block, hdr, off)
            n, flags, _, seq, crc = struct.unpack_from("<HBBII", hdr, 0)
            if crc32(memoryview(hdr)[:8]) == crc and self.align(off + _FHDR + n + 4) <= size:
                yield off, flags, seq, n, crc
                damaged = False
                off = self.align(off + _FHDR + n + 4)
                continue
            if n == 0xFFFF and flags == 0xFF and seq == 0xFFFFFFFF and crc == 0xFFFFFFFF and not damaged:
                self._end = off
                return
            if not damaged:
                damaged = True
                yield off, None, None, 0, None
            off += self.prog

    def _payload(self, block, off, n, hcrc):
        """The frame's payload decoded, None if its CRC fails or it is not a JSON object."""
        if _STREAM and n > _UNIT:
            reader = _Reader(self.dev, block, off + _FHDR, n, hcrc)
            try:
                obj = json.load(reader)
            except (ValueError, UnicodeError):
                return None
            return obj if reader.rest() and isinstance(obj, dict) else None
        raw = bytearray(n + 4)
        self.dev.readblocks(block, raw, off + _FHDR)
        if crc32(memoryview(raw)[:n], hcrc) != struct.unpack_from("<I", raw, n)[0]:
            return None
        try:
            obj = json.loads(memoryview(raw)[:n] if _STREAM else bytes(raw[:n]))
        except (ValueError, UnicodeError):
            return None
        return obj if isinstance(obj, dict) else None

    # -- boot -----------------------------------------------------------------------------------
    def _open(self):
        self.problem = ""
        self.torn = 0        # the last good seq before a torn write discarded at boot (0: none)
        self.lost = 0        # damaged frames of journal entries met at boot
        self.config_lost = False  # the damage may have held a configuration change
        self.state = {}
        self.seq = 0         # the last frame's seq (a damaged frame with a readable header counts)
        self.jseq = 0        # the last journal entry's seq
        self.chain = _chain.START  # the journal's chain value after its last entry
        self._ack = 0        # a torn write the next block's first frame acknowledges
        self.head = -1
        self.bseq = 0
        self.pos = 0
        self.ckpt = 0        # bseq of the block where the newest whole checkpoint starts
        # the reading's own attributes made here too: one added later regrows the object's attribute
        # table (hundreds of bytes in one piece) in the middle of a read, when the heap may have no such piece
        self._end = None     # where the block _frames() read ends
        self._chained = None
        self._checked = 0
        self._lift = False   # a RAM clear's checkpoint may erase what a damaged log holds (checkpoint())
        self._ready = -1     # the block idle() erased ahead of the ring (no header yet)
        self._twins = []     # blocks whose sequence number does not fit the ring (a RAM clear erases them)
        fresh = True  # every block erased but block 0, where a power cut may tear the first header written
        h = self._bhdr
        for block in range(self.blocks):
            bseq = self._bseq(block)
            if bseq > self.bseq:
                self.bseq, self.head = bseq, block
            elif not bseq and block and fresh:
                for b in h:
                    if b != 0xFF:
                        fresh = False
        if not self.bseq:
            if not fresh:
                self.problem = "the flash holds no table log (neither erased nor written by this firmware)"
            return
        for block in range(self.blocks):  # the ring numbers its blocks in turn: any other place is a copy
            bseq = self._bseq(block)
            if bseq and (self.bseq - bseq >= self.blocks or self._block_of(bseq) != block):
                self._twins.append(block)
        self.pos = self.block_size  # after damage, or until the replay finds the end: nothing appended
        base = self._base()
        if base is None:
            if self._any_frame():
                self.problem = "the log has no whole checkpoint to resume from (flash damaged)"
            # else the first checkpoint of a new log was torn: nothing was ever committed (empty state)
        else:
            self._replay(base)
        if self._twins and not self.problem:
            self.problem = ("damaged flash: block %d holds sequence number %d, which the ring keeps elsewhere "
                            "(a block copied over another)" % (self._twins[0], self._bseq(self._twins[0])))
        if not self.problem:
            self._newer()
            ahead = (self.head + 1) % self.blocks
            if not self._bseq(ahead) and self._erased(ahead, 0):
                self._ready = ahead

    def _newer(self):
        """A block whose header is bad but which holds frames newer than the log's last is damage, not free
        space: the log would otherwise resume a whole block older, silently."""
        for block in range(self.blocks):
            if self._bseq(block):
                continue
            for off, flags, seq, n, crc in self._frames(block):
                if crc is not None and seq > self.seq:
                    self.problem = ("damaged flash: block %d's header is bad and it holds frame #%d, newer than "
                                    "the log's last (#%d)" % (block, seq, self.seq))
                    return

    def _base(self):
        """(block, offset, seq, bseq) where the newest whole checkpoint starts."""
        for block, bseq in self._ring():
            ends = [(off, seq, n, crc) for off, flags, seq, n, crc in self._frames(block)
                    if crc is not None and flags & F_END]
            for off, seq, n, crc in reversed(ends):
                end = self._payload(block, off, n, crc)
                if end is None:
                    continue
                parts = end.get("n", 0)
                if not parts:
                    return block, off, seq, bseq
                start = self._parts(bseq, seq - parts, seq)
                if start is not None:
                    return start
        return None

    def _any_frame(self):
        for block, bseq in self._ring():
            for off, flags, seq, n, crc in self._frames(block):
                if crc is not None and self._payload(block, off, n, crc) is not None:
                    return True
        return False

    def _parts(self, bseq, first, end):
        """(block, offset, first, bseq) if the frames first..end-1 are all valid checkpoint parts."""
        got, start = 0, None
        for block, bs in self._ring():
            if bs > bseq:
                continue
            low = None
            for off, flags, seq, n, crc in self._frames(block):
                if crc is None:
                    continue
                low = seq if low is None else low
                if first <= seq < end:
                    if not flags & F_CKPT or self._payload(block, off, n, crc) is None:
                        return None
                    got += 1
                    if seq == first:
                        start = (block, off, first, bs)
            if low is not None and low <= first:
                break
        return start if got == end - first else None

    def _replay(self, base):
        block0, off0, first, bseq0 = base
        self.ckpt = bseq0
        state = {}
        parts = None
        first_part = bseq0
        last = first - 1
        self._chained = None  # the chain value the next entries must continue from (None: not known yet)
        gap = False
        chain_broken = ""
        pending = []  # flags of damaged frames not yet explained (None: header lost as well)
        bad = False
        kept, kept_cfg = "", False
        used = 0  # frames met in the head block
        tail = 0  # where the head block's last frame ends, by its header (0: its header is damaged)
        for bseq in range(bseq0, self.bseq + 1):
            block = self._block_of(bseq)
            if self._bseq(block) != bseq:
                pending.append(None)  # a block of the ring without a valid header: its frames are gone
                continue
            for off, flags, seq, n, crc in self._frames(block):
                if bseq == bseq0 and off < off0:
                    continue
                if crc is not None and seq > self.seq:
                    self.seq = seq
                if bseq == self.bseq:
                    used += 1
                    tail = self.align(off + _FHDR + n + 4) if crc is not None else 0
                obj = self._payload(block, off, n, crc) if crc is not None else None
                if obj is None:
                    pending.append(None if crc is None else flags)
                    continue
                if seq <= last:
                    continue
                if seq != last + 1 and not pending:
                    pending.append(None)  # frames missing between two valid ones
                if pending:
                    if flags & F_ACK and obj.get("v") == last:
                        pending = []
                    elif all(f is not None and not f & F_REC for f in pending):
                        self.lost += len(pending)
                        pending = []
                        gap = True  # the chain cannot be followed across lost entries
                    else:
                        if not bad:
                            bad = last
                        for f in pending:
                            if f is None or f & F_CFG:
                                self.config_lost = True
                        pending = []
                last = seq
                j = obj.get("j")
                if (j or flags & F_END) and not bad:
                    broken = self._follow(obj, j, gap)
                    if broken:
                        bad, chain_broken = last, broken
                gap = False
                if j:
                    self.jseq = j[-1][0]
                if obj.get("js", 0) > self.jseq:
                    self.jseq = obj["js"]
                if flags & F_CFG and _CONFIG in obj.get("r", ()):
                    self.config_lost = False  # the configuration is saved whole: a later copy stands alone
                if bad:  # what follows the damage, as far as it goes: for the technician's report only
                    try:
                        _apply(state, obj)
                    except (LogError, AttributeError, TypeError, ValueError):
                        pass
                    continue
                if flags & F_CKPT:
                    if parts is None:
                        parts, first_part = {}, bseq
                    parts.update(obj.get("r", {}))
                    continue
                if flags & F_END:
                    self.ckpt = bseq if parts is None else first_part  # where this checkpoint starts
                    state = parts or {}
                    parts = None
                    kept = obj.get("x", "")  # a checkpoint of a damaged log's state keeps its problem
                    kept_cfg = bool(obj.get("xc"))
                try:
                    _apply(state, obj)
                except (LogError, AttributeError, TypeError, ValueError):
                    bad = bad or last  # a frame that makes no sense on what came before: as damage
            if bseq == self.bseq:
                end = self._end
                self.pos = self.block_size if end is None or not self._erased(block, end) else end
        self.state = state
        if pending:  # nothing valid after it: a write the power cut tore, changing nothing
            self.torn = self._ack = last
            # a boot must not spend a block it does not need (a flickering supply cuts boot after boot): an
            # erased head block is used as it is, a torn one after the torn pages and a page of guard
            if not used:
                tail = self.first
            if tail:  # the scan goes on from there: the rest must be erased (a cut program stays in its frame)
                self.pos = tail if self._erased(self.head, tail) else self.block_size
            else:  # the scan resyncs on the next valid header: past the torn pages
                self.pos = self._after_tear()
        self.chain = self._chained or _chain.START
        if chain_broken:
            self.problem = chain_broken
        elif bad:
            self.problem = ("damaged flash after saved frame #%d, and later frames exist: the state before "
                            "the damage is older than what the log proves happened" % bad)
        elif kept:
            self.problem, self.config_lost = kept, kept_cfg
        else:
            self.config_lost = False

    def _after_tear(self):
        """Where the head block can take frames again after a torn write: past the last programmed byte and a
        page beyond it (a cut program may leave cells that read erased but are not), or block_size."""
        buf = self._pages.buf
        end = self.block_size
        while end > self.first:
            self.dev.readblocks(self.head, buf, end - _UNIT)
            k = _UNIT
            while k and buf[k - 1] == 0xFF:
                k -= 1
            if k:
                pos = end + _UNIT  # the page holding the last programmed byte, then one page of guard
                return pos if pos + _UNIT <= self.block_size else self.block_size
            end -= _UNIT
        return self.block_size

    def _follow(self, obj, entries, gap):
        """Follow the journal's chain over one frame: '' if it continues the chain (or a gap of lost entries
        leaves nothing to compare), else why not."""
        try:
            before = _chain.unhexed(obj.get("c"))
        except ValueError:
            return "journal chain missing after entry #%d: a frame this firmware did not write" % self.jseq
        first = entries[0][0] if entries else self.jseq + 1
        if self._chained is not None and not gap:
            if before != self._chained:  # what the last frame's entries make is not what this one follows
                return ("journal chain broken: entries #%d-#%d were edited, removed or reordered"
                        % (self._checked, first - 1))
            for k in range(len(entries or ())):
                if entries[k][0] != self.jseq + 1 + k:
                    return ("journal chain broken at entry #%d: entries removed, inserted or reordered"
                            % (self.jseq + 1 + k))
        self._chained, self._checked = _chain.extend(before, entries), first
        return ""

    # -- writing --------------------------------------------------------------------------------
    def atomic(self):
        """`with log.atomic():` the commits inside become one frame, written when the block ends."""
        return _Atomic(self)

    def last_entry(self):
        """The seq of the last journal entry, counting those an atomic() block holds."""
        held = self.held
        return held[3][-1][0] if held is not None and held[3] else self.jseq

    def value(self, name):
        """Record `name` as committed with what an atomic() block holds for it folded in (None: none): what
        the next save inside the block is compared with. Read it, never change it."""
        value = self.state.get(name)
        held = self.held
        if held is None:
            return value
        hf, hp, hg, he, hq = held
        if name in hf:
            return hf[name]
        if name in hg or value is None:
            return None
        if name in hp or name in hq:
            value = dict(value)
            value.update(hp.get(name, {}))
            deep = hq.get(name, {})
            for k in deep:
                value[k] = _merged(value.get(k), deep[k])
        return value

    def commit(self, full=None, patch=None, gone=None, entries=None, deep=None):
        """Commit full record values, changed keys (patch), changed keys of dict-valued keys (deep: {name:
        {key: {subkey: value}}}), removed records (gone) and journal entries in one frame (or hold them until
        the outermost atomic() block ends)."""
        if self.depth:
            self.held = _hold(self.held or ({}, {}, [], [], {}), full, patch, gone, entries, deep)
        else:
            self._commit(full, patch, gone, entries, deep)

    def _commit(self, full, patch, gone, entries, deep=None):
        obj = {}
        flags = 0
        for key, value in (("r", full), ("p", patch), ("q", deep), ("d", gone)):
            if value:
                obj[key] = value
                flags |= F_REC
                if _CONFIG in value:
                    flags |= F_CFG
        after = None
        if entries:
            obj["j"] = entries
            obj["c"] = _chain.hexed(self.chain)
            flags |= F_ENT
            after = _chain.extend(self.chain, entries)
        if not obj:
            return
        for name in list(patch or ()) + list(deep or ()):
            if name not in self.state and name not in (full or ()):
                raise ValueError("record '%s': a patch needs the record saved whole first" % name)
        self._frame(flags, obj)
        _apply(self.state, obj)
        if entries:
            self.jseq = entries[-1][0]
            self.chain = after

    def checkpoint(self, records=None, entries=None):
        """Restate the whole state with journal entries in its end frame: after a power cut, all of it or none
        of it. records: the new state (a RAM clear: names it lacks are removed, and a damaged log's problem
        goes); None: self.state restated, a damaged log's problem kept in the end frame (no reboot clears it)."""
        clear = records is not None
        if records is None:
            records = self.state
        names = sorted(records)
        self._fits(records, names)
        nested, self._checkpointing = self._checkpointing, True
        lift = self._lift
        start = 0
        try:
            if clear and self.problem:
                # nothing of a damaged log is kept but the journal: its blocks may go to make room
                self._lift = True
                for block in self._twins:
                    self.dev.ioctl(6, block)
                    self.erases += 1
                self._twins = []
            for name in names:
                cfg = F_CFG if name == _CONFIG else 0
                self._frame(F_CKPT | F_REC | cfg, {"r": {name: records[name]}})
                start = start or self.bseq
            end = {"n": len(names), "js": self.jseq, "c": _chain.hexed(self.chain)}
            if self.problem and not clear:
                end["x"] = self.problem
                if self.config_lost:
                    end["xc"] = 1
            flags = F_END | F_REC
            if entries:
                end["j"] = entries
                flags |= F_ENT
            after = _chain.extend(self.chain, entries)
            self._frame(flags, end)
        finally:
            self._checkpointing = nested
            self._lift = lift
        self.ckpt = start or self.bseq
        self.state = dict(records)
        if clear:
            self.problem = ""  # the state is what this checkpoint says, whatever came before
            self.config_lost = False
        self.chain = after
        if entries:
            self.jseq = entries[-1][0]

    def usable(self):
        """Bytes of frames a block holds."""
        return self.block_size - self.first

    def room(self):
        """Bytes of frames a checkpoint may take: the ring keeps `every` blocks of frames between two
        checkpoints, and a block spare for a RAM clear."""
        return (self.blocks - min(self.every, self.blocks - 3) - 2) * self.usable()

    def _stage(self, obj):
        """The first pass over a frame's payload: counted (pages.n), staged in the page buffer if it fits it;
        the encoded text where the heap held it whole, else None (streamed: json.dump again to write it)."""
        pages = self._pages
        pages.stage()
        try:
            data = json.dumps(obj).encode()  # in one piece when the heap has the block: one C call
        except MemoryError:  # a heap fragmented by hours of play: streamed, page by page
            if not _STREAM:
                raise
            gc.collect()
            json.dump(obj, pages)
            return None
        pages.write(data)
        return data

    def _fits(self, records, names):
        """LogError, before anything is written, if the ring cannot hold a checkpoint of these records."""
        total = _UNIT
        for name in names:
            self._stage({"r": {name: records[name]}})
            total += self.align(_FHDR + self._pages.n + 4)
        if total > self.room():
            raise Refused("the records need %d bytes, more than a ring of %d blocks of %d bytes keeps for a "
                           "checkpoint (%d)" % (total, self.blocks, self.block_size, self.room()))

    def _frame(self, flags, obj):
        """Write one frame after the last, in a new block if it does not fit."""
        if self._ack:
            if self._checkpointing:  # a checkpoint's parts follow the acknowledgement, never the damage
                ack, self._ack = self._ack, 0
                self._frame(F_ACK, {"v": ack})
            else:
                obj["v"] = self._ack  # the first frame after a torn write says so itself: no cut parts the two
                flags |= F_ACK
        pages = self._pages
        data = self._stage(obj)
        n, staged = pages.n, pages.fill
        need = self.align(_FHDR + n + 4)
        if need > self.usable():  # a whole block after its header (a torn write's acknowledgement rides in it)
            raise Refused("a frame of %d bytes does not fit a flash block of %d" % (n, self.block_size))
        if self.head < 0 or self.pos + need > self.block_size:
            staged = 0  # the new block's own frames (an acknowledgement, a checkpoint) go through the buffer
            for _ in range(self.blocks):
                if self.head >= 0 and self.pos + need <= self.block_size:
                    break
                self._advance()  # a checkpoint may fill the new block: the next has room
        if self.pos + need > self.block_size:
            raise Refused("a frame of %d bytes does not fit the ring's next block (%d bytes left)"
                           % (n, self.block_size - self.pos))
        seq = self.seq + 1
        hdr = memoryview(pages.buf)[:_FHDR] if staged else self._hdr
        struct.pack_into("<HBBI", hdr, 0, n, flags, 0, seq)
        crc = crc32(hdr[:8])
        struct.pack_into("<I", hdr, 8, crc)
        if staged:  # header, payload and CRC in the buffer already: one program
            buf = pages.buf
            struct.pack_into("<I", buf, staged, crc32(memoryview(buf)[_FHDR:staged], crc))
            pages.block, pages.offset, pages.fill = self.head, self.pos, staged + 4
            pages.flush()
        else:
            pages.start(self.head, self.pos)
            pages.raw(hdr)
            pages.crc = crc
            if data is None:
                json.dump(obj, pages)
            else:
                pages.write(data)
            struct.pack_into("<I", hdr, 0, pages.crc)  # the header is in the pages already: its buffer is free
            pages.raw(memoryview(hdr)[:4])
            pages.flush()
        self.pos += need
        self.seq = seq
        self.frames += 1
        if flags & F_ACK:
            self._ack = 0

    def _advance(self):
        """Start the next block of the ring: erase it, write its header, then a checkpoint when one is due."""
        block = (self.head + 1) % self.blocks
        bseq = self.bseq + 1
        old = self._bseq(block)
        if old and self.ckpt and old >= self.ckpt and not self._lift:
            why = "flash log full: block %d still holds the live state (checkpoints keep failing)" % block
            self.problem = self.problem or why  # the table tilts: a RAM clear's checkpoint makes room
            raise LogError(why)
        if block != self._ready:
            self.dev.ioctl(6, block)
            self.erases += 1
        self._ready = -1
        h = memoryview(self._pages.buf)[:self.first]  # free between frames
        for i in range(self.first):
            h[i] = 0xFF
        h[0:4] = _MAGIC
        h[4] = _VERSION
        h[5] = h[6] = h[7] = 0
        struct.pack_into("<I", h, 8, bseq)
        struct.pack_into("<I", h, 12, crc32(memoryview(h)[:12]))
        self.program(block, h, 0)
        self.head, self.bseq, self.pos = block, bseq, self.first
        if not self._checkpointing and (not self.ckpt or bseq - self.ckpt >= self.every):
            self.checkpoint()

    def idle(self):
        """Between keys: erase the block the ring moves on to next, or write a checkpoint that the next block
        would make due, so that a key's frame never waits for an erase (a Pico's 4 KB erase: 45-400 ms, the
        CPU stalled). One erase or one checkpoint a call; True if it did one. A cut leaves an erased block
        outside the ring, or a torn checkpoint (a torn write)."""
        if self.head < 0 or self.depth or self.problem or self._ack:
            return False
        ahead = (self.head + 1) % self.blocks
        if ahead != self._ready:
            old = self._bseq(ahead)
            if old and self.ckpt and old >= self.ckpt:
                return False  # live state there: the checkpoint comes first
            self.dev.ioctl(6, ahead)
            self.erases += 1
            self._ready = ahead
            return True
        if self.bseq + 1 - self.ckpt >= self.every and self.pos * 2 >= self.block_size:
            self.checkpoint()  # what the next block would write in a key
            return True
        return False

    # -- journal entries ------------------------------------------------------------------------
    def payloads(self):
        """Every frame of the ring, oldest first, as (flags, payload): payload None where the frame is damaged
        (flags None too where its header is). One frame at a time: what a long read needs of the heap."""
        if self.head < 0:
            return
        oldest = self.bseq
        for block, bseq in self._ring():
            oldest = bseq
        for bseq in range(oldest, self.bseq + 1):
            block = self._block_of(bseq)
            if self._bseq(block) != bseq:
                yield None, None
                continue
            for off, flags, seq, size, crc in self._frames(block):
                yield flags, (self._payload(block, off, size, crc) if crc is not None else None)

    def entries(self, n):
        """([the last n journal entries in the ring, oldest first], damaged frames met on the way)."""
        out = []
        damaged = 0
        if n <= 0 or self.head < 0:
            return out, 0
        for block, bseq in self._ring():  # newest block first; within one, oldest entry first
            found = []
            for off, flags, seq, size, crc in self._frames(block):
                obj = self._payload(block, off, size, crc) if crc is not None and flags & F_ENT else None
                if obj is None:
                    if crc is None or flags & F_ENT:
                        damaged += 1
                    continue
                found.extend(obj.get("j", ()))
            out = found[len(found) - min(len(found), n - len(out)):] + out  # only what the n still need
            if len(out) >= n:
                break
        return out, damaged
