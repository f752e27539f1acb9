"""Divide & Conquer in words: its status part, change lines, group labels, phrases and a fight's dice."""
from __future__ import annotations

from referee.games.divide_and_conquer import phrases as game_phrases
from referee.games.divide_and_conquer import view
from referee.model import State
from referee.rules.shared import SHARED_PHRASES
from referee.words.view import GameView


class DivideAndConquerView(GameView):
    phrases = {**SHARED_PHRASES, **game_phrases.PHRASES}
    tally = ("net",)
    quiet = ("drawn",)

    def label(self, state: State, key: str, value: object) -> str | None:
        return game_phrases.label(state, key, value)

    def pieces(self, state: State) -> list[tuple[str, str]]:
        return [(ref, game_phrases.label(state, "target", ref) or ref) for ref in (state.fields.get("groups") or {})]

    def log_outcome(self, before: State, event: object, after: State) -> list[str]:
        """A fight's dice and result, without the sums' sources."""
        last = after.fields.get("last_attack")
        if not last or last == before.fields.get("last_attack"):
            return []
        return [game_phrases.fight_text(last)]

    def render_lines(self, state: State) -> list[str]:
        return view.status_lines(state)

    def change_lines(self, before: State, after: State) -> list[str]:
        return view.change_lines(before, after)


VIEW = DivideAndConquerView()
