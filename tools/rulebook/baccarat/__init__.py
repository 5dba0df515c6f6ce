"""Baccarat: the game module (game), the drawing rules (rules), the shoe (shoe), the exact odds (exact), the
progressive's hand classes (progressive) and the awards that pay from its pool (awards)."""
