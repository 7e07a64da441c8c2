"""`tablelog rulesets`: the rulesets this installation finds, and any that do not load."""

from __future__ import annotations

import typer

from tablelog.cli.options import JsonOption
from tablelog.cli.output import columns, emit_json, say
from tablelog.commands.ruleset_list import found_rulesets


def register(holder: typer.Typer) -> None:
    holder.command("rulesets")(list_rulesets)


def list_rulesets(json: JsonOption = False) -> None:
    """List every ruleset found through the `tablelog.rulesets` entry points: its name, its
    version, its package and the distribution that installed it. A ruleset that does not
    load is listed with why; the others work all the same.

    Example: `tablelog rulesets`, or `tablelog rulesets --json`
    """
    found = found_rulesets()
    if json:
        emit_json(found)
        return
    rows = [
        [
            f.name,
            str(f.version) if f.version is not None else "-",
            f.package,
            f"{f.distribution} {f.distribution_version}".strip() or "-",
            "ok" if f.ok else f"broken: {f.problem}",
        ]
        for f in found
    ]
    say(columns(["ruleset", "version", "package", "distribution", "status"], rows))
