"""`tablelog whatif`: play commands on a scratch copy of a campaign cut after a seq."""

from __future__ import annotations

import io
import shlex
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import quote

import msgspec
import typer
from typer.exceptions import TyperException

from tablelog.cli import options
from tablelog.cli.options import CampaignOption, JsonOption, remote, target
from tablelog.cli.output import decoded, emit_json, say
from tablelog.cli.table import state_lines
from tablelog.commands.database import EventStore, opened, resolve_campaign
from tablelog.commands.endpoints import call_of
from tablelog.commands.whatif import (
    Compared,
    Difference,
    WhatIfResult,
    compared,
    scratch_copy,
    state_of,
)
from tablelog.errors import InvalidInput
from tablelog.rules.common import Command

if TYPE_CHECKING:
    from tablelog.cli.remote import Client

# Commands that reach beyond the campaign (other databases, files, servers, access tokens):
# a what-if file is about the table only.
_NOT_HERE = frozenset(
    {"db", "serve", "import", "export", "demo", "campaign", "invite", "revoke", "whatif"}
)


@dataclass
class _Line:
    number: int
    text: str
    args: list[str]


def _read(file: Path) -> list[_Line]:
    try:
        content = file.read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidInput(f"cannot read {file}: {exc.strerror}", code="bad-file") from None
    except UnicodeDecodeError:
        raise InvalidInput(f"{file} is not UTF-8 text", code="bad-file") from None
    lines: list[_Line] = []
    for number, raw in enumerate(content.splitlines(), start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            args = shlex.split(text)
        except ValueError as exc:
            raise InvalidInput(f"line {number} of {file}: {exc}", code="bad-line") from None
        if args[0] == "tablelog":
            args = args[1:]
        if not args or args[0].startswith("-"):
            raise InvalidInput(
                f"line {number} of {file} must start with a command (options such as --db "
                f"are not allowed here); got {text!r}",
                code="bad-line",
            )
        if args[0] in _NOT_HERE:
            raise InvalidInput(
                f"line {number} of {file}: `{args[0]}` cannot run in a what-if; only "
                "commands that play the campaign can",
                code="bad-line",
            )
        lines.append(_Line(number, text, args))
    return lines


def _collect(line: _Line) -> list[Command]:
    """The typed command a line asks for, parsed by the real CLI but not run (for the service)."""
    found: list[Command] = []
    token = options.collecting.set(found)
    try:
        _invoke(line)
    finally:
        options.collecting.reset(token)
    return found


def _run(line: _Line, scratch: EventStore) -> str:
    """Run one line through the real CLI against the scratch copy; its output, or a refusal."""
    token = options.scratch.set(scratch)
    try:
        return _invoke(line)
    finally:
        options.scratch.reset(token)


def _invoke(line: _Line) -> str:
    from tablelog.cli.app import app

    out, err = io.BytesIO(), io.BytesIO()
    out_text = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    err_text = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    code: int | None
    with redirect_stdout(out_text), redirect_stderr(err_text):
        try:
            result = app(
                args=line.args,
                prog_name="tablelog",
                standalone_mode=False,
                default_map=None,
                obj=None,
            )
            code = result if isinstance(result, int) else 0
        except typer.Exit as exc:
            code = exc.exit_code
        except TyperException as exc:
            format_message = getattr(exc, "format_message", None)
            err_text.write(format_message() if format_message else str(exc))
            code = 2
    if code:
        why = err.getvalue().decode("utf-8", "replace").strip().splitlines() or ["refused"]
        raise InvalidInput(
            f"line {line.number} ({line.text}) was refused: {why[-1]}; the real log is unchanged",
            code="whatif-refused",
        )
    return out.getvalue().decode("utf-8", "replace")


def whatif(
    ctx: typer.Context,
    file: Annotated[
        Path, typer.Argument(help="Commands, one per line, without the leading `tablelog`.")
    ],
    at: Annotated[int, typer.Option("--at", help="Cut the campaign after this seq.")],
    campaign: CampaignOption = None,
    json: JsonOption = False,
) -> None:
    """Replay a campaign up to SEQ, then run FILE's commands on a scratch copy; show the result.

    The copy lives in memory: the real log is only read. Prints the resulting state and each
    conflict whose outcome differs from the real one. Blank lines and `#` comments are skipped.

    Example: `tablelog whatif --at 47 alternate.txt`, with alternate.txt holding lines such as
    `improv give fight diana jason JH` and `improv close fight`
    """
    lines = _read(file)
    client = remote(ctx)
    if client is not None:
        name = client.campaign(campaign)
        transcript, imagined, found = _through_service(client, name, at, lines)
    else:
        with opened(target(ctx)) as store:
            name = resolve_campaign(store, campaign)
            real = state_of(store, name)
            scratch = scratch_copy(store, name, at)
        try:
            transcript = []
            for line in lines:
                transcript.append(f"> {line.text}")
                transcript.extend(f"  {out}" for out in _run(line, scratch).splitlines())
            imagined = state_of(scratch, name)
        finally:
            scratch.close()
        found = compared(real, imagined)
    if json:
        emit_json({"state": imagined, "differences": found.differences, "progress": found.progress})
        return
    say(f"what if, from seq {at} of campaign {name} (a scratch copy; the log is unchanged)")
    for text in transcript:
        say(text)
    say("")
    for text in state_lines(imagined):
        say(text)
    say("")
    if not found.differences:
        say("no outcome differs from the real one")
    for d in found.differences:
        say(f"conflict {d.conflict} differs:")
        _sides(d)
    for d in found.progress:
        say(
            f"conflict {d.conflict} differs only in how far it went (its status or length); "
            "its outcome is the same as far as both went:"
        )
        _sides(d)


def _sides(d: Difference) -> None:
    say(f"  real    ({d.real_status or 'absent'}): {_beats(d.real)}")
    say(f"  what-if ({d.whatif_status or 'absent'}): {_beats(d.whatif)}")
    # What beats cannot say (amounts, types): the sentences found on one side only.
    for sentence in d.real_outcome:
        if sentence not in d.whatif_outcome:
            say(f"  real only:    {sentence}")
    for sentence in d.whatif_outcome:
        if sentence not in d.real_outcome:
            say(f"  what-if only: {sentence}")


def _through_service(
    client: Client, campaign: str, at: int, lines: list[_Line]
) -> tuple[list[str], dict[str, Any], Compared]:
    """Parse the lines here into typed commands; the service plays them on its scratch copy."""
    per_line = [(line, _collect(line)) for line in lines]
    calls = [call_of(command) for _line, found in per_line for command in found]
    got = client.json(
        "POST",
        f"/campaigns/{quote(campaign)}/whatif",
        json={"at": at, "commands": msgspec.to_builtins(calls)},
    )
    result = decoded(got, WhatIfResult)
    played = iter(result.played)
    transcript: list[str] = []
    for line, found in per_line:
        transcript.append(f"> {line.text}")
        for _command in found:
            transcript.extend(f"  {e.seq:>5}  {e.text}" for e in next(played).events)
    apart = Compared(differences=result.differences, progress=result.progress)
    return transcript, result.state, apart


def _beats(pairs: list[list[str]]) -> str:
    return "; ".join(f"{w} beats {lo}" for w, lo in pairs) or "nobody beats anybody yet"


def register(app: typer.Typer) -> None:
    app.command("whatif")(whatif)
