"""The page's texts holding a direction control (which it isolates wherever a value quotes
them) follow the campaign as it moves: walked from the state view once, then taken from each
new event's payload, so an append costs the page one event, not the whole state (a campaign
of 100,000 events: bench/page.py)."""

from __future__ import annotations

from tablelog.commands import database
from tablelog.commands.access import Caller
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.page import page_of
from tablelog.commands.table import execute
from tablelog.rulesets.improv.rules import commands as c
from tablelog.storage import open_store

EVIL = "\u202eKit throws Riso out"
OLD = "Riso \u2066keeps\u2069 the bar"


def test_texts_follow_each_append_and_a_replay_keeps_them(target: str) -> None:
    database.upgrade(target)
    store = open_store(target)
    try:
        create_campaign(store, "heist", ruleset="improv", gm="gina")
        for command in (
            c.CreateCharacter(player="bob", character="Kit"),
            c.StartSession(),
            c.OpenConflict(conflict="c1"),
            c.SetStake(conflict="c1", side="Riso", gm=True, text=OLD),
        ):
            execute(store, "heist", command)
        bob = Caller(campaign="heist", player="bob", role="player", digest="b")
        first = page_of(store, "heist", bob, head=store.head("heist"))
        assert OLD in first.texts  # from the state view, the first time
        execute(store, "heist", c.SetStake(conflict="c1", side="Kit", opposes="Riso", text=EVIL))
        after = page_of(store, "heist", bob, head=store.head("heist"))
        assert EVIL in after.texts  # from the new event's payload
        assert OLD in after.texts
        replay = page_of(store, "heist", bob, at=4)
        assert OLD in replay.texts
    finally:
        store.close()
