"""Culture War in words: its status part, change facts, labels, phrases and a battle's rolls."""
from __future__ import annotations

from typing import Sequence

from referee.games.culture_war import phrases as game_phrases
from referee.games.culture_war import view
from referee.games.culture_war.table import zones
from referee.games.culture_war.table.board import Board
from referee.games.culture_war.rules import RULES
from referee.model import Event, State
from referee.rules.facts import Fact
from referee.rules.shared import SHARED_PHRASES
from referee.words.view import GameView


class CultureWarView(GameView):
    phrases = {**SHARED_PHRASES, **game_phrases.PHRASES}
    quiet = (zones.KNOWN,)  # the cards seen going back to a hand: `referee card` says where they are

    def label(self, state: State, key: str, value: object) -> str | None:
        return game_phrases.label(state, key, value)

    def pieces(self, state: State) -> list[tuple[str, str]]:
        board = Board(state)
        return [(view.long_handle(board, h), f"#{h} {p['name']}") for h, p in board.pieces.items()]

    def covered(self, facts: Sequence[Fact], line: Fact) -> bool:
        """A Real Estate's coins or a piece entering or leaving play, already in the story."""
        return game_phrases.covered(facts, line)

    def log_outcome(self, before: State, event: Event, after: State) -> list[str]:
        """A battle's rolls, as `3+2=5 v 6+0=6 fails` (the rules' story of it, from the recorded dice)."""
        if event.action not in ("battle", "settle"):
            return []
        facts = RULES.narrate(before, event.to_action(), event.dice)
        return [game_phrases.roll_text(f.roll) for f in facts if f.roll is not None]

    def render_lines(self, state: State) -> list[str]:
        return [*view.render_lines(state), *zones.pile_lines(state)]  # the core shows the phase

    def change_lines(self, before: State, after: State) -> list[str]:
        return [f.text for f in view.change_facts(before, after)]

    def change_facts(self, before: State, after: State) -> list[Fact]:
        return view.change_facts(before, after)


VIEW = CultureWarView()
