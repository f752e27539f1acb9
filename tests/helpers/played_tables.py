"""Tables filled the way real play fills them (not a test module): a
self-play game of the table's size, kept as an export and replayed up to a
point into a table file (`referee simulate --keep`, then `referee replay
--upto`). Each game's largest table after an ordinary setup: Cold War with
4 players, Divide and Conquer with 8, Culture War with 5."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

LARGEST = {  # game: (players, events to replay: the setup, then some turns of play)
    "cold-war": (4, 16),
    "divide-and-conquer": (8, 40),
    "culture-war": (5, 40),
}


def played(folder: Path, game: str, players: int, upto: int, seed: int = 3, turns: int = 30) -> Path:
    """A table of `game` with `players`, after `upto` events of a self-played game."""
    from referee.simulate.play import play_game
    from referee.simulate.runner import make_plan
    from referee.simulate.session import write_kept
    from referee.table import transfer

    folder.mkdir(parents=True, exist_ok=True)
    plan = make_plan(game, players, (), ("random",), 1, seed=seed, turn_cap=turns, keep=1)
    record = play_game(replace(plan.config(0), keep=True))
    kept = write_kept(plan, record, folder)
    db = folder / f"{game}-{players}.db"
    transfer.replay(kept, db, force=True, upto=upto)
    return db


def largest_tables(folder: Path) -> dict[str, Path]:
    return {f"{game} ({n} players)": played(folder / game, game, n, upto) for game, (n, upto) in LARGEST.items()}
