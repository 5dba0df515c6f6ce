"""Caribbean Stud: the game module (game), the rules both it and the exact analysis need (rules), and the exact
ante/raise edge (exact)."""
