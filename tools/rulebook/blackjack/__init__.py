"""Blackjack: the game module (game), card values (cards), the round (round), shared boxes (shared), side bets
(sidebets), basic strategy (basic_strategy), the shoe (shoe) and the finite-shoe exact values (exact)."""
