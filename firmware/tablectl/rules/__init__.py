"""Trimmed rules core: pure functions over ints and tuples; no I/O, no floats, no allocation on hot paths.

Here, written once for the core, the controllers, the configuration, the boards and the simulator:
the games, the seats of a progressive layout, the money ceiling (no module of their own: the package
is loaded with any rules module, so they cost no module of heap).
"""
GAMES = ("sicbo", "fish_prawn_crab", "fantan", "caribbean_stud", "fortune3", "baccarat_a", "baccarat_b",
         "baccarat_c")
DICE = GAMES[:2]  # the electric dice shaker (SB-2.1, FPC-2.1)
PROGRESSIVE = GAMES[3:]  # a jackpot pool (CSP-10, F3-15, BAC-17)
SEATS = 7  # seats of a progressive layout, from the dealer's left: seven boxes (CSP-10.4, F3-15.3)
MAX_SEATS = 9  # seats a pool record holds (baccarat tables have seven or more, BAC-1): its format
MAX_CENTS = 0x3FFFFFFF  # 2**30 - 1: every amount of cents below it stays a small int on a board
