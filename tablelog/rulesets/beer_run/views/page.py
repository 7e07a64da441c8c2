"""Beer Run on the web page: each open conflict as its `show` tells it (a pool hidden until
it is rolled stays hidden), the characters' dice and Intensity, and the actions the round's
phase opens for the viewer's own characters: a goal, a pool, a roll, pips, a cede; the GM's
difficulty pools and the conflict's end for the GM. Core code probes each against the rules
before offering it."""

from __future__ import annotations

from tablelog.projections.page import Action, Field, Grid, Panel, clock_actions, role_of
from tablelog.rules.table import GM
from tablelog.rulesets.beer_run.rules import commands as c
from tablelog.rulesets.beer_run.rules import flow
from tablelog.rulesets.beer_run.rules.state import BeerRunState, Character, Conflict, Round
from tablelog.rulesets.beer_run.views import awaiting, page_sealed, story, text, views
from tablelog.rulesets.beer_run.views.page_setup import create_character, pips_fields, player_setup

_TEXT = "…"  # what a probe says where the person will write their own words


def panels(state: BeerRunState, viewer: str | None) -> list[Panel]:
    seen = viewer or GM
    found = []
    # The open conflicts, then the one ended last, shown as it ended.
    ended = [c for c in state.conflicts.values() if c.status == "ended"]
    for conflict in [*state.open_conflicts(), *ended[-1:]]:
        shown = views.show_view(state, conflict, seen)
        now = flow.phase(state, conflict)
        closed = conflict.status == "ended"
        found.append(
            Panel(
                key=f"conflict-{conflict.key}",
                title=f"Conflict {conflict.key}" + (" (ended)" if closed else ""),
                facts=[
                    ("round", str(len(conflict.rounds) or 1)),
                    ("phase", flow.phase_words(now)),
                    *((side, ", ".join(m)) for side, m in conflict.sides.items()),
                ],
                lines=text.conflict_lines(shown),
                waiting=awaiting.waiting_line(state, conflict),
                conflict=conflict.key,
                result=story.result(state, shown, seen),
                story=story.story(state, shown, seen),
                closed=closed,
            )
        )
    characters = [views.character_view(state, c, seen) for _, c in sorted(state.characters.items())]
    found.append(
        Panel(
            key="characters",
            title="Characters",
            grid=Grid(
                header=["Character", "Player", "Intensity", "Dice"],
                rows=[
                    [
                        ch["name"],
                        ch["player"],
                        str(ch["intensity"]),
                        ", ".join(f"{a['name']} d{a['size']}" for a in ch["abilities"].values())
                        + (" (dead)" if ch["dead"] else ""),
                    ]
                    for ch in characters
                ],
            ),
        )
    )
    return found


def _mine(state: BeerRunState, viewer: str) -> list[Character]:
    gm = role_of(viewer) == "gm"
    return [
        ch
        for ch in state.characters.values()
        if ch.player == viewer or (gm and ch.player in (GM, state.gm))
    ]


def actions(state: BeerRunState, viewer: str | None) -> list[Action]:
    seen = viewer or GM
    role = role_of(seen)
    if role == "observer":
        return []
    found: list[Action] = []
    if role == "gm":
        found += clock_actions(state.session_open, state.scene_open)
        found.append(create_character(state, None))
        found.append(
            Action(
                command=c.OpenConflict,
                title="Open a conflict",
                fields=[
                    Field(
                        name="sides",
                        label="sides (side: character character; side: …)",
                        kind="groups",
                        default=_sides(state),
                    ),
                    Field(name="conflict", label="id", required=False),
                ],
                gm=True,
            )
        )
        found += _gm_characters(state)
    else:
        found += player_setup(state, seen)
    mine = _mine(state, seen)
    for conflict in state.open_conflicts():
        found += _conflict_actions(state, conflict, mine, gm=role == "gm")
    return found


def _conflict_actions(
    state: BeerRunState, conflict: Conflict, mine: list[Character], *, gm: bool
) -> list[Action]:
    key = conflict.key
    now = flow.phase(state, conflict)
    rnd = conflict.current if conflict.rounds else None
    found: list[Action] = []
    inside = [ch for ch in mine if ch.key in flow.active(state, conflict)]
    for ch in inside:
        fixed = {"conflict": key, "actor": ch.key}
        side = conflict.side_of(ch.key)
        opponents = [
            m
            for s, ms in conflict.sides.items()
            if s != side
            for m in ms
            if m in flow.active(state, conflict)
        ]
        if now in ("goals", "done") and (rnd is None or now == "done" or ch.key not in rnd.goals):
            abilities = list(state.characters[opponents[0]].abilities) if opponents else []
            found.append(
                Action(
                    command=c.DeclareGoal,
                    title=f"State {ch.display}'s goal",
                    fields=[
                        Field(name="text", label="goal"),
                        Field(
                            name="kind",
                            label="kind",
                            kind="choice",
                            choices=["standard", "helping", "situational"],
                        ),
                        Field(
                            name="against",
                            label="against",
                            kind="choice",
                            choices=opponents,
                            required=False,
                        ),
                        Field(
                            name="ability",
                            label="ability it would zero",
                            required=False,
                            choices=abilities,
                        ),
                        Field(name="ally", label="ally (helping)", required=False),
                        Field(
                            name="die", label="die sought (helping, situational)", required=False
                        ),
                    ],
                    fixed=fixed,
                    probe=c.DeclareGoal(
                        conflict=key,
                        actor=ch.key,
                        text=_TEXT,
                        against=opponents[0] if opponents else None,
                    ),
                    conflict=key,
                    gm=gm,
                )
            )
        if now in ("helping", "pools") and rnd is not None and ch.key in rnd.goals:
            base = _base(ch)
            fields = [
                Field(
                    name="base",
                    label="base pool (one ability per category)",
                    kind="list",
                    default=" ".join(base),
                    choices=list(ch.abilities),
                ),
                Field(
                    name="extras",
                    label="extra dice (1, 2, 3… Intensity each)",
                    kind="list",
                    required=False,
                    choices=list(ch.abilities),
                ),
            ]
            found.append(
                page_sealed.sealed_buy(state, conflict, ch, fields, gm)
                or Action(
                    command=c.AssemblePool,
                    title=f"Buy {ch.display}'s pool",
                    fields=fields,
                    fixed=fixed,
                    # Its price in Intensity before it is paid: the buyer's own choice on
                    # the table as it stands, nothing drawn.
                    preview="own",
                    probe=c.AssemblePool(conflict=key, actor=ch.key, base=base),
                    conflict=key,
                    gm=gm,
                )
            )
        if now in ("helping", "rolling") and rnd is not None and ch.key in rnd.pools:
            recorded = state.options.dice == "recorded"
            found.append(
                Action(
                    command=c.Roll,
                    title=f"Roll {ch.display}'s pool",
                    fields=[
                        Field(
                            name="values", label="faces rolled, in the pool's order", kind="numbers"
                        )
                    ]
                    if recorded
                    else [],
                    fixed=fixed,
                    probe=None if recorded else c.Roll(conflict=key, actor=ch.key),
                    conflict=key,
                    gm=gm,
                )
            )
        if now == "done":
            found.append(
                Action(
                    command=c.Cede,
                    title=f"{ch.display} cedes",
                    fixed=fixed,
                    confirm=f"{ch.display} cedes? This cannot be undone.",
                    preview="public",
                    probe=c.Cede(conflict=key, actor=ch.key),
                    conflict=key,
                    gm=gm,
                )
            )
    if now == "effects" and rnd is not None:
        found += _allocation(state, conflict, rnd, {ch.key for ch in mine}, gm=gm)
    found += page_sealed.openings(state, conflict, inside, gm)
    if gm:
        found += page_sealed.gm_rule(state, conflict)
        found += _gm_controls(state, conflict, now)
    return found


def _allocation(
    state: BeerRunState, conflict: Conflict, rnd: Round, mine: set[str], *, gm: bool
) -> list[Action]:
    """The pips the round waits for next, if they are the viewer's to allocate (a character
    killed in these effects still allocates: its roll was simultaneous)."""
    for compared, who in flow.owed(state, rnd)[:1]:
        if who not in mine:
            return []
        target = state.characters[compared.opponent(who)]
        return [
            Action(
                command=c.Allocate,
                title=f"{state.characters[who].display}: allocate "
                f"{flow.required_pips(state, compared, who)} pip(s) off {target.display}'s dice",
                fields=pips_fields(target),
                fixed={"conflict": conflict.key, "by": who, "against": target.key},
                conflict=conflict.key,
                gm=gm,
            )
        ]
    return []


def _gm_characters(state: BeerRunState) -> list[Action]:
    """The GM's changes to characters outside a round: Intensity, a die healed or set, an
    outcome die (new characters: `page_setup`)."""
    names = sorted(state.characters)
    if not names:
        return []
    who = Field(name="character", label="character", kind="choice", choices=names)
    abilities = sorted(
        {a.display for ch in state.characters.values() for a in ch.abilities.values()}
    )
    return [
        Action(
            command=c.AdjustIntensity,
            title="Adjust a character's Intensity",
            fields=[
                who,
                Field(name="delta", label="by (+/-)", kind="number"),
                Field(name="reason", label="reason", required=False),
            ],
            gm=True,
        ),
        Action(
            command=c.SetAbility,
            title="Heal or set an ability die",
            fields=[
                who,
                Field(name="ability", label="ability", choices=abilities),
                Field(name="size", label="its new die (e.g. d6; d0 for zero)"),
                Field(
                    name="cause",
                    label="cause",
                    kind="choice",
                    choices=["heal", "gm"],
                    shown=["a heal", "the GM's change"],
                ),
                Field(
                    name="category",
                    label="category (a new ability only)",
                    kind="choice",
                    choices=list(state.categories.values()),
                    required=False,
                ),
            ],
            gm=True,
        ),
        Action(
            command=c.AwardOutcomeDie,
            title="Award an outcome die",
            fields=[
                who,
                Field(name="ability", label="ability", choices=abilities),
                Field(name="size", label="its die (e.g. d6)"),
                Field(
                    name="category",
                    label="category (a new ability only)",
                    kind="choice",
                    required=False,
                    choices=list(state.categories.values()),
                ),
            ],
            gm=True,
        ),
    ]


def _gm_controls(state: BeerRunState, conflict: Conflict, now: str) -> list[Action]:
    key = conflict.key
    found = []
    rnd = conflict.current if conflict.rounds else None
    if rnd is not None and now in ("helping", "pools", "rolling"):
        for actor in flow.with_difficulty(rnd):
            if actor in rnd.difficulty:
                continue
            found.append(
                Action(
                    command=c.SetDifficulty,
                    title=f"Difficulty pool against {state.characters[actor].display}",
                    fields=[
                        Field(
                            name="dice", label="dice (default: 4 d2)", kind="list", required=False
                        ),
                        Field(name="replace", label="dice replaced", kind="number", required=False),
                    ],
                    fixed={"conflict": key, "against": actor},
                    probe=c.SetDifficulty(conflict=key, against=actor),
                    conflict=key,
                    gm=True,
                )
            )
    if state.options.dice == "managed" and now in ("helping", "rolling"):
        found.append(
            Action(
                command=c.Roll,
                title="Roll every pool the round waits for",
                fixed={"conflict": key},
                probe=c.Roll(conflict=key),
                conflict=key,
                gm=True,
            )
        )
    found.append(
        Action(
            command=c.EndConflict,
            title="End the conflict",
            fields=[Field(name="result", label="result", required=False)],
            fixed={"conflict": key},
            confirm="End the conflict? This cannot be undone.",
            probe=c.EndConflict(conflict=key),
            conflict=key,
            gm=True,
        )
    )
    return found


def _sides(state: BeerRunState) -> str | None:
    """The sides to edit: the players' characters against the GM's (when both exist)."""
    living = [ch for _, ch in sorted(state.characters.items()) if not ch.dead]
    heroes = [ch.key for ch in living if ch.player not in (GM, state.gm)]
    opposition = [ch.key for ch in living if ch.player in (GM, state.gm)]
    if not heroes or not opposition:
        return None
    return f"heroes: {' '.join(heroes)}; opposition: {' '.join(opposition)}"


def _base(ch: Character) -> list[str]:
    """One ability per category (the first of each): the base pool's usual shape."""
    first: dict[str, str] = {}
    for key, ability in ch.abilities.items():
        first.setdefault(ability.category, key)
    return list(first.values())
