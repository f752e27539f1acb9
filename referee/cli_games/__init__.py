"""Each game's own commands: `referee/cli_games/<game>.py` exports
`COMMANDS: dict[str, click.Command]`. They are offered only when the table in
use plays that game (see RefereeGroup.resolve_command in referee/cli.py)."""
