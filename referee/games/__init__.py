"""The plug-in point for each game's rules.

A game's rules are one object satisfying `GameRules`, exported as `RULES`
from `referee/games/<slug with underscores>.py`. The core never looks inside
a game: it asks the rules which dice an action needs, asks them to `check`
the action (raising RuleViolation when it is not allowed), then asks them to
`apply` it with the dice. `apply` must be a pure function of its inputs, so
replaying the recorded dice rebuilds the same table.

Only the module of the game being played is imported.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Mapping, Protocol, Sequence

from referee.errors import RefereeError
from referee.model import Action, GameSlug, Setup, State

MODULES: dict[GameSlug, str] = {
    GameSlug.CULTURE_WAR: "referee.games.culture_war",
    GameSlug.DIVIDE_AND_CONQUER: "referee.games.divide_and_conquer",
    GameSlug.PETRI_DISH: "referee.games.petri_dish",
    GameSlug.DEBATE: "referee.games.debate",
    GameSlug.COLD_WAR: "referee.games.cold_war",
}


@dataclass(frozen=True)
class HouseRule:
    """A table-adjustable default. `kind` is int or str; `default` None means
    the rules compute the value (say so in `help`).

    Every value a table sets is checked: whole numbers against `minimum` and
    `maximum` (when given), words against `choices` (when given), so a value
    such as `unopposed-damage=-3` is refused with a clear message."""

    key: str
    default: int | str | None
    help: str
    kind: type = int
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    def parse(self, text: str) -> int | str:
        if self.kind is int:
            try:
                value = int(str(text).strip())
            except ValueError:
                raise RefereeError(f"house rule {self.key!r} takes a whole number, not {text!r}") from None
            self.check_range(value)
            return value
        word = str(text).strip().lower()
        if self.choices and word not in self.choices:
            raise RefereeError(
                f"house rule {self.key!r} is one of {', '.join(self.choices)}, not {text!r}")
        return word if self.choices else str(text)

    def check_range(self, value: int) -> None:
        low, high = self.minimum, self.maximum
        if (low is not None and value < low) or (high is not None and value > high):
            if low is not None and high is not None:
                span = f"from {low} to {high}"
            elif low is not None:
                span = f"{low} or more"
            else:
                span = f"{high} or less"
            raise RefereeError(f"house rule {self.key!r} must be {span}, not {value}")

    def describe(self) -> str:
        """The allowed values as `referee games` shows them: `whole number 0..10`,
        `whole number 1 or more`, `one of: a, b`."""
        if self.choices:
            return "one of: " + ", ".join(self.choices)
        if self.kind is not int:
            return "any text"
        if self.minimum is not None and self.maximum is not None:
            return f"whole number {self.minimum}..{self.maximum}"
        if self.minimum is not None:
            return f"whole number {self.minimum} or more"
        if self.maximum is not None:
            return f"whole number {self.maximum} or less"
        return "any whole number"

    def describe_range(self) -> str:
        """The allowed values in words, for `referee games` and the rule sheets."""
        if self.choices:
            return " | ".join(self.choices)
        if self.kind is int and (self.minimum is not None or self.maximum is not None):
            low = "" if self.minimum is None else str(self.minimum)
            high = "" if self.maximum is None else str(self.maximum)
            return f"{low}..{high}"
        return ""


class GameRules(Protocol):
    slug: GameSlug
    title: str
    version: str  # change it whenever apply() changes: stored snapshots are then ignored
    min_players: int
    max_players: int
    house_rules: Mapping[str, HouseRule]

    def setup_dice(self, setup: Setup) -> tuple[int, ...]:
        """Faces of the dice the table needs at setup (e.g. a random start)."""

    def setup(self, setup: Setup, dice: Sequence[int]) -> State:
        """The first state; raises RefereeError if the setup is not allowed."""

    def dice_needed(self, state: State, action: Action) -> tuple[int, ...]:
        """Faces of each die `action` needs, in the order they are used."""

    def check(self, state: State, action: Action) -> None:
        """Raise RuleViolation (or UnknownPlayer) if `action` is not allowed now."""

    def apply(self, state: State, action: Action, dice: Sequence[int]) -> State:
        """The state after a checked action, using exactly `dice`."""


def rules_for(game: GameSlug | str) -> GameRules:
    slug = game if isinstance(game, GameSlug) else GameSlug.parse(game)
    return importlib.import_module(MODULES[slug]).RULES


def visible_state(state: State, reveal: Sequence[str] = ()) -> State:
    """The state as `status` may show it. A game with hidden cards defines
    `visible_state(state, reveal)` on its rules to mask them, showing only the
    hidden cards of the players named in `reveal`."""
    hook = getattr(rules_for(state.game), "visible_state", None)
    if hook is None:
        if reveal:
            raise RefereeError(f"{state.game.value} has no hidden cards, so --reveal does not apply")
        return state
    return hook(state, tuple(reveal))
