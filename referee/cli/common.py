"""Pieces every command shares: the --db option, JSON output, warnings.

Part of the command-line layer (it imports click); the core never uses it.
"""
from __future__ import annotations

import json
from pathlib import Path

import click

from referee.table import operations as table

AMOUNT = {"ignore_unknown_options": True}  # so `life Bob -5` reads -5 as the amount


class FilePath(click.ParamType):
    """A file's path (not a folder), as a Path. click.Path would do, but
    loading it costs every referee command a millisecond (it imports locale)."""

    name = "file"

    def convert(self, value, param, ctx) -> Path:
        path = Path(value)
        if path.is_dir():
            self.fail(f"{value!r} is a folder, not a file", param, ctx)
        return path


FILE = FilePath()


def _set_db(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.ensure_object(dict)["db"] = value


db_option = click.option(
    "--db", metavar="PATH", expose_value=False, callback=_set_db, is_eager=True,
    help="Table file (default: $REFEREE_DB, else ./table.db).",
)


def _set_project(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.ensure_object(dict)["project"] = value


project_option = click.option(
    "--project", metavar="DIR", expose_value=False, callback=_set_project, is_eager=True, envvar="REFEREE_PROJECT",
    help="Project whose card sources to read (default: found from the current directory upward, "
         "else the five games installed with the referee; also $REFEREE_PROJECT).",
)


def db_path() -> Path:
    """--db given to the command or the group, else $REFEREE_DB, else ./table.db."""
    return table.table_path((click.get_current_context().find_object(dict) or {}).get("db"))


def emit(data: object) -> None:
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def warn(lines) -> None:
    for line in lines:
        click.echo(f"warning: {line}", err=True)
