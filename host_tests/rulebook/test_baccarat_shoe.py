"""Baccarat shoe procedures: start burn (BAC-2.1), per-coup burn (BAC-8), cut card and last coup
(BAC-3.1), running out of cards, seeded replay."""
import pytest
from hypothesis import given, settings, strategies as st

from rulebook.baccarat import game as baccarat
from rulebook.baccarat.shoe import deal_round, new_shoe, play_shoe, start_shoe
from rulebook.cards import Shoe
from rulebook.errors import RuleError, ShoeExhausted
from rulebook.options import resolve_options

NATURAL = ["9s", "Kd", "Th", "2c"]  # player natural 9: a coup of exactly four cards
FILLER = ["2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h", "Ah", "2d", "3d", "4d", "5d"]


def opts(**given):
    return resolve_options(baccarat.OPTIONS, given)


def shoe_of(cards, **given):
    return Shoe(decks=8, cards=cards, cut_from_end=opts(**given)["cut_from_end"])


def test_a_shoe_holds_six_to_twelve_decks_of_52_BAC_1_1():
    for decks in range(6, 13):
        cards = sorted(str(c) for c in new_shoe(opts(decks=decks), seed=decks).cards)
        assert len(cards) == 52 * decks and len(set(cards)) == 52
        assert all(cards.count(c) == decks for c in set(cards))
    for decks in (5, 13):
        with pytest.raises(RuleError, match="decks"):
            opts(decks=decks)


@pytest.mark.parametrize("decks", [6, 8, 12])
def test_burn_as_many_as_decks_BAC_2_1_1(decks):
    cards = FILLER + NATURAL * 5
    shoe = shoe_of(cards)
    burned = start_shoe(shoe, opts(burn="decks", decks=decks))
    assert [str(c) for c in burned] == cards[:decks]


@pytest.mark.parametrize("fixed", range(1, 9))
def test_burn_fixed_count_BAC_2_1_3(fixed):
    cards = FILLER + NATURAL * 5
    burned = start_shoe(shoe_of(cards), opts(burn="fixed", burn_fixed=fixed))
    assert [str(c) for c in burned] == cards[:fixed]


@pytest.mark.parametrize("first, count", [("As", 1), ("2s", 2), ("5c", 5), ("9d", 9), ("Th", 10),
                                          ("Js", 10), ("Qs", 10), ("Kd", 10)])
def test_burn_first_card_value_picture_burns_ten_BAC_2_1_2(first, count):
    cards = [first] + FILLER + NATURAL * 5
    burned = start_shoe(shoe_of(cards), opts(burn="first_card"))
    assert [str(c) for c in burned] == cards[:count]
    # the other reading: the first card is turned, then that many more are burnt
    burned = start_shoe(shoe_of(cards), opts(burn="first_card", burn_includes_first=False))
    assert [str(c) for c in burned] == cards[:count + 1]


@pytest.mark.parametrize("first, count", [("Th", 10), ("Js", 11), ("Qs", 12), ("Kd", 13), ("7s", 7)])
def test_burn_first_card_by_rank_option_BAC_2_1_2(first, count):
    cards = [first] + FILLER + NATURAL * 5
    burned = start_shoe(shoe_of(cards), opts(burn="first_card", burn_picture="rank"))
    assert len(burned) == count


def test_burn_before_every_coup_BAC_8():
    cards = ["Ac"] + ["Kc", "Qc"] + NATURAL + ["Jc", "Tc"] + NATURAL
    shoe = shoe_of(cards, cut_from_end=12)
    o = opts(burn="fixed", burn_fixed=1, burn_each_round=2)
    start_shoe(shoe, o)
    first, second = deal_round(shoe, o), deal_round(shoe, o)
    assert [str(c) for c in first.burned] == ["Kc", "Qc"]
    assert [str(c) for c in second.burned] == ["Jc", "Tc"]
    assert [str(c) for c in second.cards] == NATURAL


def shoe_with_tail(coups_before_cut, offset=0):
    """One burn card, `coups_before_cut` four-card coups, `offset` dead cards, then 12 cards after the cut."""
    return ["Ac"] + NATURAL * coups_before_cut + FILLER[:offset] + NATURAL * 3


def test_the_coup_reaching_the_cut_card_is_the_last_BAC_3_1():
    played = play_shoe(opts(burn="fixed", burn_fixed=1, cut_from_end=12), cards=shoe_with_tail(5))
    assert len(played.rounds) == 6 and played.cards_left == 8


def test_one_more_coup_after_the_cut_card_BAC_3_1():
    o = opts(burn="fixed", burn_fixed=1, cut_from_end=12, extra_round_after_cut=True)
    played = play_shoe(o, cards=shoe_with_tail(5))
    assert len(played.rounds) == 7 and played.cards_left == 4


def test_cut_card_met_in_the_middle_of_a_coup_BAC_3_1():
    # after 5 coups two cards remain before the cut: the 6th coup crosses it and is the last
    cards = ["Ac"] + NATURAL * 5 + ["9s", "Kd"] + NATURAL * 3
    played = play_shoe(opts(burn="fixed", burn_fixed=1, cut_from_end=12), cards=cards)
    assert len(played.rounds) == 6 and played.cards_left == 10


def test_shoe_running_out_mid_coup_raises_ShoeExhausted():
    shoe = Shoe(decks=8, cards="2s,3h,Kc,Kd,5s")  # banker 3 must draw on a 5 (BAC-9.3.2): no 6th card
    with pytest.raises(ShoeExhausted, match="empty after 5 cards"):
        deal_round(shoe, opts())
    # a whole shoe given as a sequence too short for its first coup
    # (a first card 9 burns nine, BAC-2.1.2, leaving five for a coup that needs six)
    o = opts(burn="first_card", cut_from_end=12)
    with pytest.raises(ShoeExhausted, match="empty after 14 cards"):
        play_shoe(o, cards=["9c"] + FILLER[:8] + ["2s", "3h", "Kc", "Kd", "5s"])
    # one more coup after the cut (BAC-3.1) with 8 cards burnt first (BAC-8) cannot fit behind a cut
    # card 12 from the end: refused before a card is dealt
    o = opts(burn="fixed", burn_fixed=1, cut_from_end=12, extra_round_after_cut=True, burn_each_round=8)
    with pytest.raises(RuleError, match="needs at least 28"):
        play_shoe(o, cards=["Ac"] + NATURAL * 3)
    assert issubclass(ShoeExhausted, RuleError)


def test_a_shoe_needs_a_seed_or_cards():
    with pytest.raises(RuleError, match="seed or an explicit card sequence"):
        new_shoe(opts())


def accounted(o, seed):
    shoe = new_shoe(o, seed=seed)
    played = play_shoe(o, shoe=shoe)
    dealt = list(played.burned)
    for coup in played.rounds:
        dealt += list(coup.burned) + list(coup.cards)
    return shoe, played, dealt


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2 ** 64 - 1), decks=st.integers(6, 12), burn=st.sampled_from(["decks", "first_card", "fixed"]),
       cut=st.integers(12, 40), extra=st.booleans(), each=st.integers(0, 2))
def test_seeded_shoe_deals_every_card_once_in_order_BAC_2_1_and_3_1(seed, decks, burn, cut, extra, each):
    o = opts(decks=decks, burn=burn, cut_from_end=cut, extra_round_after_cut=extra, burn_each_round=each)
    if cut < (6 + each) * (2 if extra else 1):  # the shoe could run out mid-coup: refused up front
        with pytest.raises(RuleError, match="too close"):
            accounted(o, seed)
        return
    shoe, played, dealt = accounted(o, seed)
    assert len(shoe.cards) == 52 * decks
    assert dealt == shoe.cards[:len(dealt)] and len(dealt) + played.cards_left == 52 * decks
    # the coup that crosses the cut card is the last, or the one after it (BAC-3.1)
    position, crossed = len(played.burned), None
    for i, coup in enumerate(played.rounds):
        position += len(coup.burned) + len(coup.cards)
        if crossed is None and position > 52 * decks - cut:
            crossed = i
    assert crossed is not None and len(played.rounds) == crossed + (2 if extra else 1)
    # the same seed replays the same shoe
    assert accounted(o, seed)[2] == dealt


def test_seeded_shoe_default_8_decks():
    shoe, played, dealt = accounted(opts(), 2026)
    assert len(shoe.cards) == 416 and 8 <= played.cards_left < 14
    assert len(played.rounds) > 60
    assert all(baccarat.resolve(coup) == baccarat.resolve(baccarat.outcome_text(coup.cards))
               for coup in played.rounds[:10])
