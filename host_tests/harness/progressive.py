"""A progressive table for a test (on harness.tables): seats sensed, bets locked, hits typed on the keypad
with their cards, the pool's balance; a linked table's server answers handed to it (both runtimes)."""
import json

from harness.tables import drive, new_app


def seats(app, *on):
    for s in range(1, 8):
        app.board.set_seat(s, s in on)
    app.tick()


def locked(game, *on, **cfg):
    """A new table of `game` with the seats `on` sensed and locked (the first card may come)."""
    app = new_app(game, **cfg)
    seats(app, *on)
    drive(app, "LOCK")
    return app


def keys(app, text):
    """Type a string of keys: digits, H for HIT, E for ENTER, X for CLEAR."""
    return [app.controller.handle({"E": "ENTER", "H": "HIT", "X": "CLEAR"}.get(ch, ch)) for ch in text]


def hand(seat, n):
    """The keypad digits of a Caribbean Stud hand of keypad class n (1 flush .. 5 royal) for `seat`, in
    the seat's suit (seat 1 spades, 2 hearts, 3 clubs, 4 diamonds, 5 spades ...): the hands of two seats
    of different suits never share a card, nor do two classes (their ranks differ but for 4 and 5)."""
    s = (seat - 1) % 4 + 1
    o = s % 4 + 1
    ranks = {1: ((2, s), (4, s), (6, s), (8, s), (10, s)), 2: ((3, s), (3, o), (3, o % 4 + 1), (5, s), (5, o)),
             3: ((7, 1), (7, 2), (7, 3), (7, 4), (9, s)), 4: ((9, s), (10, s), (11, s), (12, s), (13, s)),
             5: ((14, s), (13, s), (12, s), (11, s), (10, s))}[n]
    return "".join("%02d%d" % rs for rs in ranks)


def hit(app, seat, n):
    """HIT seat, class n, its cards (hand()), ENTER (a royal then the supervisor's key): all accepted?"""
    ok = keys(app, "H%dE%dE%sE" % (seat, n, hand(seat, n)))
    if app.controller.step == "super":
        app.board.set_service_key(True)
        ok += keys(app, "E")
        app.board.set_service_key(False)
    return all(ok) and app.controller.step == ""


def balanced(pool):
    return pool.pool + pool.reserve + pool.paid == pool.seeded + pool.contributed


def answer(c, body):
    """The link server's answer to table t01 of pit1, handed to the controller as umqtt hands it."""
    c.on_message(b"tablectl/pit1/table/t01/answer", json.dumps(body).encode())
