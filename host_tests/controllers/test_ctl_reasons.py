"""The controllers' reason(): what the panel greys and what handle() refuses with, from one answer. The service
key on refuses the key that starts a round (progressive LOCK, fan-tan SHAKE); an electric shaker's cover
unclipped refuses SHAKE (SB-2.1); the sim board's status line to the page carries the same words for the key it
greys, and a refusal changes nothing (CPython and the unix port)."""
# mp-heap: 272K
import json

from harness.tables import cleanup, drive, new_app, state_of
from hostlink import HostLink  # boards/sim: the page's view of the board (its keys greyed by reason())


class Page:
    """The simulator's end of the sim board's host link: every line the board sends."""

    def __init__(self):
        self.lines = []

    def write(self, data):
        self.lines.append(bytes(data).decode() if not isinstance(data, str) else data)
        return len(data)

    def refused(self, app):
        """{role: why} of the status line the board sends now (the link writes a line in pieces)."""
        HostLink(app.board, self).status()
        for data in reversed("".join(self.lines).split("\n")):
            if not data:
                continue
            msg = json.loads(data)
            if msg["t"] == "status":
                return msg["refused"]
        raise AssertionError("no status line")


def refused_with(app, key, why):
    """`key` is refused with `why` by reason(), by handle() (changing nothing) and greyed on the page."""
    c = app.controller
    assert c.reason(key) == why, c.reason(key)
    assert Page().refused(app).get(key) == why
    before = state_of(app)
    assert drive(app, key) == [False] and c.message == why and state_of(app) == before


def refused_while_the_key_is_on(app, key, then):
    """`key` starts the round, but not while the technician's key is on; with the key off it does (`then`)."""
    assert app.controller.reason(key) == ""
    app.board.set_service_key(True)
    refused_with(app, key, "SERVICE KEY ON")
    app.board.set_service_key(False)
    assert drive(app, key) == [True] and app.controller.state == then
    cleanup()


def test_progressive_lock_is_refused_with_the_service_key_on():
    app = new_app("caribbean_stud")
    for s in (2, 5):
        app.board.set_seat(s, True)
    app.tick()
    refused_while_the_key_is_on(app, "LOCK", "locked")


def test_fantan_shake_is_refused_with_the_service_key_on():
    refused_while_the_key_is_on(new_app("fantan"), "SHAKE", "betting")


def test_dice_shake_with_the_cover_unclipped_names_the_cover_and_the_key_is_greyed_SB_2_1():
    app = new_app("sicbo")
    assert app.controller.reason("SHAKE") == "" and "SHAKE" not in Page().refused(app)
    app.board.set_cover(False)
    refused_with(app, "SHAKE", "COVER UNCLIPPED")
    app.board.set_cover(True)
    assert drive(app, "SHAKE") == [True] and app.controller.state == "shaking"
    cleanup()
