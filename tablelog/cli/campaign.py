"""`tablelog campaign create|list`."""

from __future__ import annotations

from typing import Annotated

import click
import typer

from tablelog import rulesets
from tablelog.cli.options import JsonOption, remote, target
from tablelog.cli.output import columns, decoded, emit_json, say, when
from tablelog.commands.campaigns import (
    CampaignSummary,
    list_campaigns,
    plan_campaign,
    start_campaign,
)
from tablelog.commands.database import opened
from tablelog.errors import InvalidInput

app = typer.Typer(
    no_args_is_help=True,
    help="Create and list campaigns.\n\n"
    "Example: `tablelog campaign create bar-fight --ruleset improv`",
)


def _options(pairs: list[str], extra: list[str]) -> dict[str, str]:
    """`--option KEY=VALUE` pairs, and options given by their own names (`--deck-mode
    managed`, `--dice=recorded`), which are the same options."""
    given = [(pair, "--option") for pair in pairs]
    rest = list(extra)
    while rest:
        word = rest.pop(0)
        if not word.startswith("--") or len(word) < 3:
            raise click.UsageError(
                f"unexpected {word!r}: a ruleset option is --option KEY=VALUE or --KEY VALUE"
            )
        if "=" not in word:
            if not rest or rest[0].startswith("--"):
                raise click.UsageError(f"{word} needs a value: {word} VALUE")
            word = f"{word}={rest.pop(0)}"
        given.append((word[2:], word.partition("=")[0]))
    options: dict[str, str] = {}
    for pair, flag in given:
        key, sep, value = pair.partition("=")
        key = key.strip().lower().replace("-", "_")
        if not sep or not key:
            raise InvalidInput(f"{flag} takes KEY=VALUE; got {pair!r}", code="bad-option")
        if key in options:
            raise InvalidInput(
                f"option {key} is given twice ({options[key]!r} and {value.strip()!r}); give it "
                "once",
                code="invalid-option",
            )
        options[key] = value.strip()
    return options


@app.command(
    "create",
    # Every option of the chosen ruleset may also be given by its own name: --deck-mode managed.
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def create(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The campaign's name, e.g. bar-fight.")],
    ruleset: Annotated[
        str,
        typer.Option("--ruleset", "-r", help=f"The rules: {', '.join(rulesets.names())}."),
    ],
    gm: Annotated[str, typer.Option("--gm", help="The game master's player name.")] = "gm",
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            help="A ruleset option as KEY=VALUE; repeatable. Any option may also be given as "
            "--KEY VALUE (e.g. --deck-mode managed).",
        ),
    ] = None,
    json: JsonOption = False,
) -> None:
    """Start a new campaign and print the GM's access token (shown once).

    Each ruleset's options and their defaults are in its rules (an unknown option is refused
    with the list of them). A name too like an existing campaign's (`rec.` beside `rec`: the
    same letters and digits whatever the case and punctuation) is refused. Through the service
    (`--server`), the access token is the service's admin token, which `tablelog serve`
    printed on its first start (`tablelog admin-token` on the database makes a new one),
    unless the service runs with `--open-signup`.

    Example: `tablelog campaign create bar-fight --ruleset improv --gm mara --option
    talent_uses_per_session=5 --deck-mode managed`, or through a service:
    `tablelog --server http://gm-host:8000 --access-token ADMIN_TOKEN campaign create heist
    --ruleset improv`
    """
    options = _options(option or [], list(ctx.args))
    # Refuse bad input before the database file is even created.
    plan = plan_campaign(name, ruleset=ruleset, gm=gm, options=options)
    client = remote(ctx)
    if client is not None:
        body = {"name": name, "ruleset": ruleset, "gm": gm, "options": options}
        made = client.json("POST", "/campaigns", json=body)
        where = client.server
    else:
        with opened(target(ctx), create=True) as store:
            created = start_campaign(store, plan)
        made = {
            "campaign": created.campaign,
            "ruleset": created.ruleset,
            "gm": created.gm,
            "seq": created.event.seq,
            "hash": created.event.hash.hex(),
            "token": created.token,
        }
        where = store.label
    if json:
        emit_json(made)
        return
    say(f"created campaign {made['campaign']} ({made['ruleset']}) in {where}")
    say(f"GM {made['gm']}'s access token (shown once, keep it safe): {made['token']}")


@app.command("list")
def list_(ctx: typer.Context, json: JsonOption = False) -> None:
    """List the campaigns with their ruleset, events and last activity.

    Example: `tablelog campaign list --json`
    """
    client = remote(ctx)
    if client is not None:
        summaries = decoded(client.get("/campaigns"), list[CampaignSummary])
    else:
        with opened(target(ctx)) as store:
            summaries = list_campaigns(store)
    if json:
        emit_json(
            [
                {
                    "campaign": s.campaign,
                    "ruleset": s.ruleset,
                    "seq": s.seq,
                    "events": s.events,
                    "last_activity": s.last_activity,
                    "head_hash": s.head_hash,
                }
                for s in summaries
            ]
        )
        return
    if not summaries:
        say(
            f"no campaigns yet; `tablelog campaign create NAME --ruleset {rulesets.names()[0]}` "
            "starts one"
        )
        return
    rows = [(s.campaign, s.ruleset, str(s.events), when(s.last_activity)) for s in summaries]
    say(columns(("campaign", "ruleset", "events", "last activity (UTC)"), rows))
