"""Property tests (hypothesis) of a round's hits over card sets: one deck, so a card is dealt once a round
(CSP-1, F3-2.1): a hit is accepted exactly when its cards repeat no card of its own hand or of another
seat's, Fortune 3's community cards are the round's (F3-11.3), and the class is the cards' (CSP-10.2,
F3-15.1); a refusal names the card and the seat, and changes nothing."""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.tables import cleanup, new_app, state_of

from rulebook import fortune3
from rulebook.poker import poker5
from rulebook.cards import Card
from tablectl.rules import cards as _cards

# a few ranks of two suits: flushes and straight flushes often, shared cards between seats often
CARD = st.tuples(st.integers(4, 12), st.integers(0, 1)).map(lambda rs: rs[0] << 2 | rs[1])
HAND = st.lists(CARD, min_size=5, max_size=5)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def rulebook_class(game, five):
    cards = [Card((c >> 2) + 2, "shcd"[c & 3]) for c in five]
    if game == "fortune3":
        return fortune3.progressive_class(cards[:3], cards[3:])
    name = poker5.CATEGORY_IDS[poker5.evaluate(cards)[0]]
    return name if name in ("flush", "full_house", "four_of_a_kind", "straight_flush", "royal_flush") else None


def expected(game, accepted, seat, five):
    """What the table must answer to `five` on `seat`, given the hits accepted so far {seat: cards}."""
    own = 3 if game == "fortune3" else 5
    if game == "fortune3" and accepted:
        shared = list(accepted.values())[0][3:]
        if sorted(five[3:]) != sorted(shared):
            return "COMMUNITY %s %s" % (_cards.name(shared[0]), _cards.name(shared[1]))
    for i in range(1, 5):
        if five[i] in five[:i]:
            return "CARD %s TWICE" % _cards.name(five[i])
    for other in sorted(accepted):
        for c in five[:own]:
            if c in accepted[other]:
                return "CARD %s SEAT %d" % (_cards.name(c), other)
    return "" if rulebook_class(game, five) else "NO WINNING HAND"


def run(game, seats, hands_):
    app = new_app(game, supervisor="none")
    try:
        for s in seats:
            app.board.set_seat(s, True)
        app.tick()
        assert app.controller.handle("LOCK")
        c = app.controller
        accepted = {}
        for seat, five in zip(seats, hands_):
            want = expected(game, accepted, seat, five)
            before = state_of(app)
            try:
                c.hit(seat, None, five)
                got = ""
            except ValueError as e:
                got = str(e)
            assert got == want, (seat, [_cards.name(x) for x in five], accepted)
            if got:
                assert state_of(app) == before
            else:
                accepted[seat] = five
                assert c.hits[-1][0] == seat or seat in [h[0] for h in c.hits]
        # the round pays what was accepted, each seat its own cards' class
        assert sorted(h[0] for h in c.hits) == sorted(accepted)
        for h in c.hits:
            assert h[1] == rulebook_class(game, h[2]) and h[2] == accepted[h[0]]
    finally:
        cleanup()


@SETTINGS
@given(st.lists(st.integers(1, 7), min_size=1, max_size=7, unique=True), st.lists(HAND, min_size=7, max_size=7))
def test_caribbean_stud_cards_across_seats(seats, hands_):
    run("caribbean_stud", seats, hands_)


@SETTINGS
@given(st.lists(st.integers(1, 7), min_size=1, max_size=7, unique=True), st.lists(HAND, min_size=7, max_size=7),
       st.booleans())
def test_fortune3_cards_across_seats_and_one_community(seats, hands_, same_community):
    if same_community:  # most hands then take the round's community cards: the player's three decide
        hands_ = [h[:3] + hands_[0][3:] for h in hands_]
    run("fortune3", seats, hands_)
