"""Journal entries and steps of play as the flash log's tests commit them (both runtimes' harness)."""


def entry(seq, event="e"):
    """A journal entry as the log's tests commit it: seq, time, event and empty fields."""
    return [seq, 1, event, 0, 0, ""]


def steps(log, n, start=0):
    """n steps of play as a controller commits them: the round record patched and one journal entry, one frame."""
    for i in range(start, start + n):
        with log.atomic():
            log.commit(patch={"round": {"i": i}})
            log.commit(entries=[entry(log.jseq + 1)])
