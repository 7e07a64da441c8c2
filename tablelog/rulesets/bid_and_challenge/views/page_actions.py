"""Bid & Challenge's actions on the web page: what the viewer may do at this point of a round.

A player acts for its own characters: asks for a scene, bids (one form per power a bid may
name) or passes when active, challenges or passes when asked, pushes, and with managed dice
rolls its own bid. The GM runs the table (sessions, scenes, universe cards, deaths, the dice
recorded at the table, the end of a scene), acts for its own characters, and may pass for
whoever the round waits for, so that a silent player never blocks the table. Core code tries
each action's probe against the rules before offering it; the command itself is decided and
authorized when it is sent, as from any client. Choices come from the state (the cards in a
Deck, the characters not seated in an open scene); where a choice turns on a rule (who may die
for good), the rules are asked (`_takes`).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from tablelog.errors import TablelogError
from tablelog.projections.page import Action, Field, role_of
from tablelog.rules.common import Command, EndSession, StartSession
from tablelog.rules.table import GM
from tablelog.rulesets.bid_and_challenge.rules import commands as c
from tablelog.rulesets.bid_and_challenge.rules import decide
from tablelog.rulesets.bid_and_challenge.rules.narration import decided
from tablelog.rulesets.bid_and_challenge.rules.resolve import side_cards
from tablelog.rulesets.bid_and_challenge.rules.state import (
    BidAndChallengeState,
    Character,
    Round,
    Scene,
)
from tablelog.rulesets.bid_and_challenge.views.page_decks import deck_actions
from tablelog.rulesets.bid_and_challenge.views.page_panels import owned
from tablelog.rulesets.bid_and_challenge.views.page_powers import TEXT, power_forms


def _takes(state: BidAndChallengeState, command: Command) -> bool:
    """Whether the rules would take `command` now (nothing is appended: `decide` is pure)."""
    try:
        decide(state, command, list)  # type: ignore[arg-type]
    except TablelogError:
        return False
    return True


def actions(state: BidAndChallengeState, viewer: str | None) -> list[Action]:
    seen = viewer or GM
    role = role_of(seen)
    if role == "observer":
        return []
    gm = role == "gm"
    mine = [state.characters[k] for k in owned(state, seen) if not state.characters[k].dead]
    found: list[Action] = _gm_table(state) if gm else []
    found += deck_actions(state, seen, gm=gm)
    found += _open_scene(state, mine, gm=gm)
    for scene in state.open_scenes():
        found += _scene_actions(state, scene, {who.key for who in mine}, gm=gm)
    for scene in state.scenes.values():
        found += _narrate(state, scene, {who.key for who in mine}, gm=gm)
    return found


def _narrate(
    state: BidAndChallengeState, scene: Scene, mine: set[str], *, gm: bool
) -> list[Action]:
    """The form of the scene's latest decided round's winner, while it may still narrate."""
    rnd = None if scene.compacted else decided(scene)
    if rnd is None or rnd.resolved is None or rnd.resolved.winner not in mine:
        return []
    who = state.characters[rnd.resolved.winner]
    return [
        Action(
            command=c.Narrate,
            title=f"{who.name} narrates round {rnd.number} (won)",
            fields=[Field(name="text", label="what happens, in the winner's words")],
            fixed={"conflict": scene.key, "player": who.key},
            probe=c.Narrate(conflict=scene.key, player=who.key, text=TEXT),
            conflict=scene.key,
            gm=gm,
        )
    ]


def _gm_table(state: BidAndChallengeState) -> list[Action]:
    """The GM's controls outside a round: the session, universe cards, a character's death."""
    found = [
        Action(command=EndSession, title="End the session", probe=EndSession(), gm=True)
        if state.table.session_open
        else Action(command=StartSession, title="Start a session", probe=StartSession(), gm=True),
        Action(
            command=c.AddUniverseCard,
            title="Add a universe card",
            fields=[
                Field(name="card.name", label="card name (fate, terrain, weather, …)"),
                Field(name="card.value", label="dice value (e.g. 1d6+1)"),
            ],
            gm=True,
        ),
    ]
    dying = [k for k in sorted(state.characters) if _takes(state, c.KillCharacter(character=k))]
    if dying:
        found.append(
            Action(
                command=c.KillCharacter,
                title="A character dies for good",
                confirm="{character} dies for good? This cannot be undone.",
                fields=[
                    Field(
                        name="character",
                        label="character (Deck empty)",
                        kind="choice",
                        choices=dying,
                    ),
                    Field(name="text", label="how", required=False),
                ],
                probe=c.KillCharacter(character=dying[0]),
                gm=True,
            )
        )
    return found


def _open_scene(
    state: BidAndChallengeState, mine: Sequence[Character], *, gm: bool
) -> list[Action]:
    """A scene, asked for by one of the viewer's characters (the GM: by anyone)."""
    free = [
        k
        for k, who in sorted(state.characters.items())
        if not who.dead and not any(k in s.seating for s in state.open_scenes())
    ]
    asking = free if gm else [who.key for who in mine if who.key in free]
    if not asking:
        return []
    return [
        Action(
            command=c.OpenScene,
            title="Start a scene",
            fields=[
                Field(
                    name="seating",
                    label="seating, clockwise",
                    kind="list",
                    choices=free,
                    default=" ".join(free),
                ),
                Field(name="requested_by", label="asked for by", kind="choice", choices=asking),
                Field(
                    name="starting",
                    label="starting player (default: who asked)",
                    kind="choice",
                    choices=free,
                    required=False,
                ),
                Field(name="premise", label="premise", required=False),
                Field(name="conflict", label="scene id", required=False),
            ],
            probe=c.OpenScene(seating=free, requested_by=asking[0]),
            gm=gm,
        )
    ]


def _scene_actions(
    state: BidAndChallengeState, scene: Scene, mine: set[str], *, gm: bool
) -> list[Action]:
    rnd = scene.current
    found: list[Action] = []
    if rnd.phase == "bid" and rnd.active in mine:
        found += _bids(state, scene, state.characters[rnd.active], gm=gm)
    if rnd.phase == "challenge" and rnd.asked in mine:
        found += _challenge(state, scene, rnd, state.characters[rnd.asked], gm=gm)
    if rnd.phase == "push" and rnd.active in mine:
        found.append(_push(state, scene, rnd, gm=gm))
    found += _roll(state, scene, rnd, mine, gm=gm)
    if gm:
        found += _gm_scene(state, scene, rnd, mine)
    return found


def _pass(scene: Scene, who: Character, title: str, *, gm: bool) -> Action:
    return Action(
        command=c.Pass,
        title=title,
        fixed={"conflict": scene.key, "player": who.key},
        confirm=f"{title}? This cannot be undone.",
        probe=c.Pass(conflict=scene.key, player=who.key),
        conflict=scene.key,
        gm=gm,
    )


def _bids(state: BidAndChallengeState, scene: Scene, who: Character, *, gm: bool) -> list[Action]:
    """A bid form per power a bid may name (each form fixes its power's type and asks for the
    rest), and the pass."""
    deck = who.in_zone("deck")
    commit = deck[: state.options.min_bid]
    cards = Field(
        name="cards",
        label=f"cards from {who.name}'s Deck ({state.options.min_bid} to Flow {who.flow})",
        kind="lines",
        choices=deck,
    )
    found = [
        Action(
            command=c.Bid,
            title=f"{who.name} bids: {words}",
            fields=[Field(name="description", label="what happens on success"), cards, *asked],
            # `cards` left empty reaches the rules, which say how many a bid needs.
            fixed={"conflict": scene.key, "active": who.key, "cards": [], "power": {"type": kind}},
            probe=c.Bid(
                conflict=scene.key, active=who.key, description=TEXT, cards=commit, power=probe
            ),
            conflict=scene.key,
            gm=gm,
        )
        for kind, words, asked, probe in power_forms(state, who)
    ]
    found.append(_pass(scene, who, f"{who.name} passes", gm=gm))
    return found


def _challenge(
    state: BidAndChallengeState, scene: Scene, rnd: Round, who: Character, *, gm: bool
) -> list[Action]:
    """The challenge (and, with option challenger_power, one per power it may name) and the
    pass."""
    assert rnd.bid is not None
    limit = len(rnd.bid.cards)
    own, universe = who.in_zone("deck"), state.universe.in_zone("deck")
    asked = [
        Field(name="description", label=f"how things go if {rnd.active} fails"),
        Field(
            name="cards",
            label=f"cards from {who.name}'s Deck",
            kind="lines",
            choices=own,
            required=False,
        ),
        Field(
            name="universe",
            label=f"universe cards (at most {limit} cards in all)",
            kind="lines",
            choices=universe,
            required=False,
        ),
    ]
    probe = c.Challenge(
        conflict=scene.key,
        challenger=who.key,
        description=TEXT,
        cards=own[:1],
        universe=[] if own else universe[:1],
    )
    fixed = {"conflict": scene.key, "challenger": who.key}
    powers = power_forms(state, who) if state.options.challenger_power else []
    found = [
        Action(
            command=c.Challenge,
            title=f"{who.name} challenges",
            fields=asked,
            fixed=fixed,
            probe=probe,
            conflict=scene.key,
            gm=gm,
        ),
        *(
            Action(
                command=c.Challenge,
                title=f"{who.name} challenges: {power.words}",
                fields=asked + power.fields,
                fixed={**fixed, "power": {"type": power.kind}},
                probe=msgspec.structs.replace(probe, power=power.probe),
                conflict=scene.key,
                gm=gm,
            )
            for power in powers
        ),
    ]
    return [*found, _pass(scene, who, f"{who.name} passes the challenge", gm=gm)]


def _push(state: BidAndChallengeState, scene: Scene, rnd: Round, *, gm: bool) -> Action:
    who = state.characters[rnd.active]
    assert rnd.bid is not None
    return Action(
        command=c.Push,
        title=f"{who.name} pushes",
        fields=[
            Field(name="description", label="the bid, rewritten to answer the challenge"),
            Field(
                name="cards",
                label=f"extra cards, rotated (up to Flow {who.flow})",
                kind="lines",
                choices=who.in_zone("deck"),
                required=False,
            ),
        ],
        fixed={"conflict": scene.key, "active": who.key, "cards": []},
        probe=c.Push(conflict=scene.key, active=who.key, description=TEXT, cards=[]),
        conflict=scene.key,
        gm=gm,
    )


def _roll(
    state: BidAndChallengeState, scene: Scene, rnd: Round, mine: set[str], *, gm: bool
) -> list[Action]:
    """Managed dice: the active player's (or the GM's) roll. Recorded: the GM writes down the
    faces each side rolled at the table, card by card in the order committed."""
    if rnd.phase not in ("push", "roll") or rnd.challenge is None:
        return []
    title = "Roll the dice" + (" (no push)" if rnd.phase == "push" else "")
    if state.options.dice == "managed":
        if not (gm or rnd.active in mine):
            return []
        return [
            Action(
                command=c.Roll,
                title=title,
                fixed={"conflict": scene.key},
                probe=c.Roll(conflict=scene.key),
                conflict=scene.key,
                gm=gm,
            )
        ]
    if not gm:
        return []
    dice: dict[str, int] = {
        side: sum(state.holder(owner).cards[card].dice for owner, card in cards)
        for side, cards in side_cards(rnd).items()
    }
    return [
        Action(
            command=c.Roll,
            title="Record the dice" + (" (no push)" if rnd.phase == "push" else ""),
            fields=[
                Field(
                    name=f"{side}_faces",
                    label=f"{state.characters[who].name}'s {dice[side]} faces, card by card "
                    "in the order committed",
                    kind="list",
                )
                for side, who in (("active", rnd.active), ("challenger", rnd.challenge.challenger))
            ],
            fixed={"conflict": scene.key},
            probe=c.Roll(
                conflict=scene.key,
                active_faces=[1] * dice["active"],
                challenger_faces=[1] * dice["challenger"],
            ),
            conflict=scene.key,
            gm=True,
        )
    ]


def _gm_scene(
    state: BidAndChallengeState, scene: Scene, rnd: Round, mine: set[str]
) -> list[Action]:
    """Passing for a player the round waits for (not the GM's own: those have their forms),
    and ending the scene between rounds."""
    found = []
    turn = rnd.active if rnd.phase == "bid" else rnd.asked if rnd.phase == "challenge" else None
    if turn is not None and turn not in mine:
        who = state.characters[turn]
        words = "pass" if rnd.phase == "bid" else "pass the challenge"
        found.append(_pass(scene, who, f"{words.capitalize()} for {who.name}", gm=True))
    found.append(
        Action(
            command=c.CloseScene,
            title="End the scene",
            fields=[Field(name="reason", label="reason", required=False)],
            fixed={"conflict": scene.key},
            confirm="End the scene? This cannot be undone.",
            probe=c.CloseScene(conflict=scene.key),
            conflict=scene.key,
            gm=True,
        )
    )
    return found
