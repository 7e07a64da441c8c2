"""The audit's account of sealed plays (rules/improv/sealed.py), round by round: each seal,
each opening with the commitment recomputed, each forfeit with its deadline. The verdict on
them is the check's (check.py decides every opening again: its card and salt give the
commitment sealed, after every side of the round had sealed)."""

from __future__ import annotations

from tablelog.rulesets.improv import events as ev
from tablelog.rulesets.improv.rules.cards import pretty
from tablelog.rulesets.improv.views.outcomes import Open


def sealed_note(
    here: Open, seq: int, event: ev.CardSealed | ev.CardOpened | ev.OpeningForfeited
) -> None:
    title = f"Round {event.round}"
    here.section(title)
    who = here.name(event.side)
    match event:
        case ev.CardSealed():
            here.note(
                title,
                seq,
                "sealed",
                f"{who} seals a card: commitment {event.commitment}",
                side=event.side,
                commitment=event.commitment,
            )
        case ev.CardOpened():
            here.note(
                title,
                seq,
                "opened",
                f"{who} opens {pretty(event.card)}: SHA-256 of the card and salt "
                f"{event.salt_hex[:16]}... gives the commitment sealed, and every card of "
                "the round was sealed before this opening",
                side=event.side,
                card=event.card,
                salt=event.salt_hex,
            )
        case ev.OpeningForfeited():
            here.note(
                title,
                seq,
                "forfeit",
                f"{who} did not open its sealed card by the GM's deadline and forfeits the "
                "round: its card counts as the lowest card",
                side=event.side,
                deadline=event.deadline,
                at=event.at,
            )
