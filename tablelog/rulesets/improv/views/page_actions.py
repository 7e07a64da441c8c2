"""Improv's actions on the web page: what the viewer may do at this point of play.

A player acts for its own character (stake, card from its hand, tokens and talent, Hand of
Fate, gifts, narration, awards, redraws and bribes); the GM runs the table and acts for its
GM stakes. Core code still tries each action's probe against the rules before offering it,
and the command itself is decided and authorized when it is sent, as from any client.
"""

from __future__ import annotations

from typing import Any

from tablelog.projections.page import Action, Field, role_of
from tablelog.rules.common import EndScene, EndSession, StartScene, StartSession
from tablelog.rulesets.improv.rules import commands as c
from tablelog.rulesets.improv.rules.cards import pretty
from tablelog.rulesets.improv.rules.state import GM, Conflict, ImprovState, Side
from tablelog.rulesets.improv.views import page_sealed, page_tokens

_TEXT = "…"  # what a probe says where the person will write their own words


def actions(state: ImprovState, viewer: str | None) -> list[Action]:
    seen = viewer or GM
    role = role_of(seen)
    if role == "observer":
        return []
    if role == "gm":
        return _gm_actions(state)
    return _player_actions(state, seen)


def _gm_actions(state: ImprovState) -> list[Action]:
    found: list[Action] = list(table_actions(state))
    found.append(create_character(state, None))
    found.append(
        Action(
            command=c.OpenConflict,
            title="Open a conflict",
            fields=[
                Field(name="conflict", label="id", required=False),
                Field(name="extended", label="extended", kind="flag"),
                Field(name="rounds", label="rounds", kind="number", required=False),
            ],
            probe=c.OpenConflict(),
            gm=True,
        )
    )
    for conflict in state.open_conflicts():
        found += _gm_conflict_actions(state, conflict)
    return found


_TALENTS = Field(
    name="talents",
    label="talents (one per line, e.g. Sharp eyes)",
    kind="lines",
    required=False,
)


def create_character(state: ImprovState, player: str | None) -> Action:
    """A protagonist with its talents, one per line (`Sharp eyes` is one talent): the GM's
    for any player (those without one suggested), or a player's own."""
    if player is not None:
        return Action(
            command=c.CreateCharacter,
            title="Create your protagonist",
            fields=[Field(name="character", label="character's name"), _TALENTS],
            fixed={"player": player},
        )
    free = sorted(p for p in state.players if p != state.gm and state.character_of(p) is None)
    return Action(
        command=c.CreateCharacter,
        title="Create a protagonist",
        fields=[
            Field(name="player", label="player", choices=free),
            Field(name="character", label="character's name"),
            _TALENTS,
        ],
        gm=True,
    )


def table_actions(state: ImprovState) -> list[Action]:
    """The GM's session and scene controls, as the clock stands."""
    if state.session_open:
        found = [Action(command=EndSession, title="End the session", probe=EndSession(), gm=True)]
        if state.scene_open:
            found.append(Action(command=EndScene, title="End the scene", probe=EndScene(), gm=True))
        else:
            found.append(
                Action(
                    command=StartScene,
                    title="Start a scene",
                    fields=[Field(name="title", label="title", required=False)],
                    probe=StartScene(),
                    gm=True,
                )
            )
        return found
    return [Action(command=StartSession, title="Start a session", probe=StartSession(), gm=True)]


def _gm_conflict_actions(state: ImprovState, conflict: Conflict) -> list[Action]:
    key = conflict.key
    fixed = {"conflict": key}
    found: list[Action] = []
    stakes = [s for s in conflict.sides.values() if s.gm and s.status == "in"]
    if not conflict.stakes_closed:
        found.append(
            Action(
                command=c.SetStake,
                title="Set a GM stake",
                fields=[Field(name="side", label="stake name"), Field(name="text", label="stake")],
                fixed={**fixed, "gm": True},
                conflict=key,
                gm=True,
            )
        )
    rnd = conflict.rounds[-1] if conflict.rounds else None
    revealed = rnd is not None and rnd.revealed
    unplayed = [s.key for s in stakes if _may_play(conflict, s)]
    if unplayed:
        found += _plays(state, conflict, unplayed, GM)
    if state.options.sealed_plays:
        found += page_sealed.openings(conflict, [s.key for s in stakes], GM)
        found += page_sealed.gm_rule(conflict)
    if rnd is not None and rnd.plays and not revealed:
        on = list(rnd.plays)
        found.append(
            Action(
                command=c.PlaceBonus,
                title="Place GM tokens on a card",
                fields=[
                    Field(name="on", label="on the card of", kind="choice", choices=on),
                    Field(name="tokens", label="tokens", kind="number", default=1),
                ],
                fixed={**fixed, "by": "gm"},
                preview="public",  # the GM's supply left after placing them
                probe=c.PlaceBonus(conflict=key, on=on[0], by="gm", tokens=1),
                conflict=key,
                gm=True,
            )
        )
    found.append(
        Action(
            command=c.Reveal,
            title="Reveal the round",
            fixed=fixed,
            conflict=key,
            gm=True,
            probe=c.Reveal(conflict=key),
        )
    )
    for side in stakes:
        found += _side_actions(state, conflict, side, gm=True)
    found.append(
        Action(
            command=c.Close,
            title="Close the conflict",
            fixed=fixed,
            confirm="Close the conflict? Its outcome stands as it is; this cannot be undone.",
            preview="public",
            conflict=key,
            gm=True,
            probe=c.Close(conflict=key),
        )
    )
    found.append(
        Action(
            command=c.Abandon,
            title="Abandon the conflict",
            fields=[Field(name="reason", label="reason")],
            fixed=fixed,
            confirm="Abandon the conflict? Nobody wins it; this cannot be undone.",
            probe=c.Abandon(conflict=key, reason=_TEXT),
            conflict=key,
            gm=True,
        )
    )
    return found


def _may_play(conflict: Conflict, side: Side) -> bool:
    """Whether `side` has a card to play: in the round under way, or in the next one."""
    if side.status != "in":
        return False
    rnd = conflict.rounds[-1] if conflict.rounds else None
    if rnd is None:
        return True
    if not rnd.revealed:
        return side.key not in rnd.plays
    more = conflict.kind == "extended" and rnd.number < conflict.planned_rounds
    return more and not rnd.fate.choices_due


def _plays(state: ImprovState, conflict: Conflict, sides: list[str], owner: str) -> list[Action]:
    if state.options.sealed_plays:  # the card stays in the browser: see page_sealed
        return page_sealed.sealed_plays(conflict, sides, owner)
    return [_play(state, conflict, sides, owner)]


def _play(state: ImprovState, conflict: Conflict, sides: list[str], owner: str) -> Action:
    """Play a card face down: from the hand (managed) or as the table dealt it (recorded)."""
    key = conflict.key
    hand = state.hands.get(owner, []) if state.managed else []
    fields = [Field(name="side", label="side", kind="choice", choices=sides)]
    if len(sides) == 1:
        fields = []
    fixed: dict[str, Any] = {"conflict": key}
    if len(sides) == 1:
        fixed["side"] = sides[0]
    if state.managed:
        fields.append(
            Field(
                name="card",
                label="card from your hand",
                kind="choice",
                choices=hand,
                shown=[pretty(card) for card in hand],
                required=owner != GM,
            )
        )
        if owner == GM:
            fields.append(Field(name="from_deck", label="blind from the GM deck", kind="flag"))
    else:
        fields.append(Field(name="card", label="card (e.g. QH, 10S, JK)"))
    probe = c.PlayCard(
        conflict=key,
        side=sides[0],
        card=(hand[0] if hand else None) if state.managed else "2C",
        from_deck=state.managed and owner == GM and not hand,
    )
    return Action(
        command=c.PlayCard,
        title="Play a card face down",
        fields=fields,
        fixed=fixed,
        probe=probe,
        conflict=key,
        gm=owner == GM,
    )


def _side_actions(state: ImprovState, conflict: Conflict, side: Side, *, gm: bool) -> list[Action]:
    """Hand of Fate, gifts and narration for one side the viewer acts for."""
    key = conflict.key
    fixed = {"conflict": key, "side": side.key}
    found: list[Action] = []
    rnd = conflict.rounds[-1] if conflict.rounds else None
    if rnd is not None and rnd.revealed:
        if side.key in rnd.fate.choices_due:
            found.append(
                Action(
                    command=c.Fate,
                    title=f"Hand of Fate: {side.display} chooses",
                    fields=[
                        Field(
                            name="choice",
                            label="choice",
                            kind="choice",
                            choices=["eliminate", "stay"],
                        )
                    ],
                    fixed=fixed,
                    probe=c.Fate(conflict=key, side=side.key, choice="stay"),
                    conflict=key,
                    gm=gm,
                )
            )
        tied = any(side.key in pair for pair in rnd.fate.pending)
        if tied and not state.managed:
            found.append(
                Action(
                    command=c.Fate,
                    title=f"Hand of Fate: {side.display}'s tie-breaker card",
                    fields=[Field(name="draw", label="card drawn")],
                    fixed=fixed,
                    conflict=key,
                    gm=gm,
                )
            )
    own = [p.card for p in side.victory if p.own or side.status == "destroyed"]
    if conflict.kind == "extended" and own:
        receivers = [s.key for s in conflict.sides.values() if s.key != side.key]
        found.append(
            Action(
                command=c.Give,
                title=f"Give one of {side.display}'s victory cards",
                fields=[
                    Field(
                        name="card",
                        label="card",
                        kind="choice",
                        choices=own,
                        shown=[pretty(card) for card in own],
                    ),
                    Field(name="receiver", label="to", kind="choice", choices=receivers),
                ],
                fixed={"conflict": key, "giver": side.key},
                confirm="Give {card} to {receiver}? This cannot be undone.",
                probe=c.Give(conflict=key, giver=side.key, receiver=receivers[0], card=own[0])
                if receivers
                else None,
                conflict=key,
                gm=gm,
            )
        )
    found.append(
        Action(
            command=c.Narrate,
            title=f"Narrate for {side.display}",
            fields=[
                Field(name="text", label="narration"),
                Field(name="final", label="final narration", kind="flag"),
            ],
            fixed=fixed,
            probe=c.Narrate(conflict=key, side=side.key, text=_TEXT),
            conflict=key,
            gm=gm,
        )
    )
    return found


def _player_actions(state: ImprovState, player: str) -> list[Action]:
    character = state.character_of(player)
    if character is None:
        return [create_character(state, player)]
    found: list[Action] = []
    others = sorted(p for p in state.players if p not in (player, state.gm))
    for conflict in state.open_conflicts():
        key = conflict.key
        fixed = {"conflict": key}
        side = conflict.sides.get(character.key)
        if side is None and not conflict.stakes_closed:
            opposable = [s.key for s in conflict.sides.values()]
            found.append(
                Action(
                    command=c.SetStake,
                    title=f"Set {character.display}'s stake",
                    fields=[
                        Field(name="text", label="stake"),
                        Field(name="opposes", label="opposes", kind="choice", choices=opposable),
                    ],
                    fixed={**fixed, "side": character.key},
                    probe=c.SetStake(
                        conflict=key, side=character.key, text=_TEXT, opposes=opposable[0]
                    )
                    if opposable
                    else None,
                    conflict=key,
                )
            )
        rnd = conflict.rounds[-1] if conflict.rounds else None
        revealed = rnd is not None and rnd.revealed
        if side is not None and _may_play(conflict, side):
            found += _plays(state, conflict, [side.key], player)
        if side is not None and state.options.sealed_plays:
            found += page_sealed.openings(conflict, [side.key], player)
        if rnd is not None and rnd.plays and not revealed:
            on = list(rnd.plays)
            found.append(
                Action(
                    command=c.PlaceBonus,
                    title="Place story-tokens on a card",
                    fields=[
                        Field(name="on", label="on the card of", kind="choice", choices=on),
                        Field(name="tokens", label="tokens", kind="number", default=1),
                    ],
                    fixed={**fixed, "by": character.key},
                    preview="public",  # tokens spent for good: say how many are left
                    probe=c.PlaceBonus(conflict=key, on=on[0], by=character.key, tokens=1),
                    conflict=key,
                )
            )
            talents = list(character.talents.values())
            if talents:
                first = character.key if character.key in rnd.plays else on[0]
                found.append(
                    Action(
                        command=c.PlaceBonus,
                        title=f"Use a talent of {character.display}",
                        fields=[
                            Field(
                                name="on",
                                label="on the card of",
                                kind="choice",
                                choices=[first, *(o for o in on if o != first)],
                            ),
                            Field(name="talent", label="talent", kind="choice", choices=talents),
                            Field(
                                name="assist", label="how it helps (another's card)", required=False
                            ),
                        ],
                        fixed={**fixed, "by": character.key},
                        probe=c.PlaceBonus(
                            conflict=key,
                            on=first,
                            by=character.key,
                            talent=talents[0],
                            assist=None if first == character.key else _TEXT,
                        ),
                        conflict=key,
                    )
                )
        if side is not None:
            found += _side_actions(state, conflict, side, gm=False)
        if others:
            found.append(page_tokens.award(key, player, others))
    if others and not state.open_conflicts():
        found.append(page_tokens.award(None, player, others))
    found += page_tokens.spends(state, player)
    return found
