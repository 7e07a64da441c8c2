"""Night Terrors' actions on the web page: what the viewer may do at this point of play.

A player acts for its own characters (the GM for its NPCs): raise when it is their raise,
see, push, escalate or give when they owe an answer, pay a cost, record a draw, discard or
refresh at a hand reset, open a conflict as its aggressor, narrate an outcome they won. The
GM also runs the table: sessions, scenes, characters, conflicts, recorded draws, abandoning a
conflict. This module only proposes: core code tries each action's probe against the rules
(authority and `decide`, on the state now) and offers only those they would take.
"""

from __future__ import annotations

from typing import Any

from tablelog.projections.page import Action, Field, role_of
from tablelog.rules.common import EndScene, EndSession, StartScene, StartSession
from tablelog.rules.table import GM
from tablelog.rulesets.night_terrors.rules import commands as c
from tablelog.rulesets.night_terrors.rules import flow
from tablelog.rulesets.night_terrors.rules.cards import (
    FACES,
    PAID_IN,
    SUIT_NAMES,
    SUITS,
    TYPE_OF,
    TYPES,
    best_cards,
    n_cards,
)
from tablelog.rulesets.night_terrors.rules.state import Character, Conflict, NightTerrorsState
from tablelog.rulesets.night_terrors.views.page_panels import last_ended, pretty

_TEXT = "…"  # what a probe says where the person will write their own words
_KINDS = list(TYPES)
_KINDS_SHOWN = [f"{kind} ({SUIT_NAMES[suit]})" for kind, suit in TYPES.items()]


def actions(state: NightTerrorsState, viewer: str | None) -> list[Action]:
    seen = viewer or GM
    role = role_of(seen)
    if role == "observer":
        return []
    gm = role == "gm"
    owner = state.gm if gm else seen
    mine = [ch for ch in state.characters.values() if ch.player == owner]
    found: list[Action] = _gm_table(state) if gm else []
    if not mine and not gm:
        found.append(_create(state, player=seen))
    for conflict in state.open_conflicts():
        for ch in mine:
            if ch.key in conflict.still_in:
                found += _in_conflict(state, conflict, ch, gm=gm)
        if gm:
            found.append(
                Action(
                    command=c.Abandon,
                    title="Abandon the conflict (nobody wins)",
                    confirm="Abandon the conflict? Nobody wins it; this cannot be undone.",
                    fields=[Field(name="reason", label="reason")],
                    fixed={"conflict": conflict.key},
                    probe=c.Abandon(conflict=conflict.key, reason=_TEXT),
                    conflict=conflict.key,
                    gm=True,
                )
            )
    last = last_ended(state)
    for ch in mine:
        found += _between(state, ch, gm=gm)
        if last is not None and ch.key in last.opened.participants:
            found.append(_narrate(last, ch, gm=gm))
    if gm:  # the GM deals: it records any character's draw
        others = [ch for ch in state.characters.values() if ch not in mine]
        found += [d for d in (_draw(state, ch, gm=True) for ch in others) if d is not None]
    opening = _open(state, mine, gm=gm)
    if opening is not None:
        found.append(opening)
    return found


def _gm_table(state: NightTerrorsState) -> list[Action]:
    """The GM's session and scene controls as the clock stands, and a new character."""
    table = state.table
    found: list[Action] = []
    if table.session_open:
        found.append(
            Action(command=EndSession, title="End the session", probe=EndSession(), gm=True)
        )
        if table.scene_open:
            found.append(Action(command=EndScene, title="End the scene", probe=EndScene(), gm=True))
        else:
            found.append(
                Action(
                    command=StartScene,
                    title="Start a scene (hands reset)",
                    fields=[Field(name="title", label="title", required=False)],
                    probe=StartScene(),
                    gm=True,
                )
            )
    else:
        found.append(
            Action(
                command=StartSession,
                title="Start a session (hands dealt)",
                probe=StartSession(),
                gm=True,
            )
        )
    found.append(_create(state, player=None))
    return found


def _create(state: NightTerrorsState, player: str | None) -> Action:
    """A character and its face card, from the face cards nobody is yet."""
    taken = {ch.rank + ch.suit for ch in state.characters.values()}
    free = [f"{r}{s}" for s in SUITS for r in FACES if f"{r}{s}" not in taken]
    fields = [] if player else [Field(name="player", label="player (gm for an NPC)")]
    fields += [
        Field(name="character", label="character's name"),
        Field(
            name="card",
            label="face card",
            kind="choice",
            choices=free,
            shown=[pretty(code) for code in free],
        ),
    ]
    return Action(
        command=c.CreateCharacter,
        title="Create your character" if player else "Create a character",
        fields=fields,
        fixed={"player": player} if player else {},
        gm=player is None,
    )


def _cards(hand: list[str], label: str, *, required: bool = True) -> Field:
    # Each card shown as a player reads it (J♠), sent as its code (JS).
    return Field(
        name="cards",
        label=label,
        kind="list",
        choices=hand,
        shown=[pretty(card) for card in hand],
        required=required,
    )


_NARRATION = Field(name="narration", label="narration", required=False)


def _in_conflict(
    state: NightTerrorsState, conflict: Conflict, ch: Character, *, gm: bool
) -> list[Action]:
    """A character's moves in an exchange: its raise, or its answer to one, and giving."""
    key = conflict.key
    fixed: dict[str, Any] = {"conflict": key, "character": ch.key}
    hand = list(ch.hand)
    mine = f"cards from {ch.display}'s hand"

    def action(
        command: type[c.Raise | c.See | c.Push | c.Escalate | c.Give],
        title: str,
        fields: list[Field],
        probe: c.Raise | c.See | c.Push | c.Escalate | c.Give,
    ) -> Action:
        # Giving leaves the conflict for good; pushing and escalating cost what they cost.
        return Action(
            command=command,
            title=title,
            fields=fields,
            fixed=fixed,
            probe=probe,
            confirm=f"{title}? This cannot be undone." if command is c.Give else "",
            preview="public" if command in (c.Push, c.Escalate, c.Give) else "",
            conflict=key,
            gm=gm,
        )

    held = f"; 3 with the held {pretty(ch.held)}" if ch.held else ""
    found = [
        action(
            c.Raise,
            f"{ch.display} raises",
            [_cards(hand, f"2 {mine}{held}"), _NARRATION],
            c.Raise(conflict=key, character=ch.key, cards=hand[:2]),
        ),
        action(
            c.See,
            f"{ch.display} sees the raise",
            [_cards(hand, mine), _NARRATION],
            c.See(conflict=key, character=ch.key, cards=best_cards(hand, state.options)),
        ),
        action(
            c.Push,
            f"{ch.display} pushes (pays the difference)",
            [_cards(hand, f"{mine}, if any", required=False), _NARRATION],
            c.Push(conflict=key, character=ch.key),
        ),
    ]
    higher = list(SUITS[SUITS.index(conflict.trump) + 1 :])
    if higher:
        found.append(
            action(
                c.Escalate,
                f"{ch.display} escalates (everyone draws)",
                [
                    Field(
                        name="to",
                        label="to",
                        kind="choice",
                        choices=[TYPE_OF[s] for s in higher],
                        shown=[f"{TYPE_OF[s]} ({SUIT_NAMES[s]})" for s in higher],
                    )
                ],
                c.Escalate(conflict=key, character=ch.key),
            )
        )
    found.append(
        action(
            c.Give,
            f"{ch.display} gives (leaves the conflict)",
            [],
            c.Give(conflict=key, character=ch.key),
        )
    )
    return found


def _between(state: NightTerrorsState, ch: Character, *, gm: bool) -> list[Action]:
    """What a character owes outside the exchange: a cost, a recorded draw, a discard or a
    refresh at a hand reset."""
    found: list[Action] = []
    owed = state.costs.get(ch.key)
    if owed:
        cost = owed[0]
        pools = PAID_IN[state.conflicts[cost.conflict].trump]
        found.append(
            Action(
                command=c.Pay,
                title=f"{ch.display} pays {cost.amount} ({cost.cause.replace('_', ' ')}) in "
                + " or ".join(p.capitalize() for p in pools),
                fields=[
                    Field(
                        name=pool,
                        label=pool.capitalize(),
                        kind="number",
                        required=False,
                        default=cost.amount if pool == pools[0] else 0,
                    )
                    for pool in ("blood", "sweat", "tears")
                ],
                fixed={"character": ch.key},
                preview="public",  # what is left in each pool after paying
                # All of it from the first pool the trump allows: a payment the rules take.
                probe=c.Pay(
                    character=ch.key,
                    blood=cost.amount if pools[0] == "blood" else 0,
                    sweat=cost.amount if pools[0] == "sweat" else 0,
                    tears=cost.amount if pools[0] == "tears" else 0,
                ),
                conflict=cost.conflict,
                gm=gm,
            )
        )
    draw = _draw(state, ch, gm=gm)
    if draw is not None:
        found.append(draw)
    hand = list(ch.hand)
    discards = state.discards.get(ch.key)
    if discards:
        found.append(
            Action(
                command=c.Discard,
                title=f"{ch.display} discards down to {state.options.hand_size}",
                fields=[_cards(hand, f"{n_cards(discards)} from {ch.display}'s hand")],
                fixed={"character": ch.key},
                probe=c.Discard(character=ch.key, cards=hand[:discards]),
                gm=gm,
            )
        )
    if state.refresh_open and hand:
        found.append(
            Action(
                command=c.Refresh,
                title=f"{ch.display} refreshes (discard any, draw back up)",
                fields=[_cards(hand, f"cards from {ch.display}'s hand to discard")],
                fixed={"character": ch.key},
                probe=c.Refresh(character=ch.key, cards=hand[:1]),
                gm=gm,
            )
        )
    return found


def _draw(state: NightTerrorsState, ch: Character, *, gm: bool) -> Action | None:
    """A recorded deck: the cards the table dealt a character. No choices: the cards left in
    the deck would tell what the other hands hold."""
    owed = state.draws.get(ch.key)
    if owed is None or state.options.deck != "recorded":
        return None
    pile = [*state.deck, *state.set_aside]
    return Action(
        command=c.Draw,
        title=f"Record the {n_cards(owed.count)} {ch.display} drew ({owed.reason})",
        fields=[
            Field(
                name="cards", label="cards dealt (rank then suit: 10 of Hearts is 10H)", kind="list"
            )
        ],
        fixed={"character": ch.key},
        # Any cards still in the deck will do: the probe asks only whether the draw is due.
        probe=c.Draw(character=ch.key, cards=pile[: owed.count]),
        conflict=owed.conflict,
        gm=gm,
    )


def _narrate(conflict: Conflict, ch: Character, *, gm: bool) -> Action:
    return Action(
        command=c.Narrate,
        title=f"{ch.display} narrates the outcome",
        fields=[Field(name="text", label="narration")],
        fixed={"conflict": conflict.key, "character": ch.key},
        probe=c.Narrate(conflict=conflict.key, character=ch.key, text=_TEXT),
        conflict=conflict.key,
        gm=gm,
    )


def _open(state: NightTerrorsState, mine: list[Character], *, gm: bool) -> Action | None:
    """A conflict with one of the viewer's characters as the aggressor (the GM: anyone).
    The probe names characters in no conflict now, so that one busy character does not
    hide the form from the others."""
    aggressors = [ch.key for ch in (state.characters.values() if gm else mine)]
    if not aggressors:
        return None
    free = [k for k in state.characters if flow.conflict_of(state, k) is None]
    first = next((k for k in aggressors if k in free), aggressors[0])
    others = [k for k in free if k != first]
    return Action(
        command=c.OpenConflict,
        title="Open a conflict",
        fields=[
            Field(
                name="aggressor",
                label="aggressor (raises first)",
                kind="choice",
                choices=aggressors,
            ),
            Field(name="others", label="the others taking part", kind="list", choices=others),
            Field(name="kind", label="kind", kind="choice", choices=_KINDS, shown=_KINDS_SHOWN),
            Field(name="stakes", label="what is at stake", required=False),
            Field(name="place", label="where", required=False),
            Field(name="approach", label="how", required=False),
            Field(name="conflict", label="id", required=False),
        ],
        probe=c.OpenConflict(aggressor=first, others=others[:1], kind=_KINDS[0]),
        gm=gm,
    )
