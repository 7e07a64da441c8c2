"""A toy ruleset in a distribution of its own: a one-card high-card duel.

It proves that a ruleset is one package and an entry point, nothing more: installed beside
tablelog (`pip install ./tests/duel`), it is found through the entry-point group
`tablelog.rulesets` (its pyproject.toml) and gets the CLI, the service, the page, state,
show, log, replay, audit, exports, what-if and redaction with nothing in tablelog changed.
Two players each play one card (1 to 13) face down; the reveal gives the duel to the higher
card, or to nobody on equal cards. docs/writing-a-ruleset.md walks through it.
"""
