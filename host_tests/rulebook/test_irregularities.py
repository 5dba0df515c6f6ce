"""Irregularities of the card games against the regulations' text: the shared Ruling type, Caribbean
Stud CSP-11.1-11.4 and Fortune 3 F3-17 (baccarat's BAC-10 is in test_baccarat_procedures)."""
import pytest

from rulebook import fortune3, irregularities
from rulebook.baccarat import game as baccarat
from rulebook.caribbean import game as caribbean_stud
from rulebook.errors import RuleError
from rulebook.irregularities import Ruling

# (void, bets returned, progressive carried, dead cards) read off 61/2004 Art. 11 directly.
VOID_CARRIED = (True, True, True, False)
STANDS = (False, False, False, False)


def effect(ruling):
    return (ruling.void, ruling.bets_returnable, ruling.progressive_carried, ruling.dead_cards)


def test_one_ruling_type_for_every_game():
    assert fortune3.Ruling is Ruling and caribbean_stud.Ruling is Ruling and baccarat.Ruling is Ruling
    for game, kinds in ((fortune3, fortune3.IRREGULARITIES), (caribbean_stud, caribbean_stud.IRREGULARITIES),
                        (baccarat, baccarat.IRREGULARITIES)):
        for kind in kinds:
            assert type(game.irregularity(kind)) is Ruling


# --- Caribbean Stud, CSP-11 -------------------------------------------------------------------------

def test_wrong_dealing_method_voids_the_round_progressive_carried_CSP_11_1():
    ruling = caribbean_stud.irregularity("wrong_dealing_method")
    assert effect(ruling) == VOID_CARRIED and ruling.article == "CSP-11.1"
    assert "start again" in ruling.note  # 此時開始重新投注及派牌


def test_wrong_number_of_cards_voids_the_round_progressive_carried_CSP_11_1():
    ruling = caribbean_stud.irregularity("wrong_card_count")
    assert effect(ruling) == VOID_CARRIED and ruling.article == "CSP-11.1"


@pytest.mark.parametrize("kind", ["player_card_exposed", "dealer_card_exposed"])
@pytest.mark.parametrize("exposed", [2, 3, 5, 10, 40])
def test_two_exposed_cards_void_the_round_CSP_11_1(kind, exposed):
    # "兩張或以上的牌被錯誤陽開": two or more cards of the round, whoever holds them
    ruling = caribbean_stud.irregularity(kind, exposed)
    assert effect(ruling) == VOID_CARRIED and ruling.article == "CSP-11.1"


def test_one_exposed_player_card_keeps_the_round_CSP_11_2():
    ruling = caribbean_stud.irregularity("player_card_exposed", 1)
    assert effect(ruling) == STANDS and ruling.article == "CSP-11.2"
    assert caribbean_stud.irregularity("player_card_exposed") == ruling  # one card is the default


def test_one_exposed_dealer_card_stays_up_others_face_down_CSP_11_2():
    ruling = caribbean_stud.irregularity("dealer_card_exposed", 1)
    assert effect(ruling) == STANDS and ruling.article == "CSP-11.2"
    # 讓其繼續陽開而其餘派出的牌，牌面全須向下
    assert "stays face up" in ruling.note and "face down" in ruling.note and "fifth" in ruling.note


def test_cards_to_a_box_without_bet_void_that_box_only_CSP_11_3():
    ruling = caribbean_stud.irregularity("card_to_empty_box")
    assert effect(ruling) == (False, False, False, True) and ruling.article == "CSP-11.3"


def test_shuffler_failure_voids_the_round_progressive_carried_CSP_11_4():
    ruling = caribbean_stud.irregularity("shuffler_fault")
    assert effect(ruling) == VOID_CARRIED and ruling.article == "CSP-11.4"
    assert "dealing box" in ruling.note  # 須另更換洗牌機或改用派牌盒派牌


def test_every_void_csp_ruling_carries_the_progressive_CSP_11_1_CSP_11_4():
    # In Art. 11 every void round carries the progressive bets ("唯累進大獎的投注自動轉到下一局").
    rulings = [caribbean_stud.irregularity(k, n) for k in caribbean_stud.IRREGULARITIES for n in (1, 2)]
    assert any(r.void for r in rulings)
    assert all(r.progressive_carried == r.void == r.bets_returnable for r in rulings)


# 41: more cards than a round deals, eight boxes of five cards (CSP-2.1)
@pytest.mark.parametrize("exposed", [0, -1, 41, 1.0, True, "2", None])
def test_bad_exposed_count_refused_CSP_2_1_CSP_11(exposed):
    with pytest.raises(RuleError, match="exposed"):
        caribbean_stud.irregularity("dealer_card_exposed", exposed)


@pytest.mark.parametrize("game", [caribbean_stud, fortune3, baccarat])
@pytest.mark.parametrize("kind", ["spilled drink", "", None, 3, "VOID"])
def test_unknown_irregularity_refused(game, kind):
    with pytest.raises(RuleError, match=r"unknown irregularity .*\(known: "):
        game.irregularity(kind)


# --- the shared helpers ------------------------------------------------------------------------------

def test_rule_passes_details_only_to_rulings_that_depend_on_them():
    fixed = Ruling(True, True, False, False, "X-1", "fixed")
    table = {"fixed": fixed, "counted": lambda n=0: Ruling(n > 1, False, False, False, "X-2", "n=%d" % n)}
    assert irregularities.rule(table, "fixed", n=5) is fixed
    assert irregularities.rule(table, "counted", n=2).void is True
    assert irregularities.rule(table, "counted", n=1).void is False
    with pytest.raises(RuleError, match="known: fixed, counted"):
        irregularities.rule(table, "other")


def test_count_and_flag_checks():
    assert irregularities.count("n", 3, 1, 3, "a count") == 3
    for bad in (0, 4, True, 2.0):
        with pytest.raises(RuleError, match="n is a count: 1 to 3"):
            irregularities.count("n", bad, 1, 3, "a count")
    assert irregularities.flag("f", False, "a fact") is False
    for bad in (0, 1, "true", None):
        with pytest.raises(RuleError, match="true or false"):
            irregularities.flag("f", bad, "a fact")
