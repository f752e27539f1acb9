"""The debate in words: its status part (with what round end would do), change lines and phrases."""
from __future__ import annotations

from referee.games.debate import actions
from referee.games.debate import phrases as game_phrases
from referee.games.debate import view
from referee.model import State
from referee.rules.shared import SHARED_PHRASES
from referee.words.view import GameView


class DebateView(GameView):
    phrases = {**SHARED_PHRASES, **game_phrases.PHRASES}
    tally = ("fortitude",)

    def render_lines(self, state: State) -> list[str]:
        return view.status_lines(state, actions.round_report(state))

    def change_lines(self, before: State, after: State) -> list[str]:
        return view.change_lines(before, after)


VIEW = DebateView()
