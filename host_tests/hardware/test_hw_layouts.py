"""Lamp layouts and wiring: each table layout wires every spot of its game's core table exactly once; the
lamp board names a lamp's spot from the controller's ids."""
# mp-heap: 64K
from tablectl.hw.lamps import Lamps, NeoBackend
from tablectl.games.layouts import layout_for
from tablectl.rules import fantan
from tablectl.rules.dice import DiceTable


def test_every_layout_wires_each_spot_of_its_game_once_SB_5_FPC_5_FT_6_CSP_10_1():
    for game in ("sicbo", "fish_prawn_crab"):
        ids = list(layout_for(game))
        assert len(ids) == len(set(ids)) and set(ids) == set(DiceTable(game).spots), game
    ids = list(layout_for("fantan"))  # the layout's adjacent corners only (FT-6.1 Interpretation)
    assert len(ids) == len(set(ids)) and set(ids) == set(fantan.SPOTS) - set(fantan.KWOK_ANY_ONLY)
    for game in ("caribbean_stud", "fortune3", "baccarat_a"):
        assert list(layout_for(game)) == ["seat_1", "seat_2", "seat_3", "seat_4", "seat_5", "seat_6", "seat_7"]


class Np:
    """A neopixel.NeoPixel stand-in: the pixels as written."""

    def __init__(self, n):
        self.px = [(0, 0, 0)] * n

    def __len__(self):
        return len(self.px)

    def __setitem__(self, i, rgb):
        self.px[i] = rgb

    def write(self):
        pass


def test_layout_names_come_from_the_controllers_ids_and_stay_one_object_until_rewired():
    lamps = Lamps(NeoBackend(Np(4)), 4)
    assert lamps.layout == () and lamps.wired == 0
    # a layout with a spot the controller lacks ('any_color3'): its lamp has no name and no spot
    table = lamps.wire(iter(("big", "any_color3", "small")), ("small", "big"))
    assert list(table) == [2, 0] and lamps.wired == 3
    assert (lamps.name(0), lamps.name(1), lamps.name(2), lamps.name(3)) == ("big", "", "small", "")
    first = lamps.layout
    assert first == ("big", "", "small") and lamps.layout is first  # what the simulator's host link watches
    lamps.wire(("small",), ("small", "big"))
    assert lamps.layout == ("small",) and lamps.layout is not first
