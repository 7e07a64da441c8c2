"""Improv's sealed plays from the command line (rules/improv/sealed.py): `play` seals the card
when the campaign says so, `unseal` opens this machine's sealed cards of the round, and
`reveal` opens the revealer's own first. `deadline` and `forfeit` are the GM's answer to an
opening that never comes."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from tablelog.cli.options import CampaignOption, collecting
from tablelog.cli.options import ConflictArg as Conflict
from tablelog.cli.play import run
from tablelog.cli.rulesets import shown_conflict
from tablelog.cli.sealed import kept_openings, seal
from tablelog.errors import InvalidInput, NotFound
from tablelog.rules.names import player_name
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules.cards import parse_card

IMPROV = "improv"


def sealed_play(ctx: typer.Context, campaign: str | None, cmd: c.PlayCard) -> c.PlayCard:
    """`cmd` as it is sent: in a campaign that seals its plays, the card's commitment for
    the round it goes to (the card and salt kept on this machine), else as it is."""
    if collecting.get() is not None or cmd.conflict is None:
        return cmd
    name, shown = shown_conflict(ctx, campaign, IMPROV, cmd.conflict, None)
    view = shown.view
    if not view.get("sealed_plays"):
        return cmd
    if cmd.card is None or cmd.from_deck:
        raise InvalidInput(
            "this campaign seals its plays: name the card you play (it is sealed here, and "
            "only its commitment is sent)",
            code="card-required",
        )
    side = _side_key(view, cmd.side)
    opening = seal(name, view["conflict"], view["next_round"], side, parse_card(cmd.card))
    return c.PlayCard(
        conflict=cmd.conflict, side=cmd.side, commitment=opening.commitment, round=opening.round
    )


def _side_key(view: dict[str, Any], given: str) -> str:
    key = player_name(given, "side")
    sides = view.get("sides") or {}
    if key not in sides:
        raise NotFound(
            f"conflict {view['conflict']} has no side {given!r}; its sides: "
            f"{', '.join(sides) or 'none yet'}",
            code="unknown-side",
        )
    return key


def open_kept(
    ctx: typer.Context, campaign: str | None, conflict: str, only: str | None, *, required: bool
) -> int:
    """Send the openings this machine keeps for the conflict's current round (of side
    `only`, or all) that are not open yet; how many were sent. Commands only collected (a
    what-if file, a slash command) open nothing: what this machine keeps stays here."""
    if collecting.get() is not None and not required:
        return 0
    name, shown = shown_conflict(ctx, campaign, IMPROV, conflict, None)
    view = shown.view
    rounds = view.get("rounds") or []
    if not view.get("sealed_plays") or not rounds:
        if required:
            raise InvalidInput(
                f"conflict {conflict} has no sealed card to open", code="nothing-sealed"
            )
        return 0
    current = rounds[-1]
    plays = current.get("plays") or {}
    wanted = player_name(only, "side") if only else None
    openings = [
        o
        for o in kept_openings(name, view["conflict"], current["round"])
        if (wanted is None or o.side == wanted)
        and o.side in plays
        and plays[o.side].get("sealed")
        and plays[o.side].get("commitment") == o.commitment
        and not plays[o.side].get("opened")
        and not plays[o.side].get("forfeited")
    ]
    if not openings and required:
        raise NotFound(
            f"this machine keeps no unopened sealed card for round {current['round']} of "
            f"{view['conflict']}{f' ({only})' if only else ''}",
            code="no-opening",
        )
    for o in openings:
        run(
            ctx,
            campaign,
            c.OpenCard(conflict=conflict, side=o.side, card=o.choice, salt=o.salt),
            ruleset=IMPROV,
        )
    return len(openings)


def unseal(
    ctx: typer.Context,
    conflict: Conflict,
    side: Annotated[
        str | None, typer.Argument(help="Only this side's card (default: all kept here).")
    ] = None,
    campaign: CampaignOption = None,
) -> None:
    """Open your sealed cards of the round (campaigns with sealed_plays): the card and the
    salt kept on this machine are sent, and the service checks them against the commitment.
    Cards are opened once every side has played.

    Example: `tablelog improv unseal c1`
    """
    open_kept(ctx, campaign, conflict, side, required=True)


def deadline(
    ctx: typer.Context,
    conflict: Conflict,
    minutes: Annotated[int, typer.Argument(help="Minutes from now.")],
    campaign: CampaignOption = None,
) -> None:
    """GM: the deadline for the openings of the round's sealed cards; after it, `forfeit`.

    Example: `tablelog improv deadline c1 1440` (a day)
    """
    run(ctx, campaign, c.SetOpeningDeadline(conflict=conflict, minutes=minutes), ruleset=IMPROV)


def forfeit(
    ctx: typer.Context,
    conflict: Conflict,
    side: Annotated[str, typer.Argument()],
    campaign: CampaignOption = None,
) -> None:
    """GM, after the deadline: a side that has not opened its sealed card forfeits the round
    (its card counts as the lowest card there is). Refused before the deadline.

    Example: `tablelog improv forfeit c1 kit`
    """
    run(ctx, campaign, c.ForfeitOpening(conflict=conflict, side=side), ruleset=IMPROV)


def register(app: typer.Typer) -> None:
    app.command("unseal")(unseal)
    app.command("deadline")(deadline)
    app.command("forfeit")(forfeit)
