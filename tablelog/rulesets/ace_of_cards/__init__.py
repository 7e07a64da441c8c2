"""The Ace of Cards deck: the whole ruleset in one package, found by its entry point
in pyproject.toml; tablelog/rulesets/__init__.py names its rooms (events, rules, views,
endpoints, cli)."""
