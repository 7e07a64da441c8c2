"""tablelog: an event-sourced game log for card- and dice-driven tabletop RPG conflicts."""

__version__ = "0.1.0"
