"""firmware/tablectl/rules/dicetab.py is exactly what tools/building/gen_dicetab.py generates from the dice rules."""
import subprocess
import sys

from building import gen_dicetab


def test_committed_dice_table_module_is_up_to_date():
    assert gen_dicetab.OUT.read_text() == gen_dicetab.render(), "run: python tools/building/gen_dicetab.py"


def test_check_mode_reports_up_to_date():
    proc = subprocess.run([sys.executable, str(gen_dicetab.ROOT / "tools" / "building" / "gen_dicetab.py"), "--check"],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and "up to date" in proc.stdout


def test_rows_decode_to_56_throws_with_ascending_spots():
    """Every row is a count then that many (spot, pays) pairs, spots ascending, for the 56 throws."""
    for rows, spots in ((gen_dicetab.rows(gen_dicetab.sicbo_spots(), gen_dicetab.sicbo_wins), 117),
                        (gen_dicetab.rows(gen_dicetab.fpc_spots(), gen_dicetab.fpc_wins), 39)):
        at, n = 0, 0
        while at < len(rows):
            pairs = [(rows[at + 1 + 2 * k], rows[at + 2 + 2 * k]) for k in range(rows[at])]
            assert [i for i, _ in pairs] == sorted(set(i for i, _ in pairs))
            assert all(i < spots and p > 0 for i, p in pairs)
            at += 1 + 2 * rows[at]
            n += 1
        assert at == len(rows) and n == 56
