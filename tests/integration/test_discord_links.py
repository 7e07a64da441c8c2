"""Discord's rows on both backends: channels bound to campaigns, one-time link codes, and
the seat a Discord user acts for."""

from __future__ import annotations

import pytest

from tablelog.commands import database, discord_links
from tablelog.commands.access import Caller
from tablelog.commands.campaigns import create_campaign
from tablelog.commands.table import execute
from tablelog.errors import Forbidden, InvalidInput
from tablelog.rulesets.improv.rules.commands import CreateCharacter
from tablelog.storage import EventStore, open_store

USER = "400000000000000001"
OTHER = "400000000000000002"
CHANNEL = "300000000000000001"


@pytest.fixture
def store(target: str) -> EventStore:
    database.upgrade(target)
    opened = open_store(target, create=True)
    create_campaign(opened, "heist", ruleset="improv", gm="amanda")
    create_campaign(opened, "other", ruleset="improv", gm="amanda")
    return opened


def test_one_campaign_per_channel(store: EventStore) -> None:
    assert discord_links.bind(store, "heist", CHANNEL).bound
    assert discord_links.bind(store, "heist", CHANNEL).bound  # again: nothing changes
    with pytest.raises(InvalidInput, match="already plays campaign heist") as taken:
        discord_links.bind(store, "other", CHANNEL)
    assert taken.value.code == "channel-taken"
    assert discord_links.channels(store, "heist") == [CHANNEL]
    with pytest.raises(InvalidInput, match="17 to 20 digits"):
        discord_links.bind(store, "heist", "general")
    assert discord_links.unbind(store, "heist", CHANNEL).bound
    assert not discord_links.unbind(store, "heist", CHANNEL).bound
    assert discord_links.bind(store, "other", CHANNEL).bound
    store.close()


def test_a_code_links_once_and_moves_the_user(store: EventStore) -> None:
    first = discord_links.new_code(store, "heist", "bob")
    assert discord_links.caller_of(store, "heist", USER).role == "observer"
    linked = discord_links.redeem(store, first.code.lower().replace("-", " "), USER)
    assert (linked.campaign, linked.player, linked.moved_from) == ("heist", "bob", [])
    caller = discord_links.caller_of(store, "heist", USER)
    assert (caller.player, caller.role) == ("bob", "player")
    with pytest.raises(InvalidInput, match="links nothing"):
        discord_links.redeem(store, first.code, OTHER)
    # A newer code replaces the seat's older one.
    older = discord_links.new_code(store, "heist", "gm")
    newer = discord_links.new_code(store, "heist", "gm")
    with pytest.raises(InvalidInput):
        discord_links.redeem(store, older.code, USER)
    moved = discord_links.redeem(store, newer.code, USER)
    assert (moved.player, moved.moved_from) == ("amanda", ["bob"])
    caller = discord_links.caller_of(store, "heist", USER)
    assert (caller.player, caller.role) == ("amanda", "gm")
    assert discord_links.caller_of(store, "other", USER).role == "observer"
    store.close()


def test_a_player_makes_only_their_own_code(store: EventStore) -> None:
    execute(store, "heist", CreateCharacter(player="bob", character="Kit"))
    bob = Caller(campaign="heist", player="bob", role="player", digest="x")
    assert discord_links.new_code(store, "heist", "bob", bob).player == "bob"
    with pytest.raises(Forbidden):
        discord_links.new_code(store, "heist", "gm", bob)
    with pytest.raises(Forbidden):
        discord_links.new_code(store, "heist", "newcomer", bob)
    observer = Caller(campaign="heist", player="olga", role="observer", digest="y")
    with pytest.raises(Forbidden):
        discord_links.new_code(store, "heist", "olga", observer)
    store.close()
