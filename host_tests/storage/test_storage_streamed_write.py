"""The storage writer's streaming branch (writer._stage()'s `except MemoryError`), which only MicroPython runs:
a frame whose text the heap cannot build in one piece is streamed by json.dump into the page buffer, and must
leave the flash byte for byte as the same frame built whole does, and the same state after a boot. CPython's
json.dump hands a stream str, not bytes, so there the branch is a MemoryError (test_storage_writer_mutants)."""
# mp-heap: 132K
import gc
import json
import sys

from harness.heapfrag import fragmented
from harness.logsteps import entry
from harness.ramblockdev import RamBlockDev, skip
from tablectl.storage import Log
from tablectl.storage import writer


def micropython_only():
    if sys.implementation.name != "micropython":
        skip("CPython's json.dump writes str to a stream: the writer streams only on MicroPython")


class NoWholeText:
    """json as the writer meets it in a heap with no block as long as any frame's text: dumps fails, dump
    streams (counted: the first pass, which stages or counts, and the second, which programs page by page)."""

    def __init__(self):
        self.dumps_failed = 0
        self.streamed = 0

    def dumps(self, obj):
        self.dumps_failed += 1
        raise MemoryError("no block of heap as long as the text")

    def dump(self, obj, stream):
        self.streamed += 1
        json.dump(obj, stream)


def text(k):
    return "x" * k


def session(log):
    """Every kind of frame the writer makes, at every length that matters to the page buffer: short ones it
    stages, payloads either side of a page exactly (header 12 + payload + CRC 4 = 256), long ones over many
    pages, atomic() joins with entries, the blocks filled until checkpoints come due (their parts staged and
    streamed), and a RAM clear."""
    log.commit(full={"round": {"i": -1}})
    for k in range(214, 226):  # {"p": {"round": {"s": "..."}}}: 26 bytes around it: payloads of 240 +- 6
        log.commit(patch={"round": {"s": text(k)}}, entries=[entry(log.jseq + 1)] if k % 3 == 0 else None)
    log.commit(full={"hist": {"h": [[i, "card %02d" % i, i * 3] for i in range(40)]}})  # ~850 bytes
    with log.atomic():
        log.commit(patch={"round": {"s": text(400)}})
        log.commit(entries=[entry(log.jseq + 1, text(300))])
    for i in range(20):  # past several blocks: checkpoints restate 'round' and 'hist', long parts among them
        log.commit(patch={"round": {"i": i, "s": text(37 * i)}}, entries=[entry(log.jseq + 1)])
    log.checkpoint(records={"round": {"i": 99}, "hist": {"h": text(900)}}, entries=[entry(log.jseq + 1, "clear")])
    log.commit(patch={"round": {"i": 100}})


def test_every_frame_streamed_leaves_the_flash_byte_for_byte_as_built_whole_and_boots_to_the_same_state():
    micropython_only()
    # a Pico's blocks and pages; small blocks, as many as let a checkpoint of these records take 6 of them
    for size, blocks, prog in ((4096, 6, 256), (1024, 16, 16)):
        gc.collect()
        whole = RamBlockDev(block_size=size, blocks=blocks, prog=prog)
        session(Log(whole))
        streamed = RamBlockDev(block_size=size, blocks=blocks, prog=prog)
        shim = NoWholeText()
        writer.json = shim
        try:
            log = Log(streamed)
            session(log)
        finally:
            writer.json = json
        # every frame's text (and each checkpoint part's, counted first by _fits()) failed to build in one
        # piece and went through json.dump; the long ones twice: counted, then programmed page by page
        assert shim.dumps_failed >= log.frames and shim.dumps_failed < shim.streamed < 2 * shim.dumps_failed, \
            (size, shim.dumps_failed, shim.streamed, log.frames)
        assert (streamed.programs, streamed.erases) == (whole.programs, whole.erases), size
        assert streamed.data == whole.data, size
        a, b = Log(whole.reboot()), Log(streamed.reboot())
        assert b.problem == "" and b.torn == 0 and b.lost == 0, b.problem
        assert (b.state, b.seq, b.jseq, b.chain, b.ckpt) == (a.state, a.seq, a.jseq, a.chain, a.ckpt), size
        assert b.state == {"round": {"i": 100}, "hist": {"h": text(900)}}, b.state
        whole = streamed = a = b = log = None


def test_a_frame_in_a_heap_too_fragmented_for_its_text_is_streamed_as_it_would_be_written_whole():
    """No stand-in for json: the heap itself has no block as long as the frame's text (its pieces of 640 bytes,
    the text 1.6 KB), as after hours of play; the frame written then is the one a whole heap writes."""
    micropython_only()
    value = {"note": text(1200), "h": [[i, "card %02d" % i] for i in range(25)]}
    gc.collect()
    whole = RamBlockDev(block_size=4096, blocks=5, prog=256)
    log = Log(whole)
    log.commit(full={"round": {"i": 1}})
    log.commit(full={"big": value}, entries=[entry(1, "long")])
    streamed = RamBlockDev(block_size=4096, blocks=5, prog=256)
    log = Log(streamed)
    log.commit(full={"round": {"i": 1}})
    obj = {"r": {"big": value}}
    gc.collect()
    hold = fragmented(640)
    try:
        try:
            json.dumps(obj)
            built = True
        except MemoryError:
            built = False
        log.commit(full={"big": value}, entries=[entry(1, "long")])
    finally:
        hold = None
        gc.collect()
    assert not built  # what the writer met: json.dumps could not build the text, and it was streamed
    assert streamed.data == whole.data and streamed.programs == whole.programs
    again = Log(streamed.reboot())
    assert again.problem == "" and again.state == {"round": {"i": 1}, "big": value} and again.jseq == 1
