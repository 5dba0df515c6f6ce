"""The log's writer: commits (records and journal entries) appended as frames into the ring, atomic()
blocks joined into one frame, checkpoints restating the whole state, and idle() erasing ahead between keys.

A checkpoint restates the whole state, one frame a record, then an end frame ('n': how many parts; 'js':
the journal's seq; 'c': the chain value; 'x' and 'xc': a damaged log's problem, kept): every `every`
blocks, and for a RAM clear. A block is erased only when a whole checkpoint comes after it.
"""
import gc
import json
import struct

from tablectl import chain as _chain
from tablectl.crc import crc32
from tablectl.storage.errors import LogError, Refused
from tablectl.storage.frame import F_ACK, F_CKPT, F_END, F_ENT, F_REC, F_VITAL, FHDR, STREAM, UNIT, pack_header
from tablectl.storage.records import apply, empty, held_value, hold
from tablectl.storage.ring import Ring


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


class Log(Ring):
    """The records ({name: value}) and the journal in the ring. `vital` (or watch()): the record whose
    frames are flagged, so that boot can say whether damage took a change of it (vital_lost: the table's
    configuration, which Store names)."""
    every = 8  # blocks between two checkpoints (fewer on a small device)

    def __init__(self, dev, vital=None):
        Ring.__init__(self, dev)
        self.vital = vital
        # a block is erased only once a whole checkpoint comes after it: with one every `every` blocks, the
        # live state spans every + 1 blocks (+1 if a checkpoint spills into the next), one block spare
        self.every = min(Log.every, self.blocks - 3)
        self.depth = 0       # atomic() nesting
        self.held = None     # the commits atomic() holds
        self.frames = 0      # frames written since boot
        self._checkpointing = False
        self.reopen()

    def reopen(self):
        """Read the log from flash again, as a boot does (every attribute of what boot finds made anew)."""
        self.head, self.bseq, self.pos = -1, 0, 0
        # what boot finds (tablectl.storage.replay sets them); made here, all of them: one added later
        # regrows the object's attribute table (hundreds of bytes in one piece) when the heap may have none
        self.problem = ""    # '' or why the log cannot be trusted: the table tilts
        self.torn = 0        # the last good seq before a torn write discarded at boot (0: none)
        self.lost = 0        # damaged frames of journal entries met at boot
        self._vdamage = False  # the damage may have held a change of a vital record...
        self._whole = []     # ...and these records were saved whole after it (vital_lost)
        self.vital_lost = False  # (a plain attribute: a property slows every attribute of a Log on MicroPython)
        self.state = {}      # {record name: its committed value}
        self.seq = 0         # the last frame's seq (a damaged frame with a readable header counts)
        self.jseq = 0        # the last journal entry's seq
        self.chain = _chain.START  # the journal's chain value after its last entry
        self.ckpt = 0        # bseq of the block where the newest whole checkpoint starts
        self._ack = 0        # a torn write the next block's first frame acknowledges
        self._lift = False   # a RAM clear's checkpoint may erase what a damaged log holds (checkpoint())
        self._ready = -1     # the block idle() erased ahead of the ring (no header yet)
        self._twins = []     # blocks whose sequence number does not fit the ring (a RAM clear erases them)
        self._keep = -1      # a block with a bad header over newer frames: damage only a RAM clear erases
        from tablectl.storage.replay import replay  # a module the application may drop after boot
        replay(self)
        self.watch(self.vital)

    def watch(self, name):
        """Flag the frames that write record `name` from now on (Store: the configuration); vital_lost says
        whether the damage boot found may have held a change of it."""
        self.vital = name
        self.vital_lost = self._vdamage and name not in self._whole

    # -- the records, read -------------------------------------------------------------------
    def get(self, name):
        """The committed value of record `name` (None: none): read it, never change it."""
        return self.state.get(name)

    def names(self):
        """The names of the records present, sorted."""
        return sorted(self.state)

    def adopt(self, name, obj):
        """Hold `obj` as the committed value of `name` from now on, writing nothing: for a reader that made
        an equivalent value of its own (the same meaning when read back), so the heap keeps one."""
        if name in self.state:
            self.state[name] = obj

    def last_entry(self):
        """The seq of the last journal entry, counting those an atomic() block holds."""
        held = self.held
        return held[3][-1][0] if held is not None and held[3] else self.jseq

    def value(self, name):
        """Record `name` as committed with what an atomic() block holds for it folded in (None: none): what
        the next save inside the block is compared with. Read it, never change it."""
        value = self.state.get(name)
        held = self.held
        return value if held is None else held_value(held, name, value)

    # -- writing --------------------------------------------------------------------------------
    def atomic(self):
        """`with log.atomic():` the commits inside become one frame, written when the block ends."""
        return _Atomic(self)

    def commit(self, full=None, patch=None, gone=None, entries=None, deep=None):
        """Commit full record values, changed keys (patch), changed keys of dict-valued keys (deep: {name:
        {key: {subkey: value}}}), removed records (gone) and journal entries in one frame (or hold them until
        the outermost atomic() block ends)."""
        if self.depth:
            self.held = hold(self.held or empty(), full, patch, gone, entries, deep)
        else:
            self._commit(full, patch, gone, entries, deep)

    def _commit(self, full, patch, gone, entries, deep=None):
        obj = {}
        flags = 0
        vital = self.vital
        for key, value in (("r", full), ("p", patch), ("q", deep), ("d", gone)):
            if value:
                obj[key] = value
                flags |= F_REC
                if vital in value:
                    flags |= F_VITAL
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
        apply(self.state, obj)
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
                # in a block of its own: parts before a kept block it goes past would be cut off from the ring (the
                # walk back from the head stops at its bad header), and the clear's checkpoint would be no whole one
                self.pos = self.block_size
            copies = [(block, self._bseq(block)) for block in self._twins]
            for name in names:
                self._frame(F_CKPT | F_REC | (F_VITAL if name == self.vital else 0), {"r": {name: records[name]}})
                start = start or self.bseq
            end = {"n": len(names), "js": self.jseq, "c": _chain.hexed(self.chain)}
            if self.problem and not clear:
                end["x"] = self.problem
                if self.vital_lost:
                    end["xc"] = 1
            flags = F_END | F_REC
            if entries:
                end["j"] = entries
                flags |= F_ENT
            after = _chain.extend(self.chain, entries)
            self._frame(flags, end)
            if clear:  # a copied block goes once the clear is whole: erased before, a cut would leave no trace
                for block, bseq in copies:
                    if self._bseq(block) == bseq:  # never a block this checkpoint went on into (renumbered)
                        self.erase(block)
                self._twins = []
        finally:
            self._checkpointing = nested
            self._lift = lift
        self.ckpt = start or self.bseq
        self.state = dict(records)
        if clear:
            self.problem = ""  # the state is what this checkpoint says, whatever came before
            self._keep = -1
            self._vdamage = self.vital_lost = False
        self.chain = after
        if entries:
            self.jseq = entries[-1][0]

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
            if not STREAM:
                raise
            gc.collect()
            json.dump(obj, pages)
            return None
        pages.write(data)
        return data

    def _fits(self, records, names):
        """LogError, before anything is written, if the ring cannot hold a checkpoint of these records."""
        total = UNIT
        for name in names:
            self._stage({"r": {name: records[name]}})
            total += self.align(FHDR + self._pages.n + 4)
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
        need = self.align(FHDR + n + 4)
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
        hdr = memoryview(pages.buf)[:FHDR] if staged else self._hdr
        crc = pack_header(hdr, n, flags, seq)
        if staged:  # header, payload and CRC in the buffer already: one program
            buf = pages.buf
            struct.pack_into("<I", buf, staged, crc32(memoryview(buf)[FHDR:staged], crc))
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
        if block == self._keep:  # a bad header over newer frames: the damage is its own evidence
            if not self._lift:
                raise LogError(self.problem)  # a tilted boot's entry goes unjournalled
            # a RAM clear goes on past it (its sequence number skipped): cut before its checkpoint is whole, the
            # next boot finds the block again, or no whole checkpoint
            block, bseq = (block + 1) % self.blocks, bseq + 1
        old = self._bseq(block)
        if old and self.ckpt and old >= self.ckpt and not self._lift:
            why = "flash log full: block %d still holds the live state (checkpoints keep failing)" % block
            self.problem = self.problem or why  # the table tilts: a RAM clear's checkpoint makes room
            raise LogError(why)
        if block != self._ready:
            self.erase(block)
        self._ready = -1
        self.start_block(block, bseq)
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
            self.erase(ahead)
            self._ready = ahead
            return True
        if self.bseq + 1 - self.ckpt >= self.every and self.pos * 2 >= self.block_size:
            self.checkpoint()  # what the next block would write in a key
            return True
        return False
