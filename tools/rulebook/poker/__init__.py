"""Poker hands: three-card (poker3, Fortune 3) and five-card (poker5, Caribbean Stud and Fortune 3's community hands)."""
