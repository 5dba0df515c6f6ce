"""Each record's byte bound (tablectl.bound) beside the largest the real controller writes, every game at its
defaults (seven seats, history_len 20), on the sim board's flash (4 KB blocks: a frame holds 3,804 bytes of JSON).

    python -m bench bounds

A progressive is driven as host_tests/controllers/test_record_bounds.py drives it: every seat hitting every round
with its cards, in the classes of the longest names, until the history and the last 25 hits are full; a dice or
fan-tan table plays every other round void. Bytes of JSON, the same on every run and machine (CPython). A
checkpoint: flash bytes of its frames (256-byte pages) as Log._fits counts them, against tablectl.bound.checkpoint
(which counts record 'shift' and an acknowledgement, neither written here); then a linked table's outbox cap.
"""
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "boards" / "sim"))  # the board the tables play on

from harness.largest import dice_rounds, frames, largest  # noqa: E402  (host_tests/, on the .venv's path)
from harness.tables import cleanup, new_app  # noqa: E402
from tablectl import bound  # noqa: E402
from tablectl.config import GAMES, PROGRESSIVE, validate  # noqa: E402
from tablectl.linkaddr import round_bytes  # noqa: E402
from tablectl.storage.frame import FHDR, UNIT  # noqa: E402

ROUNDS = 30  # more than history_len 20 and than the 25 last hits at one a seat


def real(game):
    most = {}
    steps = {}
    if game in PROGRESSIVE:
        # amounts small enough that 210 awards leave the lifetime meters below 2**30 cents
        cfg = {"hit_cards_cents": 0, "supervisor": "none", "seed_cents": 100000}
        if game == "caribbean_stud":
            cfg["fixed_straight_flush"] = 200000
        app = new_app(game, **cfg)
        frames(app, steps)
        largest(app, game, app.config["seats"], ROUNDS, most)
    else:
        app = new_app(game, language="en")
        frames(app, steps)
        dice_rounds(app, game, ROUNDS, most)
    values = app.config.values
    # a checkpoint of the records as they are now, each in a frame of its own, as Log._fits counts it (no shift
    # closed: record 'shift' is not there; its bound is counted)
    log = app.log
    most["checkpoint"] = UNIT + sum(log.align(FHDR + len(json.dumps({"r": {name: log.get(name)}})) + 4)
                                    for name in log.names())
    cleanup()
    limit = bound.steps(values, {})
    del limit["shift_close"]  # not played here
    # a step's frame: the largest a step of a round wrote, against the largest of the steps' bounds
    most["step"] = max(steps.values())
    return most, {"round": bound.round_bytes(values), "config": bound.config_bytes(values, {}),
                  "shift": bound.shift_bytes(values), "step": max(limit.values()),
                  "checkpoint": bound.checkpoint(values, {}, 256, 0)}


def main():
    print("record and step-frame bytes (JSON): largest written / bound (ratio), every game at its defaults, no pool "
          "change pending")
    for game in GAMES:
        if game == "fortune3":
            continue  # its round record has Caribbean Stud's shape: its hits' cards are the round's community's
        most, limit = real(game)
        print("  %-16s" % game + "  ".join("%s %d / %d (%.2f)" % (name, most[name], limit[name],
                                                                   limit[name] / most[name])
                                             for name in ("round", "config", "step", "checkpoint") if name in most))
    print("a linked table's outbox cap on 4 KB blocks (tablectl.bound.outbox: a frame less the largest step), "
          "against one round's messages (seven seats / one)")
    link = "mqtt://t01:secret@127.0.0.1:1883/pit1"
    for game in PROGRESSIVE:
        caps = []
        for seats in (7, 1):
            values = validate({"game": game, "seats": seats, "link": link})
            caps.append("%d / %d" % (bound.outbox(values, {}, 3840),
                                     round_bytes(seats, bound.classes(game)[1] - 2)))
        print("  %-16s%s" % (game, "    ".join(caps)))


if __name__ == "__main__":
    main()
