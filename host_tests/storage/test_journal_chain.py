"""The journal's SHA-256 chain on the board: every frame continues the one before, the export gives each entry's
chain value, and an entry edited, removed, reordered or inserted on the flash, its CRC made right, is a tilt at
boot naming it (CPython and the unix port)."""
# mp-heap: 108K
from harness.ramblockdev import RamBlockDev, log_frames, rewrite_payload
from tablectl import chain
from tablectl.journal import Journal
from tablectl.storage import Log
from tablectl.store import Store


def journal_of(d):
    log = Log(d)
    return log, Journal(log)


def played():
    """A small journal: entries alone and with records, in several frames."""
    d = RamBlockDev(block_size=2048, blocks=5)
    log, j = journal_of(d)
    s = Store(log)
    s.save("round", {"n": 0})
    for i in range(1, 7):
        with log.atomic():
            s.save("round", {"n": i})
            j.append("step", i, a=i, text="step %d" % i)
            if i % 2:
                j.append("note", i, b=i)
    j.append("alone", 9, text="entries alone")
    return d


def test_each_entry_chains_from_the_last_and_boot_follows_it():
    d = played()
    log, j = journal_of(d)
    assert log.problem == "" and log.jseq == 10
    value = chain.START
    for rec in j.records(10):
        value = chain.link(value, list(rec))
    assert value == log.chain  # the chain after the last entry, rebuilt at boot
    frames = [f[5] for f in log_frames(d) if f[5] and f[5].get("j")]
    assert all(len(f["c"]) == 64 for f in frames)  # each frame says where the chain stood before it


def test_the_export_gives_every_entry_its_chain_value_and_continues_where_asked():
    d = played()
    log, j = journal_of(d)
    lines = []
    assert j.export(1, lines.append, "t1") == 10
    assert lines[0] == "# tablectl journal export table=t1 first=1 prev=" + chain.hexed(chain.START)
    value = chain.START
    for line in lines[1:-1]:
        seq, rnd, event, a, b, got, text = line.split(" ", 6)
        value = chain.link(value, [int(seq), int(rnd), event, int(a), int(b), text])
        assert chain.hexed(value) == got, line
    assert lines[-1] == "# end table=t1 last=10 chain=%s entries=10" % chain.hexed(log.chain)
    tail = []
    assert j.export(9, tail.append, "t1") == 2 and tail[1:-1] == lines[9:11]
    assert tail[0].endswith("prev=" + lines[8].split()[5])  # the chain value of entry #8
    nothing = []
    assert j.export(40, nothing.append, "t1") == 0  # past the end: told where the journal ends
    assert nothing == ["# tablectl journal export table=t1 first=11 prev=" + chain.hexed(log.chain),
                       "# end table=t1 last=10 chain=%s entries=0" % chain.hexed(log.chain)]


def tamper(change, which):
    """Change the entries of the `which`-th frame holding some (change(list of entries), in place), write the
    payload back the same length with its CRC made right, and boot: the problem it finds."""
    import json
    d = played()
    frames = [f for f in log_frames(d) if f[5] and f[5].get("j")]

    def edit(raw):
        obj = json.loads(raw)
        change(obj["j"])
        new = json.dumps(obj).encode()
        assert len(new) <= len(raw), (new, raw)
        return new + b" " * (len(raw) - len(new))  # JSON takes the padding as white space

    rewrite_payload(d, frames[which][0], frames[which][1], edit)
    return Log(d).problem


def test_an_entry_edited_with_its_crc_made_right_is_a_tilt_naming_where():
    def more(entries):
        entries[0][3] += 1  # #4's a (a seat, an amount) one more
    problem = tamper(more, 2)  # the frame of #4 and #5: the next frame's chain value no longer follows
    assert "journal chain broken: entries #4-#5 were edited" in problem, problem


def test_entries_reordered_removed_or_renumbered_are_a_tilt_naming_where():
    def swap(entries):
        entries.reverse()
    problem = tamper(swap, 0)  # #2 before #1
    assert "journal chain broken at entry #1: entries removed, inserted or reordered" in problem, problem

    def remove(entries):
        del entries[-1]
    problem = tamper(remove, 2)  # #5 gone
    assert "journal chain broken: entries #4-#5" in problem, problem

    def renumber(entries):
        for e in entries:
            e[0] -= 1  # #3 taken out and the rest numbered down to hide it
    assert "journal chain broken at entry #4: entries removed" in tamper(renumber, 2)


def test_a_frame_whose_second_entry_is_renumbered_names_that_entry():
    # cosmic-ray: the message counted back from the frame's first entry (`jseq + 1 + k` -> `- k`): #4 named
    def second(entries):
        entries[1][0] += 1  # #5, the frame's second entry, numbered #6: the frame's first one is in its place
    assert "journal chain broken at entry #5: entries removed" in tamper(second, 2)


def test_a_chain_value_changed_right_after_a_checkpoint_names_the_entry_it_stands_before():
    # cosmic-ray: a frame of no entries (a checkpoint's end) counted the next entry one off (`jseq + 1` -> `+ 2`
    # or `+ 0`) and the message named a range that is not there (#12-#10); no entry was edited: a chain value was
    d = played()
    log, j = journal_of(d)
    log.checkpoint()  # its end frame holds the chain value and no entry
    j.append("after", 10, text="the frame whose chain value is changed")
    j.append("next", 11)
    frames = [f for f in log_frames(d) if f[5] and f[5].get("j")]
    block, off, flags, seq, n, obj = frames[-2]
    assert obj["j"][0][0] == 11

    def other_value(raw):
        c = obj["c"].encode()
        return raw.replace(c, (b"0" if c[:1] != b"0" else b"1") + c[1:])
    rewrite_payload(d, block, off, other_value)
    problem = Log(d).problem
    assert problem.startswith("journal chain broken before entry #11: a frame's chain value"), problem


def test_the_newest_frame_has_nothing_after_it_to_betray_an_edit_the_export_pins_it():
    """An edit of the very last frame leaves no later chain value on the table to disagree: what pins it is the
    chain value a host already exported for it (tools/boardops/journalcheck compares the next export with it)."""
    def more(entries):
        entries[0][3] += 1
    assert tamper(more, 6) == ""


def test_a_journal_left_alone_never_tilts_whatever_the_ring_erased():
    d = RamBlockDev(block_size=1024, blocks=5)
    log, j = journal_of(d)
    for i in range(300):
        j.append("e", i, text="x" * (i % 20))
        if i % 50 == 49:
            again, _ = journal_of(d)
            assert again.problem == "" and again.chain == log.chain and again.jseq == i + 1
