"""End-to-end, locally: a sealed campaign on one machine (the operator's own CLI seals and
opens), and a what-if over it, which seals in memory and writes none of the player's files."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.transcript import create, ok, refused, run


def test_a_sealed_round_and_a_whatif_over_it(tmp_path: Path) -> None:
    sealed = tmp_path / "sealed"
    env = {"TABLELOG_SEALED": str(sealed)}

    def tl(*args: str) -> str:
        return ok(run(tmp_path, *args, env=env))

    create(tmp_path, "vault", "--option", "sealed_plays=true")
    tl("improv", "character", "bob", "Kit")
    tl("session", "start")
    tl("improv", "open", "--id", "c1")
    tl("improv", "stake", "c1", "Riso", "Riso gets away", "--gm")
    tl("improv", "stake", "c1", "Kit", "Kit catches Riso", "--opposes", "Riso")
    assert "plays a sealed card" in tl("improv", "play", "c1", "kit", "AH")
    # Sealing needs the card itself: the CLI refuses to seal nothing.
    assert "name the card" in refused(run(tmp_path, "improv", "play", "c1", "riso", env=env))
    assert "AH" not in tl("improv", "show", "c1")
    before = (sealed / "vault.jsonl").read_bytes()
    moves = tmp_path / "moves.txt"
    moves.write_text("improv play c1 riso 3C\nimprov reveal c1\n", encoding="utf-8")
    out = tl("whatif", "--at", "8", str(moves))
    assert "kit beats riso" in out
    assert (sealed / "vault.jsonl").read_bytes() == before  # the what-if wrote nothing here
    tl("improv", "play", "c1", "riso", "KS")
    tl("improv", "unseal", "c1", "kit")
    # Opened, a card is public (its opening is in the log); the other is still unknown.
    shown = tl("improv", "show", "c1", "--as", "gm")
    assert "A♥" in shown
    assert "K♠" not in shown
    out = tl("improv", "reveal", "c1")  # the operator's machine holds both openings
    assert "kit beats riso" in out
    assert "sealed: held" in tl("audit")
