"""The duel's commands over HTTP."""

from __future__ import annotations

from tablelog.commands.endpoints import Endpoint
from tablelog_duel import rules as r

ENDPOINTS = [
    Endpoint(r.OpenDuel, "/duel/conflicts", "Open a duel"),
    Endpoint(r.Play, "/duel/conflicts/{conflict}/plays", "Play a card face down"),
    Endpoint(r.Reveal, "/duel/conflicts/{conflict}/reveals", "Reveal both cards"),
]
