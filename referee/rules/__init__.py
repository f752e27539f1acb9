"""The plug-in point for each game's rules.

A game is a package under `referee/games/`, named in the registry
(`GameSlug` in referee/model.py); its `rules` module exports `RULES`, one
object satisfying `GameRules` (in practice a subclass of
`referee.rules.generic.GenericRules`). The core never looks inside a game:
it asks the rules which dice an action needs, asks them to `check` the
action (raising RuleViolation when it is not allowed), then asks them to
`apply` it with the dice. `apply` must be a pure function of its inputs, so
replaying the recorded dice rebuilds the same table.

Each game lists the actions it understands in a table of `ActionSpec`s (its
`ACTIONS`, added to the shared ones in shared.py); the rules dispatch
through that table. docs/adding-a-game.md describes the whole shape.

Only the module of the game being played is imported.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence

from referee.errors import RefereeError
from referee.model import Action, GameSlug, PlayerName, Setup, State

# The functions of an ActionSpec take the game's rules object first, so one
# function can serve several games (the shared actions use its settings).
Check = Callable[[Any, State, Action], None]
Apply = Callable[[Any, State, Action, Sequence[int]], State]
DiceNeeded = Callable[[Any, State, Action], tuple[int, ...]]
Narrate = Callable[[Any, State, Action, Sequence[int]], list[Any]]  # list[referee.rules.facts.Fact]
Play = Callable[[Any, State, Action, Sequence[int]], tuple[State, list[Any]]]  # (state, facts)


@dataclass(frozen=True)
class ActionSpec:
    """One action a game understands, under the name the log records.

    check:   (rules, state, action) raises RuleViolation (or another
             RefereeError) if the action is not allowed now;
    apply:   (rules, state, action, dice) the state after the checked action,
             using exactly `dice`;
    dice:    (rules, state, action) the faces of each die it needs, in the
             order they are used; None: no dice;
    narrate: (rules, state, action, dice) what it did beyond what the changed
             state shows, as Facts (referee/facts.py: the story an echo
             tells, each fact worded by the game's phrases); None: nothing;
    play:    (rules, state, action, dice) apply and narrate in one run: the
             state after it and its facts (a Culture War battle is fought
             once); None: apply, then narrate.
    """

    name: str
    check: Check
    apply: Apply
    dice: DiceNeeded | None = None
    narrate: Narrate | None = None
    play: Play | None = None


def action_table(*groups: Iterable[ActionSpec]) -> Mapping[str, ActionSpec]:
    """The actions of a game by name: the groups in order, a later group's
    action replacing an earlier one of the same name (a game's own `life`
    replaces the shared one). One group naming an action twice is a mistake
    in the table and refused at import."""
    table: dict[str, ActionSpec] = {}
    for group in groups:
        seen: set[str] = set()
        for spec in group:
            if spec.name in seen:
                raise ValueError(f"the action {spec.name!r} is listed twice in one table")
            seen.add(spec.name)
            table[spec.name] = spec
    return MappingProxyType(table)


class lazy_table:
    """A rules class's `actions`, built by `build` on first use: a game whose
    action code is large (Culture War) loads it only when an action is checked,
    played or listed, never for `status`. Its table names every step by a plain import."""

    def __init__(self, build: Callable[[], Mapping[str, ActionSpec]]) -> None:
        self._build = build
        self._table: Mapping[str, ActionSpec] | None = None

    def __get__(self, rules: Any, owner: type | None = None) -> Mapping[str, ActionSpec]:
        if self._table is None:
            self._table = self._build()
        return self._table


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
    """What the core asks of a game's rules. GenericRules (generic.py)
    implements all of it, with defaults for every hook a game may leave out."""

    slug: GameSlug
    title: str
    version: str  # change it whenever apply() changes: stored snapshots are then ignored
    min_players: int
    max_players: int
    faction_word: str
    house_rules: Mapping[str, HouseRule]
    actions: Mapping[str, ActionSpec]
    has_hidden_cards: bool  # True: visible_state masks cards and `status --reveal PLAYER` applies

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

    def play(self, state: State, action: Action, dice: Sequence[int]) -> tuple[State, list[Any]]:
        """`apply`, and what the action did as facts (referee/facts.py), from one run."""

    def play_drawing(self, state: State, action: Action, dice: Callable[[], int]) -> tuple[Action, State, list[Any]]:
        """Check and play an action that takes as many dice as it rolls, dice drawn as asked:
        (the action as logged, its dice counted; the state after; its facts)."""

    def default_actor(self, state: State, action: Action) -> PlayerName | None:
        """Who makes an action typed without --by (the log's actor); None: the scorekeeper."""

    def timed_answer(self, state: State) -> Action | None:
        """What is recorded when the answer waited for now does not come in time
        (its actor: the player waited for); None when no answer is waited for."""

    def phase(self, state: State) -> str | None:
        """The named phase now (status, refusals); None for a game without phases."""

    def where_is(self, state: State, card_id: str) -> list[str]:
        """Where a card's copies are on the table, in words any player may read."""

    def public_args(self, action: Action) -> dict:
        """`action.args` as any player may read them (hidden cards masked)."""

    def hides_cards(self, command: str) -> bool:
        """True if `command` may name cards no other player may see (scan mode never echoes them)."""

    def rules_can_decide(self, state: State) -> bool:
        """True while the rules can still decide the winner (`win` needs --force)."""

    def visible_state(self, state: State, reveal: Sequence[str]) -> State:
        """The state with hidden cards masked, except those of the players in `reveal`."""


def rules_for(game: GameSlug | str) -> GameRules:
    """The rules of a game; imports that game's package only."""
    from referee.rules.game import game_of  # lazy: the record is read only once a game is named

    return game_of(game).rules


def visible_state(state: State, reveal: Sequence[str] = ()) -> State:
    """The state as `status` may show it: hidden cards masked, except those of
    the players named in `reveal` (refused for a game with no hidden cards)."""
    rules = rules_for(state.game)
    if not rules.has_hidden_cards:
        if reveal:
            raise RefereeError(f"{state.game.value} has no hidden cards, so --reveal does not apply")
        return state
    return rules.visible_state(state, tuple(reveal))
