"""A slash command back into the CLI's words, parsed by the CLI itself into typed commands.

`/tl improv play conflict:c1 side:kit card:AH` is `tablelog improv play -- c1 kit AH`: the
same parser, the same checks and the same command as on the command line. The CLI runs in
its collecting mode (`cli.options.collecting`, as a what-if file read for the service):
commands are gathered, never run, and nothing is read from a local file.
"""

from __future__ import annotations

from typing import Any

from typer.core import TyperGroup

from tablelog.cli import options as cli_options
from tablelog.discord.tree import Option, Sub, cli_group
from tablelog.errors import InvalidInput
from tablelog.rules.common import Command


def _items(option: Option, value: Any) -> list[str]:
    text = str(value)
    if not option.many:
        return [text]
    # A repeatable option's values are separated by `;` (a value may hold commas and
    # spaces: `heroes=alice,cara`); an argument's codes by spaces or commas.
    parts = text.split(";") if option.flag is not None else text.replace(",", " ").split()
    return [p.strip() for p in parts if p.strip()]


def words(sub: Sub, given: dict[str, Any]) -> list[str]:
    """The CLI's arguments for `sub` with Discord's option values (options first, then `--`
    and the arguments in the CLI's order, so a value such as `-2` stays a value)."""
    unknown = set(given) - {o.name for o in sub.options}
    if unknown:
        raise InvalidInput(
            f"/{sub.name} has no option {sorted(unknown)[0]!r}; run `tablelog discord register` "
            "again after an upgrade",
            code="unknown-option",
        )
    flags: list[str] = []
    positional: list[str] = []
    missing: Option | None = None
    for option in sorted(sub.options, key=lambda o: o.index):
        if option.name not in given:
            if option.flag is None:
                missing = missing or option
            continue
        value = given[option.name]
        if option.flag is None:
            if missing is not None:
                raise InvalidInput(
                    f"give {missing.name} too: it comes before {option.name}",
                    code="missing-option",
                )
            positional.extend(_items(option, value))
        elif isinstance(value, bool):
            if value:
                flags.append(option.flag)
        else:
            for item in _items(option, value):
                flags.extend([option.flag, item])
    return [*flags, "--", *positional]


def collect(ruleset: str, sub: Sub, given: dict[str, Any]) -> list[Command]:
    """The typed commands the CLI makes of the slash command (refusals as the CLI's)."""
    group: TyperGroup = cli_group(ruleset)
    argv = [sub.name, *words(sub, given)]
    found: list[Command] = []
    token = cli_options.collecting.set(found)
    try:
        with group.make_context(ruleset, argv, obj=None) as ctx:
            group.invoke(ctx)
    except InvalidInput as exc:
        if exc.code == "whatif-read":
            raise InvalidInput(
                f"/tl {ruleset} {sub.name} cannot run from Discord: it needs what only your own "
                f"device keeps; use the page or `tablelog {ruleset} {sub.name}`",
                code="not-on-discord",
            ) from None
        raise
    except Exception as exc:  # the CLI's own usage errors (its click): one sentence
        message = getattr(exc, "format_message", None)
        if message is None or not callable(message):
            raise
        raise InvalidInput(str(message()), code="bad-option") from None
    finally:
        cli_options.collecting.reset(token)
    return found
