"""Baccarat procedures against 55/2004: misdeals (BAC-10) and the void coup, demonstration coups
(BAC-2.2), the automatic shuffler-dealer (BAC-2.3, BAC-7.2), and their options."""
import collections
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from rulebook.baccarat import game as baccarat
from rulebook.baccarat import shoe as baccarat_shoe
from rulebook.cards import Shoe
from rulebook.errors import RuleError
from rulebook.options import resolve_options

BANKER_MODES = ("commission", "super6", "ez")


def opts(**given):
    return resolve_options(baccarat.OPTIONS, given)


def dealt(coup):
    return list(coup.burned) + list(coup.cards)


# --- BAC-10 misdeal ----------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["dealing_error", "wrong_draw"])
def test_correctable_error_is_corrected_and_the_coup_stands_BAC_10(kind):
    ruling = baccarat.irregularity(kind, correctable=True)
    assert (ruling.void, ruling.bets_returnable, ruling.dead_cards) == (False, False, False)
    assert ruling.article == "BAC-10" and "corrected at once" in ruling.note
    assert baccarat.irregularity(kind) == ruling  # 應即時更正: correction first, by default


@pytest.mark.parametrize("kind", ["dealing_error", "wrong_draw"])
def test_uncorrectable_error_cancels_the_coup_BAC_10(kind):
    ruling = baccarat.irregularity(kind, correctable=False)  # 至無法更正時，該局取消作廢
    assert (ruling.void, ruling.bets_returnable, ruling.progressive_carried) == (True, True, False)
    assert ruling.article == "BAC-10"


@pytest.mark.parametrize("correctable", [None, 0, 1, "no"])
def test_correctable_must_be_true_or_false_BAC_10(correctable):
    with pytest.raises(RuleError, match="correctable"):
        baccarat.irregularity("wrong_draw", correctable)


@pytest.mark.parametrize("mode", BANKER_MODES)
@pytest.mark.parametrize("text", ["void", "VOID", " Void "])
def test_void_coup_nets_zero_for_every_bet_BAC_10(mode, text):
    o = opts(banker_mode=mode)
    outcome = baccarat.parse_outcome(text, o)
    nets = baccarat.resolve(outcome, o)
    assert set(nets) == set(baccarat.BET_IDS) and all(n == 0 for n in nets.values())
    assert baccarat.resolve(text, o) == nets  # unparsed text too
    assert baccarat.outcome_text(outcome) == "void"
    assert set(baccarat.jackpot_classes(outcome, o).values()) == {None}


def test_void_is_not_a_card_and_cards_still_settle_BAC_10():
    with pytest.raises(RuleError):
        baccarat.parse_outcome("void,9s")
    # a played coup still settles as before: player natural 9 against banker 2 wins
    assert baccarat.resolve("9s,Kd,Th,2c")["player"] == 1


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "rulebook", *args], capture_output=True, text=True, timeout=60)


def test_cli_resolves_a_void_coup_and_refuses_bad_options_BAC_10_BAC_2_2():
    proc = run_cli("resolve", "baccarat", "void")
    assert proc.returncode == 0 and proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines[0] == "outcome void"
    assert {line.split()[0]: line.split()[1] for line in lines[1:]} == {bet: "0" for bet in baccarat.BET_IDS}
    proc = run_cli("resolve", "baccarat", "void", "--set", "demo_rounds=4")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "demo_rounds" in proc.stderr and "0 to 3" in proc.stderr
    proc = run_cli("options", "baccarat")
    assert proc.returncode == 0
    assert "demo_rounds = 0" in proc.stdout and "BAC-2.2" in proc.stdout
    assert "shuffler = none" in proc.stdout and "BAC-2.3" in proc.stdout


# --- options -----------------------------------------------------------------------------------------

def test_procedure_defaults_change_nothing_BAC_2_2_BAC_2_3():
    o = opts()
    assert o["demo_rounds"] == 0 and o["shuffler"] == "none"


@pytest.mark.parametrize("given", [{"demo_rounds": -1}, {"demo_rounds": 4}, {"demo_rounds": "x"},
                                   {"demo_rounds": True}, {"demo_rounds": 1.0}, {"shuffler": "auto"},
                                   {"shuffler": True}, {"shuffler": "Automatic"}])
def test_bad_procedure_options_refused_BAC_2_2_BAC_2_3(given):
    with pytest.raises(RuleError, match="option %s" % next(iter(given))):
        opts(**given)


# --- BAC-2.2 demonstration coups ---------------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2 ** 32), demo=st.integers(1, 3), decks=st.sampled_from([6, 8]),
       burn=st.sampled_from(["decks", "first_card", "fixed"]), per_coup=st.integers(0, 2))
def test_demo_coups_come_after_the_burn_and_before_betting_BAC_2_2(seed, demo, decks, burn, per_coup):
    base = dict(decks=decks, burn=burn, burn_each_round=per_coup)
    plain = baccarat.play_shoe(opts(**base), seed=seed)
    shown = baccarat.play_shoe(opts(demo_rounds=demo, **base), seed=seed)
    assert shown.burned == plain.burned  # BAC-2.1 first, unchanged
    assert len(shown.demo) == demo and plain.demo == ()
    # the demonstration coups are what the first coups would have been: they take the shoe's cards
    assert list(shown.demo) == plain.rounds[:demo]
    assert shown.rounds[0] == plain.rounds[demo]
    used = len(shown.burned) + sum(len(dealt(c)) for c in list(shown.demo) + shown.rounds)
    assert used + shown.cards_left == 52 * decks
    assert shown.cards_left == plain.cards_left  # the same cut card ends both shoes


def test_demo_coups_settle_no_bet_BAC_2_2(monkeypatch):
    o = opts(demo_rounds=3)
    settled = []
    real = baccarat.settle
    monkeypatch.setattr(baccarat, "settle", lambda coup, op: settled.append(coup) or real(coup, op))
    played = []
    real_play = baccarat.play_shoe
    monkeypatch.setattr(baccarat, "play_shoe", lambda *a, **k: played.append(real_play(*a, **k)) or played[-1])
    rounds = 200
    baccarat.simulate(rounds, 7, o)
    shown = [c for p in played for c in p.demo]
    betting = [c for p in played for c in p.rounds][:rounds]
    assert len(shown) == 3 * len(played) and shown
    assert set(settled) <= set(betting)  # simulate settles each distinct outcome once
    assert not set(shown) & set(settled)


def test_demo_coups_reaching_the_cut_card_refused_BAC_2_2():
    natural = ["9s", "Kd", "Th", "2c"]  # a four-card coup
    o = opts(burn="fixed", burn_fixed=1, cut_from_end=12, demo_rounds=3)
    with pytest.raises(RuleError, match="demonstration"):
        baccarat.play_shoe(o, cards=["Ah"] + natural * 5)  # the cut card sits after 9 cards


# --- BAC-2.3, BAC-7.2 automatic shuffler-dealer -------------------------------------------------------

class RecordingShoe(Shoe):
    """A Shoe that remembers every instance and how full it was when its first card was drawn."""
    made = []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.full_at_first_draw = None
        RecordingShoe.made.append(self)

    def draw(self):
        if self.pos == 0:
            self.full_at_first_draw = self.remaining
        return super().draw()


@pytest.mark.parametrize("decks, demo, per_coup", [(6, 0, 0), (8, 2, 0), (12, 3, 1)])
def test_shuffler_deals_every_coup_from_a_fresh_full_shoe_BAC_2_3_BAC_7_2(monkeypatch, decks, demo, per_coup):
    RecordingShoe.made = []
    monkeypatch.setattr(baccarat_shoe, "Shoe", RecordingShoe)
    o = opts(decks=decks, shuffler="automatic", demo_rounds=demo, burn_each_round=per_coup)
    play = baccarat.play_shoe(o, seed=11, coups=20)
    coups = list(play.demo) + play.rounds
    assert len(play.demo) == demo and len(play.rounds) == 20
    assert len(RecordingShoe.made) == len(coups)  # one shuffle per coup
    for shoe, coup in zip(RecordingShoe.made, coups):
        assert shoe.full_at_first_draw == 52 * decks and shoe.cut_at is None  # no cut card
        assert len(coup.burned) == per_coup  # no BAC-2.1 burn, only the house's BAC-8 one
        assert dealt(coup) == shoe.cards[:len(dealt(coup))]  # each coup is the top of its own shoe
        assert sorted(shoe.cards) == sorted(Shoe(decks=decks, seed=0).cards)  # a whole shoe
    assert play.burned == ()  # BAC-2.3: no BAC-2.1 procedure
    assert play.cards_left == 52 * decks - len(dealt(play.rounds[-1]))
    assert len({tuple(s.cards) for s in RecordingShoe.made}) == len(coups)  # each freshly shuffled


@pytest.mark.parametrize("burn", ["decks", "first_card", "fixed"])
def test_shuffler_skips_the_start_burn_whatever_the_burn_option_BAC_2_3(burn):
    play = baccarat.play_shoe(opts(shuffler="automatic", burn=burn), seed=3, coups=5)
    assert play.burned == () and all(c.burned == () for c in play.rounds)


def test_shuffler_deals_past_any_single_shoe_BAC_7_2():
    # 600 coups need ~3,000 cards: a 6-deck shoe has 312, so only returned cards make it possible,
    # and every card turns up more often than the 6 copies one shoe holds.
    play = baccarat.play_shoe(opts(decks=6, shuffler="automatic"), seed=5, coups=600)
    seen = collections.Counter(c for coup in play.rounds for c in coup.cards)
    assert sum(seen.values()) > 6 * 52 and min(seen.values()) > 6 * 4


def test_shuffler_play_is_seeded_BAC_2_3():
    o = opts(shuffler="automatic", demo_rounds=1)
    assert baccarat.play_shoe(o, seed=9, coups=30) == baccarat.play_shoe(o, seed=9, coups=30)
    assert baccarat.play_shoe(o, seed=9, coups=30).rounds != baccarat.play_shoe(o, seed=10, coups=30).rounds


@pytest.mark.parametrize("kwargs", [{"seed": 1}, {"seed": 1, "coups": 0}, {"seed": 1, "coups": True},
                                    {"seed": 1, "coups": "5"}, {"coups": 5},
                                    {"cards": ["9s", "Kd", "Th", "2c"], "coups": 1}])
def test_shuffler_play_needs_a_seed_and_a_coup_count_BAC_2_3(kwargs):
    with pytest.raises(RuleError):
        baccarat.play_shoe(opts(shuffler="automatic"), **kwargs)


def test_a_dealing_shoe_takes_no_coup_count_BAC_3_1():
    with pytest.raises(RuleError, match="cut card"):
        baccarat.play_shoe(opts(), seed=1, coups=5)


def test_shuffler_simulation_matches_the_exact_odds_of_every_coup_BAC_7_2(monkeypatch):
    # With the shuffler the full-shoe figures of edge() hold for every coup, so the simulation's mean
    # must fall within a few standard errors of them; and it deals from the machine, a shoe per coup.
    RecordingShoe.made = []
    monkeypatch.setattr(baccarat_shoe, "Shoe", RecordingShoe)
    o = opts(shuffler="automatic")
    result = baccarat.simulate(3000, 2024, o)
    assert len(RecordingShoe.made) >= 3000 and all(s.cut_at is None for s in RecordingShoe.made)
    exact = baccarat.edge(o)
    for bet in ("player", "banker", "tie"):
        expected = -float(exact[bet]["house_edge"])
        assert abs(result[bet]["mean_net"] - expected) < 4 * result[bet]["stderr"]
