"""Lamp-board wiring per table layout: the spot ids (the bet ids of docs/rulebook.md) in lamp-chain order.

Lamp index i of a board's chain is wired under the i-th id layout_for(game) yields. The order follows
the printed layout row by row, so a chain can be cut short after the spots a casino prints; spots with
no lamp are simply not lit. 'progressive' is one lamp per seat (the bet-accepted light, CSP-10.1).
Each layout is a few strings of a band or two of its rows each (longer than 10 characters, so MicroPython
does not intern them; shorter than 500, so loading the module needs no long free block in a fragmented
heap): the module is imported at boot to wire the lamps and then dropped, and leaves no interned id
strings behind, which would otherwise stay in the heap for good (and can make it allocate a new ~7 KB
qstr pool); the ids are yielded one at a time, so a layout's 117 ids are never in the heap at once."""

# SB-5: the layout's top row, then doubles, triples, totals, combinations, singles, and the
# double+single, three- and four-number bets
SICBO = (
    "small odd any_triple even big",
    "double_1 double_2 double_3 double_4 double_5 double_6",
    "triple_1 triple_2 triple_3 triple_4 triple_5 triple_6",
    "total_4 total_5 total_6 total_7 total_8 total_9 total_10 total_11 total_12 total_13 total_14 "
    "total_15 total_16 total_17",
    "combo_1_2 combo_1_3 combo_1_4 combo_1_5 combo_1_6 combo_2_3 combo_2_4 combo_2_5 combo_2_6 "
    "combo_3_4 combo_3_5 combo_3_6 combo_4_5 combo_4_6 combo_5_6",
    "single_1 single_2 single_3 single_4 single_5 single_6",
    "double_single_1_2 double_single_1_3 double_single_1_4 double_single_1_5 double_single_1_6 "
    "double_single_2_1 double_single_2_3 double_single_2_4 double_single_2_5 double_single_2_6 "
    "double_single_3_1 double_single_3_2 double_single_3_4 double_single_3_5 double_single_3_6",
    "double_single_4_1 double_single_4_2 double_single_4_3 double_single_4_5 double_single_4_6 "
    "double_single_5_1 double_single_5_2 double_single_5_3 double_single_5_4 double_single_5_6 "
    "double_single_6_1 double_single_6_2 double_single_6_3 double_single_6_4 double_single_6_5",
    "three_1_2_3 three_1_2_4 three_1_2_5 three_1_2_6 three_1_3_4 three_1_3_5 three_1_3_6 "
    "three_1_4_5 three_1_4_6 three_1_5_6 three_2_3_4 three_2_3_5 three_2_3_6 three_2_4_5 "
    "three_2_4_6 three_2_5_6 three_3_4_5 three_3_4_6 three_3_5_6 three_4_5_6",
    "four_1_2_3_4 four_1_2_3_5 four_1_2_3_6 four_1_2_4_5 four_1_2_4_6 four_1_2_5_6 four_1_3_4_5 "
    "four_1_3_4_6 four_1_3_5_6 four_1_4_5_6 four_2_3_4_5 four_2_3_4_6 four_2_3_5_6 four_2_4_5_6 "
    "four_3_4_5_6",
)


# FPC-5: faces 1..6 are fish, prawn, gourd, coin, crab, rooster (FPC-1.1)
FISH_PRAWN_CRAB = (
    "small big any_triple any_color3 "
    "triple_fish triple_prawn triple_gourd triple_coin triple_crab triple_rooster "
    "single_fish single_prawn single_gourd single_coin single_crab single_rooster "
    "color1_red color1_green color1_blue "
    "color2_red color2_green color2_blue "
    "color3_red color3_green color3_blue",
    "total_4 total_5 total_6 total_7 total_8 total_9 total_10 total_11 total_12 total_13 total_14 "
    "total_15 total_16 total_17",
)


# FT-6: fan, kwok (adjacent corners), nim, nga, sam hong
FANTAN = (
    "fan_1 fan_2 fan_3 fan_4 "
    "kwok_1_2 kwok_2_3 kwok_3_4 kwok_1_4 "
    "nim_1_2 nim_1_3 nim_1_4 nim_2_1 nim_2_3 nim_2_4 nim_3_1 nim_3_2 nim_3_4 nim_4_1 nim_4_2 "
    "nim_4_3",
    "nga_1_2_3 nga_1_2_4 nga_1_3_2 nga_1_3_4 nga_1_4_2 nga_1_4_3 nga_2_3_1 nga_2_3_4 nga_2_4_1 "
    "nga_2_4_3 nga_3_4_1 nga_3_4_2 "
    "sam_hong_1_2_3 sam_hong_1_2_4 sam_hong_1_3_4 sam_hong_2_3_4",
)


def _words(rows):
    for text in rows:
        at = 0
        while at < len(text):
            end = text.find(" ", at)
            end = len(text) if end < 0 else end
            yield text[at:end]
            at = end + 1


def layout_for(game):
    """The spot ids, in lamp order, a controller of `game` lights (an iterator): dice and fan-tan their
    own layout, every progressive game its seats."""
    if game == "sicbo":
        return _words(SICBO)
    if game == "fish_prawn_crab":
        return _words(FISH_PRAWN_CRAB)
    if game == "fantan":
        return _words(FANTAN)
    # CSP-10.1, F3-2.2, BAC-13.3: one bet-accepted lamp per seat, from the dealer's left
    from tablectl.rules import SEATS
    return ("seat_%d" % s for s in range(1, SEATS + 1))
