"""The commands that look after the table file itself: check, backups, restore.

Registered on the group by cli/main.py; errors are translated there.
"""
from __future__ import annotations

import click

from referee.cli.common import FILE, db_option, db_path


@click.command()
@click.option("--repair", is_flag=True,
              help="Write the log up to its last sound event to a new file beside the table (never the table itself).")
@db_option
def check(repair) -> None:
    """Check the table file: SQLite's integrity check, every event's
    checksum, a fold of the whole log through the rules, and every saved
    state against it; findings event by event. Exits 1 if damaged.

    \b
    Examples:
      referee check
      referee check --repair      (damaged: keep what is sound in table.repaired.db)
    """
    from referee.table.check import check_table  # lazy: the check folds the whole log, only for `check`

    report = check_table(db_path(), repair)
    click.echo("\n".join(report.lines()))
    if not report.sound and report.repaired is None:
        click.get_current_context().exit(1)


@click.command()
@db_option
def backups() -> None:
    """List the table's rolling backups (in the folder beside it), newest last.

    \b
    Example:
      referee backups
    """
    from referee.table.backups import list_backups  # lazy: only `backups` lists them

    listing = list_backups(db_path())
    click.echo("\n".join(listing.lines()))


@click.command()
@click.argument("backup", required=False)
@click.option("--to", "target", type=FILE, metavar="FILE", help="Where to write it (default: beside the table).")
@db_option
def restore(backup, target) -> None:
    """Bring back a backup as a new table file (the table itself is left alone).
    BACKUP is its number in `referee backups` or its file; default: the newest.

    \b
    Examples:
      referee restore
      referee restore 3 --to before-the-argument.db
    """
    from referee.table.backups import restore_backup  # lazy: only `restore` needs it

    restored = restore_backup(db_path(), backup, target)
    click.echo(f"restored the backup of event {restored.seq} ({restored.source.name}) to {restored.path}; "
               f"play on it with --db {restored.path}")


def register(group: click.Group) -> None:
    for command in (check, backups, restore):
        group.add_command(command)
