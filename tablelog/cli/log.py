"""`tablelog log` and `tablelog verify`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated
from urllib.parse import quote

import typer

from tablelog.cli.options import CampaignOption, JsonOption, remote, target
from tablelog.cli.output import decoded, emit_json, emit_line, say, when
from tablelog.cli.progress import progress_bar
from tablelog.commands.database import opened, resolve_campaign
from tablelog.commands.log import Report, parse_head, verify
from tablelog.commands.reads import LogItem, log_items
from tablelog.errors import InvalidInput
from tablelog.rules.names import campaign_name

if TYPE_CHECKING:
    from tablelog.cli.remote import Client
    from tablelog.commands.checkpoint_verify import CheckpointReport
    from tablelog.commands.checkpoints import Checkpoint

EXIT_BROKEN = 3


def log(
    ctx: typer.Context,
    campaign: CampaignOption = None,
    conflict: Annotated[
        str | None, typer.Option("--conflict", help="Only this conflict's events.")
    ] = None,
    since: Annotated[int, typer.Option("--since", help="Start at this seq.")] = 0,
    json: Annotated[
        bool, typer.Option("--json", help="JSON Lines: the whole envelope, payload inline.")
    ] = False,
) -> None:
    """Print the campaign's events, one per line, oldest first.

    Example: `tablelog log --since 40` or `tablelog log --json | jq .type`
    """
    client = remote(ctx)
    if client is not None:
        name = client.campaign(campaign)
        got = client.get(f"/campaigns/{quote(name)}/log", since=since, conflict=conflict)
        items = decoded(got, list[LogItem])
    else:
        with opened(target(ctx)) as store:
            name = resolve_campaign(store, campaign)
            items = log_items(store, name, since=since, conflict=conflict)
    for item in items:
        if json:
            emit_line(item.line.encode())
        else:
            say(
                f"{item.seq:>5}  {when(item.recorded_at)}  {item.actor:<10} {item.hash[:12]}  "
                f"{item.text}"
            )


def verify_command(
    ctx: typer.Context,
    head: Annotated[
        str | None,
        typer.Option("--head", help="SEQ:HASH from an export's footer that the log must contain."),
    ] = None,
    campaign: Annotated[
        str | None,
        typer.Option("--campaign", "-c", help="Check only this campaign (default: all)."),
    ] = None,
    json: JsonOption = False,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            min=1,
            max=64,
            help="Processes that check campaigns side by side (default: the CPUs, for a SQLite "
            "log of 50,000 events or more, a server's of 500,000; 1: this process only).",
        ),
    ] = None,
    checkpoint: Annotated[
        Path | None,
        typer.Option(
            "--checkpoint",
            help="A file of kept checkpoints (JSON Lines, as `tablelog checkpoint` keeps them): "
            "prove the log still extends every one, and name the first that fails.",
            show_default=False,
        ),
    ] = None,
    key: Annotated[
        str | None,
        typer.Option(
            "--key",
            help="The service's public key (`tablelog key show`) every checkpoint must be "
            "signed by (default: the key each checkpoint names).",
            show_default=False,
        ),
    ] = None,
    source: Annotated[
        Path | None,
        typer.Option(
            "--from",
            help="Check this JSON Lines export instead of the database.",
            show_default=False,
        ),
    ] = None,
    rng: Annotated[
        bool,
        typer.Option(
            "--rng",
            help="Also recompute every committed shuffle from its revealed seed and "
            "contributions, and name the first mismatch (unrevealed ones are pending).",
        ),
    ] = False,
) -> None:
    """Re-check every campaign's hash chain and sequence; exit 3 on the first break.

    Example: `tablelog verify --head 57:3fa2...e9` (the full hash, as an export footer prints
    it), or `tablelog verify --checkpoint bar-fight.jsonl --key 5c1f...` (see `checkpoint`)
    """
    if rng:
        if checkpoint is not None or source is not None or head is not None:
            raise InvalidInput(
                "--rng checks the database alone; drop --head, --checkpoint and --from",
                code="bad-verify",
            )
        _verify_rng(ctx, campaign, json)
        return
    if checkpoint is not None or source is not None:
        if head is not None or campaign is not None:
            raise InvalidInput(
                "--head and --campaign do not go with --checkpoint or --from",
                code="bad-verify",
            )
        _verify_checkpoints(ctx, checkpoint, key, source, json)
        return
    if key is not None:
        raise InvalidInput("--key checks the checkpoints of --checkpoint FILE", code="bad-verify")
    expected_head = parse_head(head) if head is not None else None
    name = campaign_name(campaign) if campaign else None
    client = remote(ctx)
    if client is not None:
        mine = client.campaign(campaign)
        report = decoded(client.get(f"/campaigns/{quote(mine)}/verify", head=head), Report)
    else:
        # No schema check: verify must also report on a damaged or foreign file.
        with opened(target(ctx), check_schema=False) as store, progress_bar() as progress:
            report = verify(
                store, head=expected_head, campaign=name, progress=progress, workers=workers
            )
    if json:
        emit_json(report)
    elif report.first_bad is None:
        found = f"; head {expected_head[0]} found" if expected_head else ""
        say(
            f"ok: {report.campaigns} campaign(s), {report.events} event(s), "
            f"every chain intact{found}"
        )
    else:
        bad = report.first_bad
        where = f"campaign {bad.campaign}, seq {bad.seq}" if bad.campaign else "the log"
        say(f"broken: {where}: {bad.reason}", err=True)
    if not report.ok:
        raise typer.Exit(EXIT_BROKEN)


def _verify_rng(ctx: typer.Context, campaign: str | None, json: bool) -> None:
    from tablelog.commands.rng_verify import verify_rng

    if remote(ctx) is not None:
        raise InvalidInput(
            "--rng reads the database itself; run it on a copy (`tablelog export`, "
            "`tablelog import`), not through the service",
            code="bad-verify",
        )
    name = campaign_name(campaign) if campaign else None
    with opened(target(ctx), check_schema=False) as store:
        report = verify_rng(store, campaign=name)
    if json:
        emit_json(report)
    elif report.first_bad is None:
        waiting = f"; pending (seed not revealed): {', '.join(report.pending)}"
        say(
            f"ok: {report.verified} committed shuffle request(s) recomputed exactly"
            + (waiting if report.pending else "")
        )
    else:
        bad = report.first_bad
        say(f"broken: campaign {bad.campaign}, seq {bad.seq}: {bad.reason}", err=True)
    if not json:
        # A draw that went without a seat is no break, but everyone should see whose.
        for seat in report.missing:
            who = f"{seat.player} " if seat.player else ""
            say(
                f"  {seat.campaign} shuffle {seat.request} (drawn at seq {seat.seq}): "
                f"{who}{_WHY[seat.why]}"
            )
    if not report.ok:
        raise typer.Exit(EXIT_BROKEN)


_WHY = {
    "absent": "was absent (never pledged or contributed before the GM closed it)",
    "withheld": "withheld their reveal (pledged, never revealed by the deadline)",
    "lapsed": "lapsed: its command was refused when drawn, and nothing was dealt",
}


def _verify_checkpoints(
    ctx: typer.Context, kept: Path | None, key: str | None, source: Path | None, json: bool
) -> None:
    from tablelog.commands.checkpoint_verify import verify_checkpoints
    from tablelog.commands.checkpoints import read_checkpoints
    from tablelog.commands.signing import parse_public_key

    pinned = parse_public_key(key) if key is not None else None
    checkpoints = read_checkpoints(_read(kept), str(kept)) if kept is not None else []
    client = remote(ctx) if source is None else None
    if source is not None:
        report = verify_checkpoints(checkpoints, str(kept), export=source, key=pinned)
    elif client is not None:
        report = _through_service(client, checkpoints, str(kept), pinned)
    else:
        with opened(target(ctx), check_schema=False) as store:
            report = verify_checkpoints(checkpoints, str(kept), store=store, key=pinned)
    if json:
        emit_json(report)
    elif report.first_bad is None:
        signer = f"the key {pinned.hex()}" if pinned else "the key each one names"
        kept_part = (
            f"; every one of {report.checkpoints} checkpoint(s) signed by {signer} and extended"
            if kept is not None
            else ""
        )
        say(f"ok: {report.campaigns} campaign(s), {report.events} event(s){kept_part}")
    else:
        bad = report.first_bad
        where = f"campaign {bad.campaign}, seq {bad.seq}: " if bad.campaign else ""
        say(f"broken: {where}{bad.reason}", err=True)
    if not report.ok:
        raise typer.Exit(EXIT_BROKEN)


def _through_service(
    client: Client, checkpoints: list[tuple[int, Checkpoint]], source: str, key: bytes | None
) -> CheckpointReport:
    """The checkpoints against the log the service holds now: its own check of the chain,
    then the hash at each checkpoint's seq (the service answers for its token's campaign)."""
    from tablelog.commands.checkpoint_verify import CheckpointReport, LogView, check_against

    name = client.campaign(None)
    chain = decoded(client.get(f"/campaigns/{quote(name)}/verify"), Report)
    if chain.first_bad is not None:
        return CheckpointReport(
            ok=False, campaigns=chain.campaigns, events=chain.events, checkpoints=0,
            first_bad=chain.first_bad,
        )  # fmt: skip
    log = LogView()
    log.campaigns, log.events, log.ends = 1, chain.events, {name: chain.events}
    for seq in sorted({c.seq for _, c in checkpoints if c.campaign == name}):
        if seq <= chain.events:
            found = client.get(f"/campaigns/{quote(name)}/hashes/{seq}")["hash"]
            if isinstance(found, str):
                log.hashes[name, seq] = bytes.fromhex(found)
    return check_against(checkpoints, source, log, key)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InvalidInput(f"cannot read {path}: {exc.strerror}", code="bad-checkpoint") from None


def register(app: typer.Typer) -> None:
    app.command("log")(log)
    app.command("verify")(verify_command)
