"""What it means: pure folds over events. No I/O, no clock, no randomness here."""
