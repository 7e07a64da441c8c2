"""Improv (seed 000), the primary ruleset: the whole ruleset in one package, found by its
entry point in pyproject.toml; tablelog/rulesets/__init__.py names its rooms (events, rules, views,
endpoints, cli)."""

PRIMARY = True  # `tablelog demo` without --ruleset plays Improv's demo
