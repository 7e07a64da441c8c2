"""A table in play, for tests that need one: a campaign with Bob's character Kit, a session
running and an open conflict c1 in which the GM's Riso and Kit oppose each other."""

from __future__ import annotations

from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import execute
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import EventStore


def table_in_play(store: EventStore, campaign: str) -> str:
    """Write the table into `store`; the GM's access token."""
    token = create_campaign(store, campaign, ruleset="improv").token
    for command in (
        c.CreateCharacter(player="Bob", character="Kit", talents=["Brawler"]),
        c.StartSession(),
        c.OpenConflict(conflict="c1"),
        c.SetStake(conflict="c1", side="Riso", gm=True, text="Riso gets away"),
        c.SetStake(conflict="c1", side="Kit", opposes="Riso", text="Kit stops him"),
    ):
        execute(store, campaign, command)
    return token
