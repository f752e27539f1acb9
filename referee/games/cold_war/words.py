"""15 Minute Cold War in words: its status part, change lines, labels and phrases."""
from __future__ import annotations

from referee.games.cold_war import desk as D
from referee.games.cold_war import phrases as game_phrases
from referee.games.cold_war import view
from referee.model import State
from referee.rules.shared import SHARED_PHRASES
from referee.words.view import GameView


class ColdWarView(GameView):
    phrases = {**SHARED_PHRASES, **game_phrases.PHRASES}
    tally = ("score",)

    def label(self, state: State, key: str, value: object) -> str | None:
        return game_phrases.label(state, key, value)

    def pieces(self, state: State) -> list[tuple[str, str]]:
        """Every player's stacks (M1, S2) and the leader (L)."""
        out = {"L": "a leader"}
        for name, desk in (state.fields.get("desks") or {}).items():
            for spot, zone, _ in D.spots(desk):
                out.setdefault(spot, f"a {zone} stack")
        return sorted(out.items())

    def render_lines(self, state: State) -> list[str]:
        return view.render_lines(state)

    def change_lines(self, before: State, after: State) -> list[str]:
        return view.change_lines(before, after)


VIEW = ColdWarView()
