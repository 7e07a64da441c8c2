"""The committed shuffle's algorithm (rules/rng.py): the README's test vector, 200 seeded
shuffles recomputed exactly from their seeds, and no order a one-byte change keeps."""

from __future__ import annotations

import hashlib
import random
from collections import Counter

import pytest

from tablelog.rules import rng

DECK = [f"{rank}{suit}" for suit in "SHDC" for rank in "A23456789TJQK"]
SERVER = bytes(range(32))
ALICE = bytes([0xA1] * 32)
BOB = bytes([0xB0] * 32)


def test_the_readme_vector() -> None:
    # README, "Committed shuffles": the same numbers, computed by hand with hashlib.
    assert rng.commitment(SERVER) == hashlib.sha256(rng.COMMIT_TAG + SERVER).hexdigest()
    seed = rng.shuffle_seed(SERVER, [ALICE, BOB])
    assert seed == hashlib.sha256(rng.SEED_TAG + SERVER + ALICE + BOB).digest()
    order = rng.recomputed(seed, [DECK])[0]
    assert sorted(order) == sorted(DECK)
    assert " ".join(order) == VECTOR


VECTOR = (
    "7D 7C TH AC KD 3D 2S 2H TD 6C 6S 9C 8H KS QD AH 2D 7S JD JH 5S 5D QC TS 5H 3C 4S KC AS 9S "
    "8C 8S 3H 9D 4H 4D 4C 8D 3S QS JC 7H JS 2C 6D 9H 5C KH TC QH 6H AD"
)


def by_the_readme(seed: bytes, cards: list[str]) -> list[str]:
    """The algorithm as the README words it, written again from those words alone."""
    words: list[int] = []
    counter = 0

    def word() -> int:
        nonlocal counter
        if not words:
            block = hashlib.sha256(rng.STREAM_TAG + seed + counter.to_bytes(8, "big")).digest()
            words.extend(int.from_bytes(block[i : i + 8], "big") for i in range(0, 32, 8))
            counter += 1
        return words.pop(0)

    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        limit = 2**64 - 2**64 % (i + 1)
        value = word()
        while value >= limit:
            value = word()
        j = value % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def test_the_vector_follows_from_the_words() -> None:
    seed = rng.shuffle_seed(SERVER, [ALICE, BOB])
    assert seed.hex() == "2cca7ffe8e33ae1562cbabe726a3b4ef83904b2ad69cf4a144ac417f3d24840e"
    assert " ".join(by_the_readme(seed, DECK)) == VECTOR


def test_two_hundred_seeded_shuffles_recompute_exactly() -> None:
    chooser = random.Random(20)
    for _ in range(200):
        server = chooser.randbytes(32)
        given = [chooser.randbytes(32) for _ in range(chooser.randint(0, 3))]
        decks = [DECK[: chooser.randint(1, 52)] for _ in range(chooser.randint(1, 3))]
        seed = rng.shuffle_seed(server, given)
        shuffle = rng.CommittedShuffle(seed)
        drawn = [shuffle(list(deck)) for deck in decks]
        assert [d.order for d in shuffle.draws] == [tuple(o) for o in drawn]
        assert rng.recomputed(rng.shuffle_seed(server, given), decks) == drawn
        assert by_the_readme(seed, decks[0]) == drawn[0]
        for deck, order in zip(decks, drawn, strict=True):
            assert Counter(order) == Counter(deck)


@pytest.mark.parametrize("position", [0, 13, 31])
def test_a_one_byte_change_of_seed_or_contribution_changes_the_order(position: int) -> None:
    base = rng.recomputed(rng.shuffle_seed(SERVER, [ALICE]), [DECK])
    server = bytearray(SERVER)
    server[position] ^= 1
    alice = bytearray(ALICE)
    alice[position] ^= 0x80
    assert rng.recomputed(rng.shuffle_seed(bytes(server), [ALICE]), [DECK]) != base
    assert rng.recomputed(rng.shuffle_seed(SERVER, [bytes(alice)]), [DECK]) != base
    assert rng.recomputed(rng.shuffle_seed(SERVER, [ALICE, BOB]), [DECK]) != base


def test_uniform_draws_favour_no_face() -> None:
    # 6000 d6 rolls from one stream: each face within a loose bound of 1000.
    stream = rng.Stream(hashlib.sha256(b"d6").digest())
    counts = Counter(stream.below(6) for _ in range(6000))
    assert set(counts) == set(range(6))
    assert all(850 < n < 1150 for n in counts.values())


def test_a_contribution_of_the_wrong_length_is_refused() -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        rng.shuffle_seed(SERVER, [b"short"])


PLEDGE_VECTOR = "7a8802816dc071b45cff8ea4197c28ba0315fe679cf043a1a13805d84104c0e4"


def test_the_readme_pledge_vector_follows_from_the_words() -> None:
    """README: SHA-256("tablelog/rng/pledge/v1" 0x00 || f(campaign) || f(request) ||
    f(player) || value), f(x) = x's UTF-8 length as 4 big-endian bytes, then x."""

    def framed(text: str) -> bytes:
        return len(text.encode()).to_bytes(4, "big") + text.encode()

    words = b"tablelog/rng/pledge/v1\x00" + framed("heist") + framed("5f0c2a9e1b7d4c30")
    by_hand = hashlib.sha256(words + framed("bob") + bytes(range(32))).hexdigest()
    assert rng.pledge("heist", "5f0c2a9e1b7d4c30", "bob", bytes(range(32))) == by_hand
    assert by_hand == PLEDGE_VECTOR
    # Bound to each of campaign, request and player: another of any gives another pledge.
    others = {
        rng.pledge("heist2", "5f0c2a9e1b7d4c30", "bob", bytes(range(32))),
        rng.pledge("heist", "5f0c2a9e1b7d4c31", "bob", bytes(range(32))),
        rng.pledge("heist", "5f0c2a9e1b7d4c30", "bo", bytes(range(32))),
    }
    assert PLEDGE_VECTOR not in others
    assert len(others) == 3
