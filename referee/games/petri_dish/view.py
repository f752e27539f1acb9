"""The dish as text: the board diagram, status lines and what an action changed.

Pure functions returning strings; the CLI prints them.
"""
from __future__ import annotations

from typing import Any

from referee.games.petri_dish.engine import SIZE_WORDS, Position
from referee.games.petri_dish.geometry import FILES, INDEX, PRIME_AREAS, PRIME_POINTS
from referee.model import State

LEGEND = ("W1 W2 W4: white germ of 1, 2 or 4 tokens; B1 B2 B4: black; "
          "+ open foodpoint; * open point of a prime area")


def cell(v: int, name: str) -> str:
    if v:
        return ("W" if v > 0 else "B") + str(abs(v))
    return "*" if name in PRIME_POINTS else "+"


def diagram(board: tuple[int, ...]) -> list[str]:
    """Rank 8 at the top, files a-h left to right, cut-off corners blank."""
    files = "    " + " ".join(f"{f:<2}" for f in FILES)
    lines = [files.rstrip()]
    for rank in range(8, 0, -1):
        cells = []
        for f in FILES:
            name = f"{f}{rank}"
            cells.append(cell(board[INDEX[name]], name) if name in INDEX else "  ")
        lines.append(f"{rank}   " + " ".join(f"{c:<2}" for c in cells) + f"  {rank}")
    lines.append(files.rstrip())
    return lines


def area_holders(board: tuple[int, ...]) -> list[str]:
    out = []
    for area, points in PRIME_AREAS.items():
        owners = {v > 0 for v in (board[INDEX[p]] for p in points) if v}
        if not owners:
            who = "empty"
        elif len(owners) == 2:
            who = "shared"
        else:
            who = "white alone" if owners == {True} else "black alone"
        out.append(f"{area} {who}")
    return out


def status_lines(state: State, pos: Position, seen: int) -> list[str]:
    lines = diagram(pos.board)
    lines.append(LEGEND)
    lines.append("prime areas: " + ", ".join(area_holders(pos.board))
                 + f" ({pos.variant.areas_to_win} held alone wins)")
    if state.result:
        lines.append(f"game over: {state.result}")
    elif not state.finished:
        mover = state.active_player
        if pos.placing:
            lines.append(f"{mover.name} ({mover.faction}) places a small germ on an open foodpoint")
        elif pos.passed:
            lines.append(f"the last player passed: if {mover.name} passes too, the game is a draw")
        if seen >= 3:
            lines.append(f"this position has occurred {seen} times: {mover.name} may claim-draw")
    return lines


def board_text(state: State, pos: Position) -> str:
    """What `board` prints: the diagram, the reserves and who is to move."""
    reserves = ", ".join(f"{p.faction} ({p.name}) {p.fields.get('reserve')}" for p in state.players)
    if state.winner is not None:
        tail = f"won by {state.winner}"
    elif state.result:
        tail = f"game over: {state.result}"
    else:
        tail = f"{state.active_player.name} ({state.active_player.faction}) to play"
    return "\n".join([*diagram(pos.board), f"reserves: {reserves}", tail])


def _germ(entry: Any) -> str:
    if not entry:
        return "open"
    return f"{entry['owner']} {SIZE_WORDS[entry['size']]} ({entry['size']})"


def change_lines(before: State, after: State) -> list[str]:
    """One line per foodpoint whose germ changed, then the game's own notes."""
    old, new = before.fields.get("board") or {}, after.fields.get("board") or {}
    lines = []
    for name in INDEX:
        if old.get(name) != new.get(name):
            lines.append(f"{name}: {_germ(old.get(name))} -> {_germ(new.get(name))}")
    if after.result and not before.result:
        lines.append(f"game over: {after.result}")
    elif after.fields.get("passed") and not after.result:
        lines.append("passed")
    return lines

