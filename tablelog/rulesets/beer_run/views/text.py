"""Beer Run in words: one line per event for `log`, and a conflict round by round for `show`."""

from __future__ import annotations

from typing import Any

import msgspec

from tablelog.events.base import Event
from tablelog.rulesets.beer_run import events as ev


def dice(sizes: list[int]) -> str:
    return " ".join(f"d{s}" for s in sizes) or "no dice"


def size(n: int) -> str:
    """A die as written: d8; a die reduced to nothing is 0."""
    return f"d{n}" if n else "0"


def pool_text(pool: ev.PoolAssembled) -> str:
    parts = []
    for die in pool.dice:
        tag = "+" if die.extra else ""
        kind = "" if die.source == "ability" else f" ({die.source})"
        parts.append(f"{tag}{die.name} d{die.size}{kind}")
    return ", ".join(parts)


def describe(event: Event) -> str:
    e: Any = event
    match event:
        case ev.PlayerJoined():
            return f"player {e.display} joins"
        case ev.CharacterCreated():
            abilities = ", ".join(f"{a.display} d{a.size}" for a in e.abilities)
            if e.static:
                return f"{e.display} (static opposition, {e.player}): {abilities}"
            return f"{e.display} ({e.player}): {abilities}; Intensity {e.intensity}"
        case ev.AbilityChanged():
            return (
                f"{e.character_id}'s {e.display or e.ability} {size(e.from_)} -> {size(e.to)} "
                f"({e.cause})"
            )
        case ev.IntensityAdjusted():
            why = f": {e.reason}" if e.reason else ""
            return f"{e.character_id} Intensity {e.delta:+d}{why}"
        case ev.OutcomeDieAwarded():
            return f"outcome die: {e.character_id} gains {e.display} d{e.size}"
        case ev.SessionStarted():
            return f"session {e.session} starts"
        case ev.SessionEnded():
            return f"session {e.session} ends"
        case ev.SceneStarted():
            return f"scene {e.scene} starts" + (f": {e.title}" if e.title else "")
        case ev.SceneEnded():
            return f"scene {e.scene} ends"
        case ev.ConflictOpened():
            sides = "; ".join(f"{s.side_id}: {', '.join(s.members)}" for s in e.sides)
            return f"conflict {e.conflict} opens ({sides})"
        case ev.RoundStarted():
            return f"{e.conflict} round {e.round} starts"
        case ev.GoalDeclared():
            return f"{e.conflict} r{e.round}: {e.actor}'s goal: {goal_text(e)}"
        case ev.DifficultyPoolSet():
            return (
                f"{e.conflict} r{e.round}: difficulty pool against {e.against}: "
                f"{dice(e.dice)} ({e.replaced_count} replaced by d{e.target_size})"
            )
        case ev.PoolAssembled():
            # Never the dice: a line of the log is read by everyone (see visibility).
            return f"{e.conflict} r{e.round}: {e.actor} buys a pool (shown when rolled)"
        case ev.PoolSealed():
            return (
                f"{e.conflict} r{e.round}: {e.actor} buys a sealed pool "
                f"(commitment {e.commitment[:16]}...)"
            )
        case ev.PoolOpened():
            return f"{e.conflict} r{e.round}: {e.actor} opens its sealed pool (shown when rolled)"
        case ev.PoolDeadlineSet():
            return f"{e.conflict} r{e.round}: openings due by {e.deadline} (microseconds UTC)"
        case ev.PoolForfeited():
            return (
                f"{e.conflict} r{e.round}: {e.actor}'s sealed pool was not opened by the "
                "deadline: forfeit (an empty pool)"
            )
        case ev.PoolRolled():
            whose = f"the difficulty against {e.actor}" if e.difficulty else e.actor
            faces = " ".join(f"{f.value}/d{f.size}" for f in e.results)
            how = "" if e.generated else " (recorded)"
            return f"{e.conflict} r{e.round}: {whose} rolls {faces}{how}"
        case ev.RollsCompared():
            return f"{e.conflict} r{e.round}: " + comparison_text(e)
        case ev.SpecialDieUsed():
            return (
                f"{e.conflict} r{e.round}: {e.character_id} rolls a {e.kind} d{e.size} "
                f"({e.uses_left} uses left)"
            )
        case ev.SituationDieGranted():
            return (
                f"{e.conflict} r{e.round}: {e.character_id} gains a d{e.size} situation die "
                f"x{e.uses} (from {e.source})"
            )
        case ev.PenaltyDieImposed():
            return (
                f"{e.conflict} r{e.round}: {e.character_id} suffers a d{e.size} penalty x{e.uses}"
            )
        case ev.DamageAllocated():
            pips = ", ".join(f"{a.pips} on {a.target}'s {a.ability}" for a in e.allocations)
            return f"{e.conflict} r{e.round}: {e.by} allocates {pips}"
        case ev.GoalAchieved():
            how = " (ceded)" if e.how == "ceded" else ""
            return f"{e.conflict} r{e.round}: {e.actor} achieves its goal: {e.goal}{how}"
        case ev.CharacterDied():
            return f"{e.character_id} dies"
        case ev.Ceded():
            return f"{e.conflict} r{e.round}: {e.actor} cedes"
        case ev.ConflictEnded():
            return f"conflict {e.conflict} ends: {e.result}"
    return event.type_name()


def goal_text(goal: Any) -> str:
    return goal_words(msgspec.to_builtins(goal))


def goal_words(goal: dict[str, Any]) -> str:
    """A goal from its fields (an event's, or a view's)."""
    if goal["kind"] == "helping":
        return f'"{goal["text"]}" (helping {goal["beneficiary"]} to a d{goal["target_die"]})'
    if goal["kind"] == "situational":
        return f'"{goal["text"]}" (situational, a d{goal["target_die"]})'
    aim = f" against {goal['target']}" if goal.get("target") else ""
    ability = f", zeroing {goal['ability']}" if goal.get("ability") else ""
    return f'"{goal["text"]}"{aim}{ability}'


def comparison_text(e: ev.RollsCompared) -> str:
    data = msgspec.to_builtins(e)
    assert isinstance(data, dict)
    return comparison_words(data)


def comparison_words(e: dict[str, Any]) -> str:
    """A comparison from its fields (an event's, or a view's): each pair, the upper hand, and
    what each side keeps."""
    marks = {"a": ">", "b": "<"}
    pairs = "; ".join(
        f"{p['a']}={p['b']} tie"
        if p["winner"] == "tie"
        else f"{p['a']}{marks[p['winner']]}{p['b']}"
        for p in e["pairs"]
    )
    upper = (
        f"upper hand {e['upper_hand']}" if e["upper_hand"] else "no decisive pair: no upper hand"
    )
    kept = ", ".join(f"{k} {e['raw'][k]} raw/{e['kept'][k]} kept" for k in (e["a"], e["b"]))
    return f"{e['a']} {e['a_values']} vs {e['b']} {e['b_values']}: {pairs}; {upper}; {kept}"


def conflict_lines(view: dict[str, Any]) -> list[str]:
    """`beer-run show` as text, from the show view (so a hidden pool stays hidden)."""
    lines = [f"conflict {view['conflict']} ({view['status']}, {view['phase']})"]
    for side, info in view["sides"].items():
        lines.append(f"  side {side}: {', '.join(info['members'])}")
    for rnd in view["rounds"]:
        lines.append(f"round {rnd['round']}")
        for actor, goal in rnd["goals"].items():
            lines.append(f"  goal {actor}: {goal_words(goal)}")
        for actor, pool in rnd["pools"].items():
            if pool["dice"] is None:
                lines.append(f"  pool {actor}: bought, hidden until rolled")
            else:
                shown = ", ".join(f"{d['name']} d{d['size']}" for d in pool["dice"])
                lines.append(f"  pool {actor}: {shown} (cost {pool['cost']})")
        for actor, faces in rnd["rolls"].items():
            lines.append(f"  roll {actor}: {' '.join(str(f) for f in faces)}")
        for compared in rnd["comparisons"]:
            lines.append("  " + comparison_words(compared))
    for done in view["achieved"]:
        against = f" against {done['target']}" if done["target"] else ""
        lines.append(f'goal reached: {done["actor"]}{against}: "{done["goal"]}"')
    if view["ceded"]:
        lines.append(f"ceded: {', '.join(view['ceded'])}")
    if view["result"]:
        lines.append(f"result: {view['result']}")
    return lines


def state_lines(view: dict[str, Any]) -> list[str]:
    """`tablelog state` for a Beer Run campaign: each character's dice, Intensity and special
    dice, then each conflict's round, phase and goals reached."""
    lines = [f"campaign {view['campaign']} ({view['ruleset']}) at seq {view['seq']}"]
    if view["session"]:
        lines.append(f"session {view['session']}" + ("" if view["session_open"] else " (ended)"))
    for character in view["characters"].values():
        dice_ = ", ".join(f"{a['name']} {size(a['size'])}" for a in character["abilities"].values())
        special = "".join(
            f"; {d['kind']} d{d['size']} x{d['uses']}" for d in character["special_dice"]
        )
        status = " (dead)" if character["dead"] else ""
        what = "static" if character["static"] else f"Intensity {character['intensity']}"
        lines.append(f"{character['name']}{status}: {dice_}; {what}{special}")
    for key, conflict in view["conflicts"].items():
        beats = "; ".join(f"{w} beats {lo}" for w, lo in conflict["beats"])
        lines.append(
            f"conflict {key}: {conflict['status']}, round {conflict['round']}, "
            f"{conflict['phase']}" + (f"; {beats}" if beats else "")
        )
    return lines
