"""Boot: the log's state rebuilt from flash, from the newest whole checkpoint on, and what damage means.

What boot makes of a damaged frame (a bad CRC, a hole in the sequence numbers):
- nothing valid after it: a write a power cut tore. It is discarded, and the next frame says so ('v': the
  last good seq): `torn` tells the application, which journals it;
- valid frames after it, and its header says it held journal entries only: those entries are lost
  (`lost` counts the frames), the state is sound;
- valid frames after it otherwise: `problem` (a tilt, until a RAM clear's checkpoint); `state` then holds
  what the frames after the damage make of it, unverified, for the technician's report. A checkpoint of
  that state carries the problem in its end frame ('x'): no reboot clears it.
The journal's chain (tablectl.chain) is followed over every frame: an entry edited, removed or reordered is
`problem`. A block whose header is bad but which holds frames newer than the log's last, and a block whose
sequence number does not fit its place in the ring (a copy), are damage too (the former never erased in the tilt,
the numbers going on past its frames). Every kind: docs/storage.md.
Nothing here runs after boot: the application may drop the module (tablectl.storage.unload_replay()).
"""
from tablectl import chain as _chain
from tablectl.storage.errors import LogError
from tablectl.storage.frame import F_ACK, F_CKPT, F_END, F_REC, F_VITAL, FHDR, UNIT
from tablectl.storage.records import apply


def replay(log):
    """Set what boot finds on log (a Log whose attributes are those of an empty log)."""
    _Replay(log).run()


class _Replay:
    def __init__(self, log):
        self.log = log
        self.chained = None  # the chain value the next entries must continue from (None: not known yet)
        self.checked = 0     # the first entry whose chain value `chained` follows

    def run(self):
        log = self.log
        fresh = True  # every block erased but block 0, where a power cut may tear the first header written
        h = log._bhdr
        for block in range(log.blocks):
            bseq = log._bseq(block)
            if bseq > log.bseq or (bseq and bseq == log.bseq and block == log.head + 1):
                # of a block and its copy right after it (the newest overwritten by its neighbour), the later is
                # the head: the ring then moves on past both, and a RAM clear erases the copy only once it is whole
                log.bseq, log.head = bseq, block
            elif not bseq and block and fresh:
                for b in h:
                    if b != 0xFF:
                        fresh = False
        if not log.bseq:
            if not fresh:
                log.problem = "the flash holds no table log (neither erased nor written by this firmware)"
            return
        for block in range(log.blocks):  # the ring numbers its blocks in turn: any other place is a copy
            bseq = log._bseq(block)
            if bseq and (log.bseq - bseq >= log.blocks or log._block_of(bseq) != block):
                log._twins.append(block)
        log.pos = log.block_size  # after damage, or until the replay finds the end: nothing appended
        base = self.base()
        if base is None:
            if self.any_frame():
                log.problem = "the log has no whole checkpoint to resume from (flash damaged)"
                self.numbers()
            # else the first checkpoint of a new log was torn: nothing was ever committed (empty state)
        else:
            self.replay(base)
        if log._twins and (not log.problem or base is None):  # the copy is why no checkpoint is whole
            log.problem = ("damaged flash: block %d holds sequence number %d, which the ring keeps elsewhere "
                           "(a block copied over another)" % (log._twins[0], log._bseq(log._twins[0])))
        self.newer()
        if not log.problem:
            ahead = (log.head + 1) % log.blocks
            if not log._bseq(ahead) and log._erased(ahead, 0):
                log._ready = ahead

    def newer(self):
        """A block whose header is bad but which holds frames newer than the log's last is damage, not free
        space: the log would otherwise resume a whole block older, silently. The log's numbers go on after
        its frames and entries: a tilted boot's frame then leaves a hole the next boot finds (one numbered
        among them would hide them), and the journal never gives a number twice. The writer never erases the block
        (`_keep`; a RAM clear goes past it): erased for a tilted boot's entry, a cut right after would leave no trace."""
        log = self.log
        seq, jseq = log.seq, log.jseq
        for block in range(log.blocks):
            if log._bseq(block):
                continue
            for off, flags, fseq, n, crc in log._frames(block):
                if crc is None or fseq <= log.seq:
                    continue
                if not log.problem:
                    log.problem = ("damaged flash: block %d's header is bad and it holds frame #%d, newer than "
                                   "the log's last (#%d)" % (block, fseq, log.seq))
                log._keep = block
                seq = max(seq, fseq)
                obj = log._payload(block, off, n, crc)
                if obj is not None:
                    j = obj.get("j")
                    jseq = max(jseq, obj.get("js", 0), j[-1][0] if j else 0)
        log.seq, log.jseq = seq, jseq

    def base(self):
        """(block, offset, seq, bseq) where the newest whole checkpoint starts."""
        log = self.log
        for block, bseq in log._ring():
            ends, top = [], 0
            for off, flags, seq, n, crc in log._frames(block):
                if crc is None:
                    continue
                if flags & F_END and seq > top:  # numbered below a frame before it: a copy, which replay() names
                    ends.append((off, seq, n, crc))
                top = seq if seq > top else top
            for off, seq, n, crc in reversed(ends):
                end = log._payload(block, off, n, crc)
                if end is None:
                    continue
                parts = end.get("n", 0)
                if not parts:
                    return block, off, seq, bseq
                start = self.parts(bseq, seq - parts, seq)
                if start is not None:
                    return start
        return None

    def any_frame(self):
        log = self.log
        for block, bseq in log._ring():
            for off, flags, seq, n, crc in log._frames(block):
                if crc is not None and log._payload(block, off, n, crc) is not None:
                    return True
        return False

    def numbers(self):
        """With nothing replayed, the log's frame and journal numbers go on past every frame the ring holds: a
        tilted boot's entry or a RAM clear never gives a number twice."""
        log = self.log
        for block, bseq in log._ring():
            for off, flags, seq, n, crc in log._frames(block):
                if crc is None:
                    continue
                log.seq = max(log.seq, seq)
                obj = log._payload(block, off, n, crc)
                if obj is not None:
                    j = obj.get("j")
                    log.jseq = max(log.jseq, obj.get("js", 0), j[-1][0] if j else 0)

    def parts(self, bseq, first, end):
        """(block, offset, first, bseq) if the frames first..end-1 are all valid checkpoint parts."""
        log = self.log
        got, start = 0, None
        for block, bs in log._ring():
            if bs > bseq:
                continue
            low = None
            for off, flags, seq, n, crc in log._frames(block):
                if crc is None:
                    continue
                low = seq if low is None else low
                if first <= seq < end:
                    if not flags & F_CKPT or log._payload(block, off, n, crc) is None:
                        return None
                    got += 1
                    if seq == first:
                        start = (block, off, first, bs)
            if low is not None and low <= first:
                break
        return start if got == end - first else None

    def replay(self, base):
        log = self.log
        block0, off0, first, bseq0 = base
        log.ckpt = bseq0
        state = {}
        parts = None
        first_part = bseq0
        last = first - 1
        self.chained = None
        gap = False
        chain_broken = ""
        pending = []  # flags of damaged frames not yet explained (None: header lost as well)
        bad = False
        repeated = 0  # the seq of a valid frame met after one numbered as high or higher (0: none)
        kept, kept_vital = "", False
        used = 0  # frames met in the head block
        tail = 0  # where the head block's last frame ends, by its header (0: its header is damaged)
        for bseq in range(bseq0, log.bseq + 1):
            block = log._block_of(bseq)
            if log._bseq(block) != bseq:
                pending.append(None)  # a block of the ring without a valid header: its frames are gone
                continue
            for off, flags, seq, n, crc in log._frames(block):
                if bseq == bseq0 and off < off0:
                    continue
                if crc is not None and seq > log.seq:
                    log.seq = seq
                if bseq == log.bseq:
                    used += 1
                    tail = log.align(off + FHDR + n + 4) if crc is not None else 0
                obj = log._payload(block, off, n, crc) if crc is not None else None
                if obj is None:
                    pending.append(None if crc is None else flags)
                    continue
                if seq <= last:  # the firmware numbers each frame once: a valid one numbered again is copied or forged
                    if not bad:
                        bad, repeated = last, seq
                    continue
                if seq != last + 1 and not pending:
                    pending.append(None)  # frames missing between two valid ones
                if pending:
                    if flags & F_ACK and obj.get("v") == last:
                        pending = []
                    elif all(f is not None and not f & F_REC for f in pending):
                        log.lost += len(pending)
                        pending = []
                        gap = True  # the chain cannot be followed across lost entries
                    else:
                        if not bad:
                            bad = last
                        for f in pending:
                            if f is None or f & F_VITAL:
                                log._vdamage, log._whole = True, []
                        pending = []
                last = seq
                j = obj.get("j")
                if (j or flags & F_END) and not bad:
                    broken = self.follow(obj, j, gap)
                    if broken:
                        bad, chain_broken = last, broken
                gap = False
                if j:
                    log.jseq = j[-1][0]
                if obj.get("js", 0) > log.jseq:
                    log.jseq = obj["js"]
                if flags & F_VITAL and "r" in obj:
                    log._whole.extend(obj["r"])  # saved whole after the damage: a later copy stands alone
                if bad:  # what follows the damage, as far as it goes: for the technician's report only
                    try:
                        apply(state, obj)
                    except (LogError, AttributeError, TypeError, ValueError):
                        pass
                    continue
                if flags & F_CKPT:
                    if parts is None:
                        parts, first_part = {}, bseq
                    parts.update(obj.get("r", {}))
                    continue
                if flags & F_END:
                    log.ckpt = bseq if parts is None else first_part  # where this checkpoint starts
                    state = parts or {}
                    parts = None
                    kept = obj.get("x", "")  # a checkpoint of a damaged log's state keeps its problem
                    kept_vital = bool(obj.get("xc"))
                try:
                    apply(state, obj)
                except (LogError, AttributeError, TypeError, ValueError):
                    bad = bad or last  # a frame that makes no sense on what came before: as damage
            if bseq == log.bseq:
                end = log._end
                log.pos = log.block_size if end is None or not log._erased(block, end) else end
        log.state = state
        if pending:  # nothing valid after it: a write the power cut tore, changing nothing
            log.torn = log._ack = last
            # a boot must not spend a block it does not need (a flickering supply cuts boot after boot): an
            # erased head block is used as it is, a torn one after the torn pages and a page of guard
            if not used:
                tail = log.first
            if tail:  # the scan goes on from there: the rest must be erased (a cut program stays in its frame)
                log.pos = tail if log._erased(log.head, tail) else log.block_size
            else:  # the scan resyncs on the next valid header: past the torn pages
                log.pos = self.after_tear()
        log.chain = self.chained or _chain.START
        if chain_broken:
            log.problem = chain_broken
        elif repeated:
            log.problem = ("damaged flash: a valid frame numbered #%d after saved frame #%d (a frame copied or "
                           "forged)" % (repeated, bad))
        elif bad:
            log.problem = ("damaged flash after saved frame #%d, and later frames exist: the state before "
                           "the damage is older than what the log proves happened" % bad)
        elif kept:
            log.problem, log._vdamage, log._whole = kept, kept_vital, []
        else:
            log._vdamage = False

    def after_tear(self):
        """Where the head block can take frames again after a torn write: past the last programmed byte and a
        page beyond it (a cut program may leave cells that read erased but are not), or block_size."""
        log = self.log
        buf = log._pages.buf
        end = log.block_size
        while end > log.first:
            log.dev.readblocks(log.head, buf, end - UNIT)
            k = UNIT
            while k and buf[k - 1] == 0xFF:
                k -= 1
            if k:
                pos = end + UNIT  # the page holding the last programmed byte, then one page of guard
                return pos if pos + UNIT <= log.block_size else log.block_size
            end -= UNIT
        return log.block_size

    def follow(self, obj, entries, gap):
        """Follow the journal's chain over one frame: '' if it continues the chain (or a gap of lost entries
        leaves nothing to compare), else why not."""
        log = self.log
        try:
            before = _chain.unhexed(obj.get("c"))
        except ValueError:
            return "journal chain missing after entry #%d: a frame this firmware did not write" % log.jseq
        # a frame of no entries is a checkpoint's end: its 'js' is the journal's seq there, which the replay,
        # when it starts at that checkpoint, has not met yet
        first = entries[0][0] if entries else max(log.jseq, obj.get("js", 0)) + 1
        if self.chained is not None and not gap:
            if before != self.chained:  # what the last frame's entries make is not what this one follows
                if self.checked == first:  # no entry since the last chain value: a frame's value itself changed
                    return ("journal chain broken before entry #%d: a frame's chain value is not the one the "
                            "entries before it make" % first)
                return ("journal chain broken: entries #%d-#%d were edited, removed or reordered"
                        % (self.checked, first - 1))
            for k in range(len(entries or ())):
                if entries[k][0] != log.jseq + 1 + k:
                    return ("journal chain broken at entry #%d: entries removed, inserted or reordered"
                            % (log.jseq + 1 + k))
        self.chained, self.checked = _chain.extend(before, entries), first
        return ""
