"""Deciding a conflict's set-up and play: open, stakes, face-down cards, bonuses."""

from __future__ import annotations

import re

from tablelog.errors import AlreadyExists, InvalidInput, RuleViolation
from tablelog.events.base import Event
from tablelog.rulesets.improv.events import BonusPlaced, ConflictOpened, StakeSet
from tablelog.rulesets.improv.rules import lookup
from tablelog.rulesets.improv.rules.commands import OpenConflict, PlaceBonus, SetStake
from tablelog.rulesets.improv.rules.state import GM, Conflict, ImprovState, Round, Side

_CONFLICT_ID = re.compile(r"[a-z0-9][a-z0-9._-]{0,31}")
MAX_ROUNDS = 20


def open_conflict(state: ImprovState, cmd: OpenConflict) -> list[Event]:
    lookup.require_session(state)
    if cmd.conflict is not None:
        key = cmd.conflict.strip().lower()
        if not _CONFLICT_ID.fullmatch(key):
            raise InvalidInput(
                f"conflict id {cmd.conflict!r} is not allowed; use 1 to 32 letters a-z, digits, "
                "'.', '_' or '-'",
                code="bad-name",
            )
        if key in state.conflicts or key in state.archive:
            raise AlreadyExists(f"conflict {key} already exists")
    else:
        number = len(state.conflicts) + len(state.archive) + 1
        while f"c{number}" in state.conflicts or f"c{number}" in state.archive:
            number += 1
        key = f"c{number}"
    if cmd.rounds is not None and not cmd.extended:
        raise InvalidInput("--rounds applies to an --extended conflict", code="rounds-simple")
    rounds = 1
    if cmd.extended:
        rounds = state.options.extended_rounds if cmd.rounds is None else cmd.rounds
        if not 1 <= rounds <= MAX_ROUNDS:
            raise InvalidInput(
                f"an extended conflict has 1 to {MAX_ROUNDS} rounds; got {rounds}",
                code="bad-rounds",
            )
        hand = state.options.player_hand
        if state.managed and rounds > hand:
            raise RuleViolation(
                f"with managed decks a player holds {hand} cards and hands are not refilled "
                f"between rounds, so a conflict may have at most {hand} rounds; {rounds} asked",
                code="bad-rounds",
            )
    return [
        ConflictOpened(
            conflict=key,
            kind="extended" if cmd.extended else "simple",
            rounds=rounds,
            gm_tokens_at_open=state.ledger.gm,
        )
    ]


def set_stake(state: ImprovState, cmd: SetStake) -> list[Event]:
    conflict = lookup.conflict(state, cmd.conflict)
    if conflict.stakes_closed:
        raise RuleViolation(
            f"the first card of conflict {conflict.key} is down; no stake may be set after it",
            code="stakes-closed",
        )
    key = lookup.key(cmd.side, "side name")
    text = lookup.text_of(cmd.text, "a stake")
    # Before the first card a side may set its stake again (to fix it, or to name an opponent
    # staked after it); the newer stake replaces the older.
    previous = conflict.sides.get(key)
    if previous is not None and previous.gm != cmd.gm:
        kind = "a GM stake" if previous.gm else "a protagonist's stake"
        raise AlreadyExists(f"{cmd.side} already holds {kind} in conflict {conflict.key}")
    if cmd.gm:
        if key in state.characters or key in (GM, state.gm):
            raise RuleViolation(
                f"{cmd.side!r} is a protagonist or the GM; a GM stake needs its own name "
                "(e.g. riso, goons)",
                code="gm-stake-name",
            )
        if cmd.opposes is not None:
            raise RuleViolation(
                "GM stakes oppose no one directly (protagonists oppose them); drop --opposes",
                code="gm-stake-opposes",
            )
        return [
            StakeSet(conflict=conflict.key, side=key, display=cmd.side.strip(), gm=True, text=text)
        ]
    character = state.characters.get(key)
    if character is None:
        raise RuleViolation(
            f"{cmd.side!r} is not a character; a protagonist's stake names its character, "
            "and a GM stake needs --gm",
            code="unknown-character",
        )
    opposes = _opponent(conflict, key, cmd.opposes) if cmd.opposes is not None else None
    return [
        StakeSet(
            conflict=conflict.key,
            side=key,
            display=character.display,
            gm=False,
            text=text,
            opposes=opposes,
            player=character.player,
        )
    ]


def _opponent(conflict: Conflict, key: str, given: str) -> str:
    target = lookup.side(conflict, given)
    if target.key == key:
        raise RuleViolation(f"{given} cannot oppose itself", code="opposes-self")
    return target.key


def place_bonus(state: ImprovState, cmd: PlaceBonus) -> list[Event]:
    conflict = lookup.conflict(state, cmd.conflict)
    rnd = conflict.current
    if rnd is None or rnd.revealed:
        raise RuleViolation(
            f"bonuses go on face-down cards before the reveal; conflict {conflict.key} has "
            "none waiting",
            code="bonus-timing",
        )
    # A bonus goes on any card already in play, face down, before the reveal: it need not
    # wait for every card (the seed's GM lays a card and a token before Susan plays: a bluff).
    on = lookup.side(conflict, cmd.on)
    if on.key not in rnd.plays:
        raise RuleViolation(
            f"{on.display} has no card down in round {rnd.number} yet; a bonus goes on a card "
            "already in play",
            code="no-card",
        )
    if (cmd.tokens > 0) == (cmd.talent is not None):
        raise InvalidInput("place either story-tokens or one talent-marker", code="bonus-kind")
    by = lookup.key(cmd.by, "--by name") if cmd.by is not None else on.key if not on.gm else GM
    if by == state.gm:
        by = GM
    if cmd.tokens > 0:
        return [_tokens(state, conflict, rnd, on, by, cmd.tokens, cmd.by)]
    return [_talent(state, conflict, rnd, on, by, cmd.talent or "", cmd.assist)]


def gm_token_cap(state: ImprovState, conflict: Conflict) -> tuple[int, int]:
    """(the GM's limit for the conflict, what it held at the open): it may spend the lower."""
    players, o = len(conflict.participating_players()), state.options
    if conflict.kind == "simple":
        limit = o.gm_limit_simple_base + players
    else:
        extra_rounds = max(0, conflict.planned_rounds - o.gm_limit_base_rounds)
        limit = (
            o.gm_limit_extended_base
            + o.gm_limit_extended_per_player * players
            + o.gm_limit_per_extra_round * extra_rounds
        )
    return limit, conflict.gm_tokens_at_open


def _tokens(
    state: ImprovState,
    conflict: Conflict,
    rnd: Round,
    on: Side,
    by: str,
    count: int,
    given: str | None,
) -> BonusPlaced:
    if by == GM:
        limit, held_at_open = gm_token_cap(state, conflict)
        cap = min(limit, held_at_open)
        wanted = conflict.gm_spent + count
        if wanted > cap:
            why = (
                f"its limit is {limit}"
                if limit <= held_at_open
                else f"it held {held_at_open} when the conflict opened"
            )
            raise RuleViolation(
                f"the GM may spend {cap} token(s) in conflict {conflict.key} ({why}); "
                f"{wanted} requested",
                code="gm-token-limit",
            )
        payer = GM
    else:
        character = lookup.character(state, given or by)
        by, payer = character.key, character.player
    held = state.ledger.held(payer)
    if held < count:
        who = "the GM" if payer == GM else payer
        raise RuleViolation(
            f"{who} holds {held} story-token(s); {count} requested", code="no-token"
        )
    return BonusPlaced(
        conflict=conflict.key,
        round=rnd.number,
        on=on.key,
        by=by,
        player=payer,
        kind="token",
        count=count,
    )


def _talent(
    state: ImprovState,
    conflict: Conflict,
    rnd: Round,
    on: Side,
    by: str,
    talent: str,
    assist: str | None,
) -> BonusPlaced:
    if by == GM:
        raise RuleViolation(
            "the GM has no talents; talent-markers are the players'", code="gm-talent"
        )
    character = lookup.character(state, by)
    name = lookup.talent(character, talent)
    own_side = conflict.sides.get(character.key)
    if own_side is not None and own_side.status == "destroyed":
        raise RuleViolation(
            f"{character.display} is destroyed and may only spend tokens", code="destroyed"
        )
    used_here = [
        b
        for r in (conflict.rounds if conflict.kind == "simple" else [rnd])
        for b in r.bonuses
        if b.kind == "talent" and b.by == character.key
    ]
    if used_here:
        scope = "conflict" if conflict.kind == "simple" else f"round {rnd.number}"
        raise RuleViolation(
            f"{character.display} already used a talent in this {scope}; one talent per "
            f"player per {'simple conflict' if conflict.kind == 'simple' else 'round'}",
            code="talent-once",
        )
    cap = state.options.talent_uses_per_session
    if character.used + 1 > cap:
        raise RuleViolation(
            f"{character.display} has used {character.used} of {cap} talent uses this session; "
            "1 more requested",
            code="talent-cap",
        )
    assist_text = None
    if on.key != character.key:
        if assist is None or not assist.strip():
            raise RuleViolation(
                f"a talent on {on.display}'s card (not {character.display}'s own) needs --assist "
                "saying how the character is in a position to help",
                code="assist-required",
            )
        assist_text = lookup.text_of(assist, "--assist")
    return BonusPlaced(
        conflict=conflict.key,
        round=rnd.number,
        on=on.key,
        by=character.key,
        player=character.player,
        kind="talent",
        talent=name,
        assist=assist_text,
    )
