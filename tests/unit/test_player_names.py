"""Names that mean something to the rules are never players' names, in every ruleset, and a new
name is compared after NFKC and case folding (issue 14, item 15).

Through the command layer on real SQLite files: `invite` (the service's too), character
creation in each ruleset, and campaign creation. A log that already holds such a name (written
before they were refused) still reads, verifies and plays on; a player token already issued
under the GM's seat name sees no more than an observer.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tablelog.commands.access import Caller, authenticate, invite, new_token, revoke
from tablelog.commands.audit import account_of
from tablelog.commands.campaigns import create_campaign, plan_campaign
from tablelog.commands.importing import import_jsonl
from tablelog.commands.reads import log_items
from tablelog.commands.table import campaign_state, execute
from tablelog.errors import AlreadyExists, InvalidInput, RuleViolation, TablelogError
from tablelog.rules.common import EndSession, StartScene
from tablelog.rules.names import RESERVED, folded, gm_name, new_player_name
from tablelog.rulesets.beer_run.rules import commands as br
from tablelog.rulesets.improv.rules import commands as im
from tablelog.storage import EventStore, open_store
from tablelog.storage.verify import verify_log


def wide(text: str) -> str:
    """`text` in full-width letters (`sam` -> U+FF53 U+FF41 U+FF4D), which NFKC makes plain."""
    return "".join(chr(ord(ch) + 0xFEE0) for ch in text)


IMPROV_WITH_A_POOL_PLAYER = (
    Path(__file__).resolve().parents[1] / "fixtures" / "improv-7e6ba8a.jsonl"
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[EventStore]:
    opened = open_store(str(tmp_path / "names.db"), create=True)
    try:
        yield opened
    finally:
        opened.close()


def refused(
    store: EventStore, campaign: str, code: str, call: Callable[[], object]
) -> TablelogError:
    """`call()` is refused with `code`, and the campaign's log is as it was."""
    before = store.read(campaign)
    with pytest.raises(TablelogError) as caught:
        call()
    assert caught.value.code == code, str(caught.value)
    assert store.read(campaign) == before
    return caught.value


# --- the one check ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["gm", "GM", "Pool", "TABLE", "bank", "out_of_play", wide("gm"), wide("Pool")]
)
def test_names_of_the_rules_are_never_new_players(name: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        new_player_name(name, gm="mara", players={})
    assert caught.value.code == "reserved-name"
    assert f"player name {name!r} means something to the rules" in caught.value.message


def test_the_gms_name_is_not_a_new_players() -> None:
    with pytest.raises(RuleViolation) as caught:
        new_player_name("MARA", gm="mara", players={"mara": "Mara"})
    assert caught.value.code == "gm-player"


@pytest.mark.parametrize("spelling", ["\u017fam", wide("sam"), wide("SAM"), "\u017fAM"])
def test_another_spelling_of_a_players_name_is_refused(spelling: str) -> None:
    players = {"sam": "Sam", "gm": "gm"}
    assert folded(spelling) == "sam"
    with pytest.raises(AlreadyExists) as caught:
        new_player_name(spelling, gm="gm", players=players)
    assert caught.value.code == "player-exists"
    assert "another spelling of player Sam's name" in caught.value.message


@pytest.mark.parametrize("spelling", ["sam", "Sam", "SAM", " sam "])
def test_a_players_own_name_in_any_letter_case_is_that_player(spelling: str) -> None:
    assert new_player_name(spelling, gm="gm", players={"sam": "Sam"}) == "sam"


@pytest.mark.parametrize(
    ("given", "plain"), [("\u017fam", "sam"), (wide("mara"), "mara"), ("\ufb01n", "fin")]
)
def test_a_new_name_is_written_in_its_plain_form(given: str, plain: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        new_player_name(given, gm="gm", players={})
    assert caught.value.message.endswith(f"write it {plain!r}")


def test_the_gm_may_be_called_gm_but_no_other_name_of_the_rules() -> None:
    assert gm_name("GM") == "gm"
    assert gm_name("Mara") == "mara"
    for name in RESERVED[1:]:
        with pytest.raises(InvalidInput):
            gm_name(name)
    with pytest.raises(InvalidInput):
        plan_campaign("x", ruleset="improv", gm="pool")


# --- every place a player is made -------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["beer-run", "improv"])
def test_invite_refuses_names_of_the_rules_and_look_alikes(store: EventStore, ruleset: str) -> None:
    create_campaign(store, "c", ruleset=ruleset)
    invite(store, "c", "sam")
    for name, code in [
        ("gm", "reserved-name" if ruleset == "beer-run" else "gm-player"),
        ("pool", "reserved-name"),
        ("out_of_play", "reserved-name"),
        ("\u017fam", "player-exists"),
        (wide("sam"), "player-exists"),
    ]:
        refused(store, "c", code, lambda n=name: invite(store, "c", n))
    refused(store, "c", "reserved-name", lambda: invite(store, "c", "table", "observer"))
    # Through the service the GM's token makes the same call. No token was issued for any.
    gm = Caller(campaign="c", player="gm", role="gm", digest="x")
    refused(store, "c", "reserved-name", lambda: invite(store, "c", "bank", caller=gm))
    for name in ("pool", "out_of_play", "table", "bank"):  # and no token was issued
        refused(store, "c", "no-token", lambda n=name: revoke(store, "c", n))


def test_beer_run_characters_are_never_played_by_a_name_of_the_rules(store: EventStore) -> None:
    create_campaign(store, "pub", ruleset="beer-run")
    ability = [br.AbilitySpec(name="Body", category="Body", size="d6")]
    for player, code in [("bank", "reserved-name"), (wide("gm"), "reserved-name")]:
        command = br.CreateCharacter(player=player, character="Zed", abilities=ability)
        refused(store, "pub", code, lambda c=command: execute(store, "pub", c))
    # `gm` (any case) is the GM's NPC, as it always was.
    execute(store, "pub", br.CreateCharacter(player="GM", character="Bob", abilities=ability))
    assert campaign_state(store, "pub").state.characters["bob"].player == "gm"


def test_improv_protagonists_are_never_played_by_a_name_of_the_rules(store: EventStore) -> None:
    # Issue 14: a player named pool drew on the shared pool (`improv award pool bob`).
    create_campaign(store, "bar", ruleset="improv")
    for player in ("pool", "Table", "bank", "out_of_play"):
        command = im.CreateCharacter(player=player, character="Kit")
        refused(store, "bar", "reserved-name", lambda c=command: execute(store, "bar", c))
    execute(store, "bar", im.CreateCharacter(player="sam", character="Kit"))
    command = im.CreateCharacter(player="\u017fam", character="Diana")
    refused(store, "bar", "player-exists", lambda: execute(store, "bar", command))


# --- what is already in a log -----------------------------------------------------------------


def test_a_log_with_a_player_named_pool_still_reads_verifies_and_plays_on(
    store: EventStore,
) -> None:
    # Written by the tablelog of 7e6ba8a itself: player `pool` plays Kit and awarded a token.
    import_jsonl(store, IMPROV_WITH_A_POOL_PLAYER, worker=False)
    assert verify_log(store).ok
    assert account_of(store.read("bar")).seq == 7
    state = campaign_state(store, "bar").state
    assert set(state.players) == {"gm", "pool", "bob"}
    execute(store, "bar", StartScene(title="the bar"))
    execute(store, "bar", EndSession())
    refused(store, "bar", "reserved-name", lambda: invite(store, "bar", "pool"))
    invite(store, "bar", "richard")  # others still join
    assert verify_log(store).ok


def test_a_player_token_issued_under_the_gms_seat_name_sees_no_hidden_pool(
    store: EventStore,
) -> None:
    # Before names of the rules were refused, `invite gm` in Beer Run issued a *player* token
    # for `gm` (no event: the name was the GM's key), which saw the NPC's unrolled pool.
    create_campaign(store, "pub", ruleset="beer-run")
    token, digest = new_token()
    with store.transaction("pub") as tx:
        tx.add_access_token(token_hash=digest, player="gm", role="player")
    body = [br.AbilitySpec(name="Body", category="Body", size="d6")]
    for player, name in (("ann", "Alice"), ("gm", "Bob")):
        execute(store, "pub", br.CreateCharacter(player=player, character=name, abilities=body))
    execute(store, "pub", br.OpenConflict(sides={"a": ["Alice"], "b": ["Bob"]}))
    execute(store, "pub", br.DeclareGoal(conflict=None, actor="Alice", text="win"))
    execute(store, "pub", br.DeclareGoal(conflict=None, actor="Bob", text="win"))
    execute(store, "pub", br.AssemblePool(conflict=None, actor="Bob", base=["Body"]))
    caller = authenticate(store, token)
    assert (caller.player, caller.role) == ("gm", "player")
    (pool,) = pools(store, caller.viewer)
    assert pool["dice"] is None
    assert pool["salt"] is None
    (shown,) = pools(store, "gm")
    assert shown["dice"] is not None  # the GM's own seat sees its NPC's pool


def pools(store: EventStore, viewer: str) -> list[dict[str, object]]:
    """The payloads of the bought pools in campaign pub's log, as `viewer` reads them."""
    lines = [json.loads(item.line) for item in log_items(store, "pub", viewer=viewer)]
    return [line["payload"] for line in lines if line["type"] == "br.pool_assembled"]
