"""Drivers over injected pins and buses: buttons, keypad matrix, shaker, bell, lamps, text display, jackpot digits."""
