"""Who may roll through the service. With managed dice tablelog rolls, and the active player
(or the GM) asks for it; with recorded dice one roll carries both sides' faces, so only the GM
records it: a player who did would be choosing the other side's dice."""

from __future__ import annotations

import pytest

from tablelog.errors import Forbidden
from tablelog.rulesets.bid_and_challenge.rules import RULESET
from tests.unit.bid_and_challenge.table import (
    RECORDED,
    Table,
    Tables,
    bid,
    challenge,
    pass_,
    roll,
    seated,
)


def at_the_roll(table: Table) -> Table:
    return table.given(seated(), bid("Anna", "Brawn"), pass_("Cara"), challenge("Ben", "Dodge"))


def test_with_managed_dice_the_active_player_rolls_its_own_bid(new: Tables) -> None:
    state = at_the_roll(new()).state
    RULESET.authorize(state, roll(), "anna", "player")
    RULESET.authorize(state, roll(), "gm", "gm")
    with pytest.raises(Forbidden) as refused:
        RULESET.authorize(state, roll(), "ben", "player")
    assert refused.value.code == "not-yours"


@pytest.mark.parametrize("player", ["anna", "ben"])
def test_with_recorded_dice_only_the_gm_records_the_faces(new: Tables, player: str) -> None:
    state = at_the_roll(new(RECORDED)).state
    faces = roll([6], [1])
    with pytest.raises(Forbidden) as refused:
        RULESET.authorize(state, faces, player, "player")
    assert str(refused.value) == f"gm-only: only the GM may do this; {player} is a player"
    RULESET.authorize(state, faces, "gm", "gm")
