"""An account as terminal text: the audit's default output."""

from __future__ import annotations

import json

from tablelog.projections.account import Account, ConflictAccount, Table


def table_lines(table: Table, indent: str = "    ") -> list[str]:
    widths = [
        max(len(row[i]) for row in [table.columns, *table.rows]) for i in range(len(table.columns))
    ]
    return [
        indent + "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip()
        for row in [table.columns, *table.rows]
    ]


def conflict_lines(conflict: ConflictAccount) -> list[str]:
    lines = [f"{conflict.title} (seq {conflict.first_seq}-{conflict.last_seq})"]
    lines.extend(f"  {name}: {verdict}" for name, verdict in conflict.guarantees.items())
    for section in conflict.sections:
        lines.append(f"  {section.title}")
        if section.table is not None:
            lines.extend(table_lines(section.table))
        lines.extend(f"    [{note.seq}] {note.text}" for note in section.notes)
    return lines


def verdict_lines(account: Account) -> list[str]:
    if account.ok:
        return [
            f"verdict: every recorded decision of campaign {account.campaign} follows from the "
            f"events before it under its rules and options (up to seq {account.seq})"
        ]
    lines = [f"verdict: {len(account.discrepancies)} recorded decision(s) do not follow:"]
    for d in account.discrepancies:
        where = f" in conflict {d.conflict}" if d.conflict else ""
        if d.field == "*":
            lines.append(f"  seq {d.seq} ({d.type}{where}): {d.expected}")
        else:
            lines.append(
                f"  seq {d.seq} ({d.type}{where}): {d.field} is recorded as "
                f"{json.dumps(d.recorded)}; the rules give {json.dumps(d.expected)}"
            )
    return lines


def account_lines(account: Account) -> list[str]:
    lines: list[str] = [
        f"audit of campaign {account.campaign} ({account.ruleset}), seq 1-{account.seq}"
    ]
    if not account.conflicts:
        lines.append("no conflicts yet")
    for conflict in account.conflicts:
        lines.append("")
        lines.extend(conflict_lines(conflict))
    if account.access:
        lines.append("")
        lines.append("access")
        lines.extend(f"    [{note.seq}] {note.text}" for note in account.access)
    if account.shuffles:
        lines.append("")
        lines.append("committed shuffles drawn without a contribution, or lapsed")
        lines.extend(f"    [{note.seq}] {note.text}" for note in account.shuffles)
    lines.append("")
    lines.extend(verdict_lines(account))
    return lines
