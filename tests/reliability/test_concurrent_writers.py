"""Concurrent writers on one campaign, on SQLite and PostgreSQL: 8 processes of 250 commands
each through the command layer (which decides inside the write lock), then 16 clients of a
real service. Every command lands exactly once, at the seq it was acknowledged with; seq is
gapless; the chain verifies; the state read back is a fresh replay's."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx

from tablelog.storage import open_store
from tests.reliability.conftest import (
    CAMPAIGN,
    acknowledged,
    assert_whole,
    commander,
    narrations,
    table_in_play,
)
from tests.support.server import running_service

PROCESSES, EACH = 8, 250
CLIENTS, REQUESTS = 16, 40
TIMEOUT_S = 300  # for all the processes together; they take seconds


def test_eight_processes_each_land_every_command_once(target: str) -> None:
    table_in_play(target)
    writers = [commander(target, f"w{n}", EACH) for n in range(PROCESSES)]
    outputs = [writer.communicate(timeout=TIMEOUT_S) for writer in writers]
    for writer, (_, err) in zip(writers, outputs, strict=True):
        assert writer.returncode == 0, err
    acked = {text: seq for out, _ in outputs for text, seq in acknowledged(out).items()}
    assert len(acked) == PROCESSES * EACH
    store = open_store(target)
    try:
        stored = narrations(assert_whole(store))
    finally:
        store.close()
    assert stored == acked  # each once, where its writer was told it went
    for n in range(PROCESSES):  # and each writer's in the order it sent them
        seqs = [stored[f"w{n}.{i}"] for i in range(EACH)]
        assert seqs == sorted(seqs)


def test_sixteen_clients_of_the_service_each_land_every_command_once(
    target: str, tmp_path: Path
) -> None:
    token = table_in_play(target)
    acked: dict[str, int] = {}
    failures: list[str] = []
    lock = threading.Lock()

    def client(number: int, url: str) -> None:
        headers = {"Authorization": f"Bearer {token}"}
        with httpx.Client(base_url=url, headers=headers, timeout=60) as http:
            for i in range(REQUESTS):
                text = f"client{number}.{i}"
                done = http.post(
                    f"/campaigns/{CAMPAIGN}/improv/conflicts/c1/narrations",
                    json={"side": "riso", "text": text},
                )
                with lock:
                    if done.status_code != 201:
                        failures.append(f"{text}: {done.status_code} {done.text}")
                    else:
                        acked[text] = done.json()["seq"]

    with running_service(target, tmp_path) as url:
        clients = [threading.Thread(target=client, args=(n, url)) for n in range(CLIENTS)]
        for thread in clients:
            thread.start()
        for thread in clients:
            thread.join(timeout=TIMEOUT_S)
    assert failures == []
    assert len(acked) == CLIENTS * REQUESTS
    store = open_store(target)
    try:
        assert narrations(assert_whole(store)) == acked
    finally:
        store.close()
