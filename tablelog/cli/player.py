"""`tablelog player discord|email|show|list`: where the table tells each player it waits on
them (issue 28)."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

import msgspec
import typer

from tablelog.cli.options import CampaignOption, JsonOption, remote, target
from tablelog.cli.output import decoded, emit_json, say
from tablelog.commands import contacts
from tablelog.commands.database import opened, resolve_campaign
from tablelog.errors import InvalidInput

app = typer.Typer(
    no_args_is_help=True,
    help="Players' contacts: the Discord id and e-mail address the table tells a player "
    "with when it waits on them.\n\nExample: `tablelog player discord ben 80351110224678912`",
)

NameArg = Annotated[str, typer.Argument(help="The player (or the GM) by seat name.")]
ClearOption = Annotated[bool, typer.Option("--clear", help="Remove it instead.")]


def _given(value: str | None, clear: bool, what: str) -> str | None:
    if clear and value is not None:
        raise InvalidInput(f"give either {what} or --clear, not both", code="bad-arguments")
    if not clear and value is None:
        raise InvalidInput(f"give {what}, or --clear to remove it", code="bad-arguments")
    return value


def _set(
    ctx: typer.Context, campaign: str | None, name: str, kind: str, value: str | None
) -> contacts.Contact:
    client = remote(ctx)
    if client is not None:
        where = client.campaign(campaign)
        body = {"user_id": value} if kind == "discord" else {"address": value}
        path = f"/campaigns/{quote(where)}/players/{quote(name.strip(), safe='')}/{kind}"
        found: contacts.Contact = decoded(client.json("POST", path, json=body), contacts.Contact)
        return found
    with opened(target(ctx)) as store:
        where = resolve_campaign(store, campaign)
        if kind == "discord":
            return contacts.set_discord(store, where, name, value)
        return contacts.set_email(store, where, name, value)


def _emit(found: contacts.Contact, json: bool) -> None:
    if json:
        emit_json(msgspec.to_builtins(found))
        return
    say(f"{found.player} in {found.campaign}:")
    say(f"  discord: {found.discord or '-'}")
    email = found.email or "-"
    if found.unsubscribed:
        email += f" (unsubscribed {found.unsubscribed})"
    say(f"  email: {email}")
    for notice in found.notices:
        line = f"  {notice.at}  {notice.kind} {notice.number} via {notice.channel}: {notice.what}"
        line += f"  {notice.status}"
        if notice.last_error and notice.status != "sent":
            line += f" ({notice.last_error})"
        say(line)


@app.command("discord")
def discord(
    ctx: typer.Context,
    name: NameArg,
    user_id: Annotated[
        str | None,
        typer.Argument(help="The Discord user id: 17 to 20 digits.", show_default=False),
    ] = None,
    clear: ClearOption = False,
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """Link a player's Discord user id to their seat, so that a webhook added with `--on
    turn` mentions them when the table waits on them.

    The GM links anyone's; through the service a player links only their own. The id is
    kept beside the log, never in it, an export or a post. In Discord: User Settings,
    Advanced, Developer Mode; then Copy User ID on the user.

    Example: `tablelog player discord ben 80351110224678912`
    `tablelog player discord ben --clear`
    """
    _emit(_set(ctx, campaign, name, "discord", _given(user_id, clear, "a Discord user id")), json)


@app.command("email")
def email(
    ctx: typer.Context,
    name: NameArg,
    address: Annotated[
        str | None, typer.Argument(help="One e-mail address.", show_default=False)
    ] = None,
    clear: ClearOption = False,
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """Set a player's e-mail address: the service mails them when the table waits on them.

    The GM sets anyone's; through the service a player sets only their own. The address is
    stored encrypted beside the log, shown to the GM and the player only; each mail has a
    one-click unsubscribe link, and setting the address again subscribes it again.

    Example: `tablelog player email ben ben@example.org`
    `tablelog player email ben --clear`
    """
    _emit(_set(ctx, campaign, name, "email", _given(address, clear, "an address")), json)


@app.command("show")
def show(
    ctx: typer.Context, name: NameArg, campaign: CampaignOption = None, json: JsonOption = False
) -> None:
    """A player's contact and latest notices (the GM's, or the player's own).

    Example: `tablelog player show ben`
    """
    client = remote(ctx)
    if client is not None:
        where = client.campaign(campaign)
        path = f"/campaigns/{quote(where)}/players/{quote(name.strip(), safe='')}/contact"
        found = decoded(client.json("GET", path), contacts.Contact)
    else:
        with opened(target(ctx)) as store:
            found = contacts.shown(store, resolve_campaign(store, campaign), name)
    _emit(found, json)


@app.command("list")
def list_(ctx: typer.Context, campaign: CampaignOption = None, json: JsonOption = False) -> None:
    """Every player's contact (addresses shortened) and the notices still waiting, with why
    (the GM's).

    Example: `tablelog player list`
    """
    client = remote(ctx)
    if client is not None:
        where = client.campaign(campaign)
        found = decoded(
            client.json("GET", f"/campaigns/{quote(where)}/contacts")["contacts"],
            list[contacts.Contact],
        )
    else:
        with opened(target(ctx)) as store:
            where = resolve_campaign(store, campaign)
            found = contacts.listed(store, where)
    if json:
        emit_json({"campaign": where, "contacts": msgspec.to_builtins(found)})
        return
    if not found:
        say(f"no player of {where} has a contact; `tablelog player discord NAME ID` adds one")
    for each in found:
        say(
            f"{each.player}  discord {each.discord or '-'}  email {each.email or '-'}"
            + (f" (unsubscribed {each.unsubscribed})" if each.unsubscribed else "")
            + f"  {len(each.notices)} waiting"
        )
        for notice in each.notices:
            if notice.last_error:
                say(f"    {notice.channel}: {notice.last_error}")


def register(root: typer.Typer) -> None:
    root.add_typer(app, name="player")
