"""Words the page's stories share, for any ruleset: a viewer's own names as "you"."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def namer(display: Callable[[str], str], mine: Iterable[str]) -> Callable[[str, bool], str]:
    """`name(key, start)`: a character's name, or "you"/"You" when it is the viewer's only
    one (a viewer with several, the GM's NPCs, gets their names)."""
    own = list(dict.fromkeys(mine))
    you = own[0] if len(own) == 1 else None

    def name(key: str, start: bool = False) -> str:
        if key == you:
            return "You" if start else "you"
        return display(key)

    return name


def beat(name: Callable[[str, bool], str], winner: str, loser: str) -> str:
    """ "You beat the ogre", "Kit beats you"."""
    first = name(winner, True)
    verb = "beat" if first == "You" else "beats"
    return f"{first} {verb} {name(loser, False)}"
