"""No agent can loop: the moves a seat may not be offered again this turn.

The self-play loop keeps, for each player, the actions they chose in the
turn under way. A move is not offered when
- it undoes one the same player made earlier in this turn (the game's
  `undoes(earlier, later)` in its policy module: ally then unally, a Cold
  War stack formed then broken), or
- it is one of the game's moves that change nothing that counts (its
  policy module's `IDLE`: alliances, regroups) and the player has made
  `IDLE_CAP` of them this turn already.
If that would leave a player no move at all, every move is offered (the
guard never jams a game). The rules stay the judge of what is legal: the
guard only narrows what an agent is offered, and `--check` still holds
every move against all the legal ones.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from referee.model import Action, GameSlug, PlayerName, State
from referee.rules.game import Part, game_of

IDLE_CAP = 3  # moves that change nothing that counts, per player and turn


@lru_cache(maxsize=None)
def policy_module(game: GameSlug):
    """The game's policy module (referee/games/<game>/policy.py), or None."""
    return game_of(game).load(Part.POLICY)


def _turn_key(state: State) -> tuple[Any, ...]:
    return (state.round, state.turn, state.active)


@dataclass
class Guard:
    game: GameSlug
    _key: tuple[Any, ...] | None = None
    _made: dict[str, list[Action]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        module = policy_module(self.game)
        self._undoes: Callable[[Action, Action], bool] = getattr(module, "undoes", None) or (lambda a, b: False)
        self._idle: frozenset[str] = frozenset(getattr(module, "IDLE", ()))

    def clone(self) -> "Guard":
        twin = Guard(self.game)
        twin._key, twin._made = self._key, {k: list(v) for k, v in self._made.items()}
        return twin

    def _history(self, state: State, player: PlayerName) -> list[Action]:
        key = _turn_key(state)
        if key != self._key:
            self._key, self._made = key, {}
        return self._made.setdefault(str(player), [])

    def allow(self, state: State, player: PlayerName) -> Callable[[Action], bool]:
        """The guard's verdict on each action `player` might choose now."""
        made = self._history(state, player)
        if not made:
            return _anything
        idle = sum(1 for a in made if a.name in self._idle)
        undoes, idle_names = self._undoes, self._idle

        def allowed(action: Action) -> bool:
            if action.name in idle_names and idle >= IDLE_CAP:
                return False
            return not any(undoes(earlier, action) for earlier in made)

        return allowed

    def record(self, state: State, player: PlayerName, action: Action) -> None:
        """`player` chose `action` on `state` (before it is played)."""
        self._history(state, player).append(action)


def _anything(action: Action) -> bool:
    return True
