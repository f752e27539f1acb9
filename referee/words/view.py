"""A game's words, apart from its rules: what `status`, echoes, the log and Tab
completion say of its table. The rules decide and record facts; a view words
them (boardgame.io's playerView, for people).

`GameView` is the default every game starts from: each of the game's own
fields one a line, changed fields one a line, the shared actions' phrases.
A game's `words.py` subclasses it as `VIEW`, reached through `view_for`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from referee.model import Action, GameSlug, State
from referee.rules.facts import Fact, change
from referee.rules.game import game_of
from referee.rules.shared import SHARED_PHRASES
from referee.words.fields import field_changes, field_lines

if TYPE_CHECKING:  # annotations only
    from referee.words.wording import Phrase


class GameView:
    """The words of a game; every method is pure, reading the state it is given."""

    phrases: Mapping[str, "Phrase"] = SHARED_PHRASES  # the actions in words: these plus the game's own PHRASES
    tally: tuple[str, ...] = ()  # each player's own scores the log reports changes of
    quiet: tuple[str, ...] = ()  # each player's bookkeeping fields: in status --json, not in the table

    def render_lines(self, state: State) -> list[str]:
        """The game's own part of `status` (the core adds the phase line when
        these lines have none). By default each of the game's fields, one a line."""
        return field_lines(state)

    def change_lines(self, before: State, after: State) -> list[str]:
        """What an action changed in the game's own part of the table, in words.
        By default each of the game's fields that changed, one a line."""
        return field_changes(before, after)

    def change_facts(self, before: State, after: State) -> list[Fact]:
        """`change_lines` as facts (referee/rules/facts.py): a game whose lines a
        story may already tell gives them fields `covered` reads (Culture War
        names the piece of a coins, in-play or gone line)."""
        return [change(line) for line in self.change_lines(before, after)]

    def covered(self, facts: Sequence[Fact], line: Fact) -> bool:
        """Whether a change line only repeats what `narrate`'s facts already
        told, judged by their fields (never by their words)."""
        return False

    def log_outcome(self, before: State, event: object, after: State) -> list[str]:
        """The game's own account of what an action did, for its log row (e.g. a battle's dice)."""
        return []

    def pieces(self, state: State) -> list[tuple[str, str]]:
        """What a command may name on the table, for Tab completion: (what to
        type, what it is), e.g. ("ann/window-smasher", "#5 Window Smasher")."""
        return []

    def label(self, state: State, key: str, value: object) -> str | None:
        """A thing on the table named in words (a handle, a group) for a phrase, or None."""
        return None

    def move_text(self, state: State, action: Action, who: str, names: Mapping[str, str] | None = None,
                  labeller: Callable[[State, str, object], str | None] | None = None) -> str | None:
        """A listed move in words, through the game's phrases (None: no phrase fits it);
        `names` names card ids, `labeller` names things on the table (default: `label`)."""
        from referee.words.wording import Words, phrase  # lazy: words only when moves are listed for people

        said = phrase(self.phrases, action.name, Words(action.args, who, dict(names or {}), state,
                                                       labeller or self.label))
        return said[0] if said else None


def view_for(game: GameSlug | str) -> GameView:
    """The words of a game (its `words.VIEW`)."""
    return game_of(game).view
