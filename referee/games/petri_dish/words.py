"""The Petri dish in words: the dish as text, change lines, points for Tab completion and phrases."""
from __future__ import annotations

from referee.games.petri_dish import phrases as game_phrases
from referee.games.petri_dish import view
from referee.games.petri_dish.dish import position_of, repetitions
from referee.model import State
from referee.rules.shared import SHARED_PHRASES
from referee.words.view import GameView


class PetriDishView(GameView):
    phrases = {**SHARED_PHRASES, **game_phrases.PHRASES}

    def pieces(self, state: State) -> list[tuple[str, str]]:
        """The dish's points, a cell's owner and size beside each occupied one."""
        board = state.fields.get("board") or {}
        return [(point, f"{cell['owner']} {cell['size']}" if cell else "empty") for point, cell in board.items()]

    def render_lines(self, state: State) -> list[str]:
        return view.status_lines(state, position_of(state), repetitions(state))

    def change_lines(self, before: State, after: State) -> list[str]:
        return view.change_lines(before, after)


VIEW = PetriDishView()
