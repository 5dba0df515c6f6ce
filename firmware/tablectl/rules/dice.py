"""Sic Bo and Fish-Prawn-Crab: three dice -> the winning layout spots, by one table look-up.

    t = DiceTable('sicbo', pay_5_16=18, pay_6_15=14, odd_even_lose_on_triple=False)
    f = DiceTable('fish_prawn_crab', color2_at_least=False)
    t.spots             the spot ids (docs/rulebook.md bet ids) in lamp-map order, an ids.SpotIds
    t.index('total_9')  position of an id in t.spots (ValueError for an unknown id)
    t.resolve(d1, d2, d3) -> precomputed bytes spot, pays, spot, pays, ... of every winning spot (pays: the
                        a of a:1), nothing allocated; ValueError for a die outside 1..6
    t.pays(spot_index, d1, d2, d3) -> the a of a:1 for that spot, 0 when it loses
Faces, readings (FPC-1.1, FPC-5.5) and the table's heap: docs/rulebook.md; the rules (SB-5, SB-6, SB-7,
FPC-5, FPC-6, FPC-7): tools/building/gen_dicetab.py.
"""
import sys

from .ids import SpotIds

from . import DICE as GAMES  # the games a DiceTable is made for
_spot_ids = {}  # game -> SpotIds, made once: a new table for new options reuses them


class DiceTable:
    """The winning spots of every dice outcome for one game and one set of pay options."""

    def __init__(self, game, pay_5_16=18, pay_6_15=14, odd_even_lose_on_triple=False, color2_at_least=False):
        if game == "sicbo":
            if not isinstance(pay_5_16, int) or not 18 <= pay_5_16 <= 30:
                raise ValueError("pay_5_16 must be 18..30 (SB-6.6), got %r" % (pay_5_16,))
            if not isinstance(pay_6_15, int) or not 14 <= pay_6_15 <= 18:
                raise ValueError("pay_6_15 must be 14..18 (SB-6.6), got %r" % (pay_6_15,))
            if odd_even_lose_on_triple not in (True, False) or color2_at_least:
                raise ValueError("odd_even_lose_on_triple: True or False (color2_at_least: fish_prawn_crab)")
            which = 0
        elif game == "fish_prawn_crab":
            if pay_5_16 != 18 or pay_6_15 != 14 or odd_even_lose_on_triple:
                raise ValueError("fish_prawn_crab: pays fixed by FPC-6.10, no odd/even")
            if color2_at_least not in (True, False):
                raise ValueError("color2_at_least must be True or False")
            which = 1
        else:
            raise ValueError("game must be one of %s, got %r" % (", ".join(GAMES), game))
        self.game = game
        # the encoded module is imported for the build and dropped after it: a board keeps only
        # the decoded table (about 5 KB less RAM on the unix port)
        from . import dicetab as t
        try:
            text, rows = (t.SICBO_SPOTS, t.SICBO_ROWS) if which == 0 else (t.FPC_SPOTS, t.FPC_ROWS)
            if game not in _spot_ids:
                _spot_ids[game] = SpotIds(text)  # the padded constant itself: no copy
            self.spots = _spot_ids[game]
            pay = {t.PAY_5_16: pay_5_16, t.PAY_6_15: pay_6_15, t.ODD_EVEN_TRIPLE: 0 if odd_even_lose_on_triple else 1,
                   t.COLOR2_OF_THREE: 3 if color2_at_least else 0}
            # sized once and filled in place: growing a list and slicing rows would leave holes in a
            # small heap that the next allocations cannot use
            table = [b""] * 56
            scratch = memoryview(bytearray(64))
            at = 0
            for k in range(56):
                n = 0
                for j in range(at + 1, at + 1 + 2 * rows[at], 2):
                    pays = pay.get(rows[j + 1], rows[j + 1])
                    if pays:  # a marker resolved to 0: that spot does not win under these options
                        scratch[n] = rows[j]
                        scratch[n + 1] = pays
                        n += 2
                table[k] = bytes(scratch[:n])
                at += 1 + 2 * rows[at]
            self._rows = table
            self._order = t.ORDER
        finally:
            sys.modules.pop(t.__name__, None)
            package = sys.modules.get(__name__.rsplit(".", 1)[0])
            if package is not None and "dicetab" in dir(package):
                delattr(package, "dicetab")

    def index(self, spot_id):
        try:
            return self.spots.index(spot_id)
        except ValueError:
            raise ValueError("no spot %r in %s" % (spot_id, self.game))

    def resolve(self, d1, d2, d3):
        # comparisons and indexing only: this runs under heap_lock on the board
        if (not isinstance(d1, int) or not isinstance(d2, int) or not isinstance(d3, int)
                or d1 < 1 or d1 > 6 or d2 < 1 or d2 > 6 or d3 < 1 or d3 > 6):
            raise ValueError("a die shows 1..6, got %r,%r,%r" % (d1, d2, d3))
        return self._rows[self._order[d1 * 36 + d2 * 6 + d3 - 43]]

    def pays(self, spot_index, d1, d2, d3):
        w = self.resolve(d1, d2, d3)
        for k in range(0, len(w), 2):
            if w[k] == spot_index:
                return w[k + 1]
        return 0
