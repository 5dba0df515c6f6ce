"""`make demo` end to end: the scripted session on the unix port, asserted on its printed trace (lamps, display,
jackpot digits, journal), including the power cuts (the process killed mid-round) and their resumption."""
import re
import subprocess
import sys

from harness import mpy

_TRACE = []


def trace():
    if not _TRACE:
        mpy.ensure_build()
        proc = subprocess.run([sys.executable, str(mpy.ROOT / "tools" / "sim" / "demo.py"), "--build", str(mpy.BUILD)],
                              capture_output=True, text=True, timeout=300)
        _TRACE.append((proc.returncode, proc.stdout + proc.stderr))
    return _TRACE[0]


def lines(game):
    return [line[len(game) + 3:] for line in trace()[1].splitlines() if line.startswith("[%s] " % game)]


def after(seq, marker, what):
    """The first line starting with `what` after the first line equal to `marker`."""
    i = seq.index(marker)
    for line in seq[i + 1:]:
        if line.startswith(what):
            return line
    raise AssertionError("no %r after %r" % (what, marker))


def test_demo_exits_zero_and_every_table_says_ok():
    rc, out = trace()
    assert rc == 0, out[-3000:]
    assert "demo OK: 6 tables" in out
    for game in ("sicbo", "fish_prawn_crab", "fantan", "caribbean_stud", "fortune3", "baccarat_b"):
        assert lines(game)[-1] == "OK", game


def test_sicbo_lamps_for_4_5_6_and_the_triple_SB_5_SB_7():
    seq = lines("sicbo")
    lamps = after(seq, '  display "4 5 6=15 BIG" / "CONFIRM = PAID"', "  lamps").split()[1:]
    assert set(lamps) == {"big", "odd", "total_15", "single_4", "single_5", "single_6", "combo_4_5",
                          "combo_4_6", "combo_5_6", "three_4_5_6", "four_1_4_5_6", "four_2_4_5_6",
                          "four_3_4_5_6"}
    lamps = after(seq, '  display "3 3 3 TRIPLE" / "CONFIRM = PAID"', "  lamps").split()[1:]
    assert set(lamps) == {"odd", "triple_3", "any_triple", "total_9", "single_3", "double_3"}


def test_void_rounds_are_journalled():
    for game in ("sicbo", "fantan", "caribbean_stud"):
        assert any(re.search(r"#\d+ round \d+\.\d+ void", line) for line in lines(game)), game


def test_power_cut_mid_round_resumes_exactly_there():
    seq = lines("sicbo")
    cut = [line for line in seq if line.startswith("POWER CUT")]
    assert cut == ["POWER CUT sic bo result shown, round 4"]
    assert seq[seq.index(cut[0]) + 1] == "boot: state result round 4 tilt None"
    # the lamps of 1 2 5 come back on at boot, before any button
    assert after(seq, cut[0], "  lamps").split()[1:].count("combo_1_2") == 1
    seq = lines("caribbean_stud")
    cut = [line for line in seq if line.startswith("POWER CUT")][0]
    assert seq[seq.index(cut) + 1] == "boot: state locked round 3 tilt None"


def test_jackpot_hit_shows_win_seat_award_then_new_pool():
    seq = lines("caribbean_stud")
    win = [line for line in seq if line.startswith('  display "S3 ROYAL FLUSH"')]
    assert win and "PAY 250030.00" in win[0]
    # bets of 25.00 at 20% (5.00 each): round 1 seats 1 3 5, round 2 seats 2 3 (void, carried),
    # round 3 the carried 2 3 (not counted again) and seat 6: 6 bets -> the seed 250000.00 + 30.00
    assert "jackpot 250030.00" in seq and "jackpot 250035.00" not in seq
    # CSP-10.2.1: max(fixed 250000.00, the whole pool 250030.00), journalled as a technician reads it
    assert any(re.search(r"round 1\.3 pay seat 3 award 250030\.00 \(royal_flush\)$", line) for line in seq), seq
    # the cards entered with the hit, for surveillance (As Ks Qs Js Ts typed as 141 131 121 111 101)
    assert any(re.search(r"round 1\.3 hit_in seat 3 hits 1 \(royal_flush As Ks Qs Js Ts\)$", line) for line in seq), seq
    assert seq.index("jackpot 250000.00", seq.index(win[0])) > 0  # back to the seed after the royal


def test_baccarat_award_is_shared_BAC_17_9():
    seq = lines("baccarat_b")
    pays = [line for line in seq if re.search(r"round 1\.1 pay seat \d award [\d.]+ \(four\)$", line)]
    assert len(pays) == 2 and pays[0].split()[-2] == pays[1].split()[-2], pays
