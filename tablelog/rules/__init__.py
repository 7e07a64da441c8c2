"""What may happen: pure game logic per ruleset. No I/O, no clock, no randomness here."""
