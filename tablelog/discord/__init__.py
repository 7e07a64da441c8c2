"""Discord's slash commands (issue 30): a third adapter beside the CLI and the HTTP API.

Discord POSTs each interaction to the service (`http/discord.py`, HTTP interactions: no
gateway, no bot process). `signature` checks that Discord sent it; `tree` is the `/tl`
command set, made from the CLI's own commands (names, options, help); `argv` turns a slash
command back into the CLI's words and lets the CLI parse them into the typed command, so a
command means exactly what it means on the command line; `answers` acts and answers, with
the caller's seat (`commands/discord_links.py`) deciding what it may do and see.
"""
