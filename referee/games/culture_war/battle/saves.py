"""Culture War "would die" saves: when two or more cards could keep one unit
alive (Bug-Out Bag on it, Private Fire Brigade beside it, its own survival
roll, a Group Hug played in its battle), its owner chooses which acts first;
the referee never picks. The choice is asked with a prompt
(referee/prompts.py) as soon as a second such card comes into play, so a
battle or a card's text that later destroys the unit already knows it; the
answer is the card to try first (the others follow while the unit would
still die). Kept on the unit as `save_first`, {the cards, joined by "+":
the choice}, so each set of cards is asked about once.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from referee.rules import prompts
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.effects.handlers import save_key, save_sources
from referee.model import State

KIND = "save-first"
TRIGGERS = ("would-die", "attached-would-die", "other-would-die")


def ask_choices(state: State) -> State:
    """`state` with a prompt for each unit that two or more cards could keep
    alive and whose owner has not chosen among exactly those cards."""
    if state.finished or not _any_save(state.fields):
        return state
    board = Board.reading(state)  # finding who could save a unit only reads
    waiting = {(p.data or {}).get("unit") for p in prompts.pending(state) if (p.data or {}).get("kind") == KIND}
    for handle, piece in board.in_order():
        if piece["kind"] != "unit" or handle in waiting:
            continue
        chosen = piece.get("save_first") or {}
        for in_battle in (True, False):  # with a shield played in its battle, and without
            key = save_key(save_sources(board, handle, in_battle))
            among = key.split("+")
            if len(among) < 2 or key in chosen:
                continue
            text = (f"If #{handle} {piece['name']} would die, {len(among)} cards could keep it alive; "
                    f"{piece['owner']} chooses which acts first (the others follow if it does not save it)")
            state = prompts.ask(state, piece["owner"], piece.get("card") or "", piece["name"], "would die", text,
                                choices=among, data={"kind": KIND, "unit": handle, "among": key})
            break
    return state


def _any_save(fields: Any) -> bool:
    """Whether any card in play could keep a unit alive (most tables: none, so nothing to work out)."""
    def saves(effects: Any) -> bool:
        return any(e.get("when") in TRIGGERS for e in effects or ())

    return any(t.get("stat") == "shield" for t in fields.get("timed", ())) or any(
        saves(p.get("effects")) or any(saves(m.get("effects")) for m in p.get("mods", ()))
        for p in fields.get("pieces", {}).values())


def answer(state: State, prompt: prompts.Prompt, choice: str) -> State:
    """The owner's choice, kept on the unit (if it is still in play)."""
    data: dict[str, Any] = dict(prompt.data or {})
    fields = dict(state.fields)
    pieces = dict(fields.get("pieces", {}))
    if data["unit"] not in pieces:
        return state
    piece = dict(pieces[data["unit"]])
    piece["save_first"] = {**(piece.get("save_first") or {}), data["among"]: choice}
    pieces[data["unit"]] = piece
    fields["pieces"] = pieces
    return replace(state, fields=fields)
