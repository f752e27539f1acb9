"""One self-played game: a GameConfig in, a GameRecord out.

The loop is the table's own: the rules set the game up with the dice the
table's seeded roller gives, then for every action the player to act (the
one a waiting prompt asks, else the player whose turn it is, else anyone the
rules let act) gets their legal moves from `referee.rules.legal` (generated from
their own hand only), their agent picks one from their own view, and the
rules `apply` it with the roller's next dice. Where the game lets another
player answer the chosen move from their hand (a Cold War defender's block,
redirect or shields: `answers` in the game's selfplay module), that player's
agent then picks the answer from their own view and hand, and the move as
answered is the one played. Nothing is written and nothing is worded on the way.

Card games also need their physical truth, the printed decks dealt by copy
and each hand: a game's `selfplay` module provides it (`deal(rules, state,
rng)` returning a `Physical`); the Petri dish has no cards and needs none.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Mapping, Protocol, Sequence

from referee.rules import dice as dicelib
from referee.errors import RefereeError
from referee.rules import rules_for
from referee.rules.legal import Hands, Move
from referee.model import Action, GameSlug, PlayerName, Setup, State
from referee.simulate.agents import AgentKind, answerer, drawing, roller, selfplay_module
from referee.simulate.guard import Guard
from referee.simulate.seats import make_agent
from referee.simulate.turns import concrete_moves, in_turn, own_hand
from referee.rules.unseen import unseen


class Outcome(str, Enum):
    WIN = "win"
    DRAW = "draw"  # the rules ended it with no winner
    CAPPED = "capped"  # the turn cap came first: never a win
    JAM = "jam"  # not over, yet nobody had a legal move, or a generated move was refused: a fault in the rules


@dataclass(frozen=True)
class Seat:
    name: str
    faction: str | None
    agent: AgentKind = AgentKind.RANDOM


@dataclass(frozen=True)
class GameConfig:
    game: GameSlug
    seats: tuple[Seat, ...]
    seed: int
    turn_cap: int = 200
    house_rules: Mapping[str, str] = field(default_factory=dict)
    budget: int = 24  # the search agent's playouts per decision
    check: bool = False  # assert the table's invariants after every action
    keep: bool = False  # keep the actions and dice, to write the game as an export
    project: str | None = None  # the project whose cards are read (A/B's side B), else the usual one


@dataclass(frozen=True)
class Step:
    """One action as the table would record it."""

    action: Action
    dice: tuple[int, ...]


@dataclass(frozen=True)
class GameRecord:
    seed: int
    seats: tuple[Seat, ...]  # in the order the rules seated them
    first: int  # the seat that moved first
    outcome: Outcome
    winner: int | None  # seat index
    turns: int
    actions: int
    cards_played: tuple[tuple[str, ...], ...]  # per seat, card ids in the order played
    setup_dice: tuple[int, ...] = ()
    steps: tuple[Step, ...] = ()  # only when the config asked to keep them

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "seats": [{"name": s.name, "faction": s.faction, "agent": s.agent.value} for s in self.seats],
            "first": self.first,
            "outcome": self.outcome.value,
            "winner": self.winner,
            "turns": self.turns,
            "actions": self.actions,
            "cards_played": [list(c) for c in self.cards_played],
        }


class Violation(RefereeError):
    """An invariant broke (--check): the seed and the actions reproduce it."""

    def __init__(self, game: GameSlug, seed: int, what: str, steps: Sequence[Step]):
        self.game, self.seed, self.what, self.steps = game, seed, what, tuple(steps)
        lines = [f"{game.value} seed {seed}: {what} after {len(steps)} actions:"]
        lines += [f"  {i + 1}. {s.action.name} {dict(s.action.args)} actor={s.action.actor} dice={list(s.dice)}"
                  for i, s in enumerate(steps[-10:], start=max(0, len(steps) - 10))]
        super().__init__("\n".join(lines))


class Physical(Protocol):
    """The cards on a simulated table that the rules' state does not hold."""

    def hands(self) -> Hands | None: ...

    def after(self, before: State, action: Action, after: State) -> None: ...

    def violations(self, state: State) -> list[str]: ...


class NoCards:
    """A game played without hidden cards (the Petri dish)."""

    def hands(self) -> Hands | None:
        return None

    def after(self, before: State, action: Action, after: State) -> None:
        pass

    def violations(self, state: State) -> list[str]:
        return []


CARD_GAMES_NEED_DEALER = frozenset({GameSlug.CULTURE_WAR, GameSlug.DIVIDE_AND_CONQUER,
                                    GameSlug.DEBATE, GameSlug.COLD_WAR})


def physical_for(rules: Any, state: State, rng: random.Random) -> Physical:
    """The game's dealer (its `selfplay` module), or NoCards for a game without cards."""
    module = selfplay_module(state.game)
    deal = getattr(module, "deal", None) if module is not None else None  # a module attribute, not a rules hook
    if deal is None:
        if state.game in CARD_GAMES_NEED_DEALER:
            raise RefereeError(f"self-play of {state.game.value} needs its deck dealer "
                               f"(deal in referee/games/{state.game.package}/selfplay.py), which is not built yet")
        return NoCards()
    return deal(rules, state, rng)


def setup_of(config: GameConfig) -> Setup:
    return Setup(config.game, tuple((s.name, s.faction) for s in config.seats), config.seed,
                 house_rules=dict(config.house_rules))


def play_game(config: GameConfig) -> GameRecord:
    """Play one game to its end (or the turn cap) and report it. The moves
    are listed without their words and the tables are frozen without the
    figures only a person reads (`unseen`): no rule and no agent reads them."""
    with unseen():
        if config.project is not None:
            from referee.cards.index import chosen_project  # lazy: only A/B's side B names a project

            with chosen_project(Path(config.project)):
                return _play_game(config)
        return _play_game(config)


def _play_game(config: GameConfig) -> GameRecord:
    rules = rules_for(config.game)
    setup = setup_of(config)
    position = 0
    setup_dice = dicelib.draw(config.seed, position, rules.setup_dice(setup))
    position += len(setup_dice)
    state = rules.setup(setup, setup_dice)
    seats = tuple(_seat_of(config, p.name, p.faction) for p in state.players)
    index = {s.name: i for i, s in enumerate(seats)}
    agents = [make_agent(s.agent, config.budget) for s in seats]
    rngs = [random.Random(f"simulate:{config.seed}:{i}") for i in range(len(seats))]
    physical = physical_for(rules, state, random.Random(f"deal:{config.seed}"))
    first = state.active
    audit = None
    if config.check:
        from referee.simulate.audit import Audit  # lazy: the ledger only for --check
        audit = Audit(rules, setup, setup_dice)
    try:
        return _play(config, rules, state, seats, index, agents, rngs, physical, first, position, setup_dice, audit)
    finally:
        if audit is not None:
            audit.close()


def _play(config, rules, state, seats, index, agents, rngs, physical, first, position, setup_dice, audit):
    check_rng = random.Random(f"check:{config.seed}")
    guard = Guard(config.game)
    played: list[list[str]] = [[] for _ in seats]
    steps: list[Step] = []
    actions = 0
    action_cap = config.turn_cap * 60
    outcome = None
    while True:
        if state.finished:
            outcome = Outcome.WIN if state.winner is not None else Outcome.DRAW
            break
        if state.turn > config.turn_cap or actions >= action_cap:
            outcome = Outcome.CAPPED
            break
        hands = physical.hands()
        player, move, moves = _decide(rules, state, hands, seats, index, agents, rngs, guard, physical)
        if player is None:
            if config.check:
                raise Violation(config.game, config.seed, "no player has a legal move, yet the game is not over", steps)
            outcome = Outcome.JAM
            break
        seat = index[player]
        if config.check and moves is None:  # the audit judges against every legal move
            from referee.simulate.audit import action_key  # lazy: loaded for --check anyway

            moves = concrete_moves(rules, state, player, hands)  # from the player's own hand
            if action_key(move.action) not in {action_key(m.action) for m in moves}:
                raise Violation(config.game, config.seed, f"the random draw {move.command!r} is not among "
                                f"{player}'s {len(moves)} legal moves", steps)
        answer = answerer(state.game) if hands is not None else None
        answered = answer(rules, state, move.action, hands) if answer is not None else None
        if answered is not None and len(answered[1]) > 1:  # the defender chooses their answer, from their own view
            defender, moves = answered
            other = index[defender]
            move = agents[other].choose(rules, _view(rules, state, defender), defender, moves,
                                        own_hand(hands, defender), rngs[other])
        action = move.action
        assert action is not None
        before = state
        try:
            action, dice, state = _played_out(config, rules, before, action, position, steps)
        except _Refused as refused:  # the rules generated the move, then refuse to roll or to play it
            outcome = _fault(config, str(refused), steps)
            break
        position += len(dice)
        physical.after(before, action, state)
        actions += 1
        steps.append(Step(action, dice)) if (config.keep or config.check) else None
        for who, card in _played(state.game, action, PlayerName(action.actor or player)):
            played[index.get(who, seat)].append(card)
        if audit is not None:
            problems = (physical.violations(state) + _count_problems(state)
                        + audit.step(before, action, dice, state, moves, hands is not None, check_rng))
            if problems:
                raise Violation(config.game, config.seed, "; ".join(problems), steps)
    if audit is not None:
        problems = audit.finish()
        if problems:
            raise Violation(config.game, config.seed, "; ".join(problems), steps)
    winner = index.get(state.winner) if state.winner is not None else None
    return GameRecord(config.seed, seats, first, outcome, winner, state.turn, actions,
                      tuple(tuple(p) for p in played), setup_dice,
                      tuple(steps) if config.keep else ())


def _decide(rules: Any, state: State, hands: Hands | None, seats: Sequence[Seat], index: Mapping[str, int],
            agents: Sequence[Any], rngs: Sequence[random.Random],
            guard: Guard, physical: Any = None) -> tuple[PlayerName | None, Any, list[Move] | None]:
    """(player, move, None): who acts and what they play. Each agent picks
    from its player's own hand and view (a random seat draws one legal move,
    judging only the candidates it draws), within what the loop guard
    allows (no move undoing one made earlier this turn, few idle ones)."""
    for player in in_turn(state):
        seat = index[player]
        own = own_hand(hands, player)  # a player's moves are made from their own hand only
        if getattr(agents[seat], "cheat", False):  # the cheat sees the true dealer (every hand)
            agents[seat].table = physical
        move = agents[seat].pick(rules, state, lambda: _view(rules, state, player), player, own, rngs[seat],
                                 guard.allow(state, player))
        if move is not None:
            guard.record(state, player, move.action)
            return player, move, None
    return None, None, None


class _Refused(RefereeError):
    """A move the rules generated and then refuse to roll or to play (a fault, see `_fault`)."""


def _played_out(config: GameConfig, rules: Any, state: State, action: Action, position: int,
                steps: Sequence[Step]) -> tuple[Action, tuple[int, ...], State]:
    """The action played as the table plays it, with the seeded dice from die
    `position`: (the action as recorded, its dice, the state after). A battle
    or roll-off (the game's `ROLLING`) is checked and played once by
    `rules.play_drawing`, the dice drawn as the rules ask (ledger.perform(drawn=True));
    any other takes its dice from `_rolled` and is applied. Under --check the
    recorded action must pass `check` (`_check_move`). _Refused when the
    rules refuse the move they generated."""
    if action.name in drawing(state.game) and "rolls" not in action.args:
        source = dicelib.Drawn(config.seed, position)
        try:
            recorded, after, _ = rules.play_drawing(state, action, source)
        except RefereeError as exc:
            raise _Refused(f"the roller refuses the generated move {_named(action)}: {exc}") from None
        if config.check:
            _check_move(config, rules, state, recorded, steps)
        return recorded, tuple(source.taken), after
    try:
        recorded, dice = _rolled(rules, state, action, config.seed, position)
    except RefereeError as exc:
        raise _Refused(f"the roller refuses the generated move {_named(action)}: {exc}") from None
    if config.check:
        _check_move(config, rules, state, recorded, steps)
    try:
        return recorded, dice, rules.apply(state, recorded, dice)
    except RefereeError as exc:
        raise _Refused(f"the generated move {_named(recorded)} dice={list(dice)} "
                       f"is refused as it is played: {exc}") from None


def _fault(config: GameConfig, what: str, steps: Sequence[Step]) -> Outcome:
    """A move the rules generated and then refuse (to roll or to play) is a
    fault in the rules, as a jam is: under --check the run stops with a
    Violation that names the seed and the actions that lead to it; without
    it the game ends as a JAM, which the report counts, and the run goes on."""
    if config.check:
        raise Violation(config.game, config.seed, what, steps)
    return Outcome.JAM


def _named(action: Action) -> str:
    return f"{action.name} {dict(action.args)} actor={action.actor}"


def _rolled(rules: Any, state: State, action: Action, seed: int, position: int) -> tuple[Action, tuple[int, ...]]:
    """The action as the table records it and its dice from the seeded roller:
    an action that rolls until it is decided (a battle) is played out by the
    game's `dice_for` and gets its `rolls`; any other takes `dice_needed`."""
    roll = roller(state.game)
    if roll is None:
        return action, dicelib.draw(seed, position, rules.dice_needed(state, action))
    count = [position]

    def die() -> int:
        count[0] += 1
        return dicelib.draw(seed, count[0] - 1, (6,))[0]

    return roll(rules, state, action, die)


def _played(game: GameSlug, action: Action, mover: PlayerName) -> list[tuple[PlayerName, str]]:
    """The cards an action plays and who played each: the game's own `played`
    (its selfplay module, where an answer's card is the defender's), else
    every card the mover's action names (`_cards_of`)."""
    module = selfplay_module(game)
    own = getattr(module, "played", None) if module is not None else None  # a module attribute, not a rules hook
    if own is not None:
        return own(action, mover)
    return [(mover, card) for card in _cards_of(action)]


def _cards_of(action: Action) -> list[str]:
    """The cards an action plays: its recorded revisions, else (a generated
    move records none) the card a `play` names, or a debate's tactic
    (`argue` an argument, `device` a rhetorical device)."""
    if action.cards:
        return [str(c) for c in action.cards]
    if action.name not in ("play", "argue", "device"):
        return []
    named = action.args.get("cards", action.args.get("card"))
    return [str(c) for c in named] if isinstance(named, list) else ([str(named)] if named else [])


def _seat_of(config: GameConfig, name: str, faction: str | None) -> Seat:
    for seat in config.seats:
        if seat.name.casefold() == name.casefold():
            return Seat(name, faction, seat.agent)
    raise RefereeError(f"the rules seated {name!r}, who is not in the configuration")


def _view(rules: Any, state: State, player: PlayerName) -> State:
    if not rules.has_hidden_cards:
        return state
    return rules.visible_state(state, (player,))


def _check_move(config: GameConfig, rules: Any, state: State, action: Action, steps: Sequence[Step]) -> None:
    """A generated move passes `check`, and checking changes nothing."""
    snapshot = state.to_dict()
    try:
        rules.check(state, action)
    except RefereeError as exc:
        raise Violation(config.game, config.seed,
                        f"the generated move {action.name} {dict(action.args)} is refused: {exc}", steps) from None
    if state.to_dict() != snapshot:
        raise Violation(config.game, config.seed, f"checking {action.name} changed the state", steps)


def _count_problems(state: State) -> list[str]:
    """Counts no rule lets go below zero: capital, and each hand or pile size a game records."""
    problems = []
    for p in state.players:
        if p.capital is not None and p.capital < 0:
            problems.append(f"{p.name}'s capital is {p.capital}")
        for key, value in p.fields.items():
            if key in ("hand", "hand_size", "deck", "discard") and isinstance(value, int) and value < 0:
                problems.append(f"{p.name}'s {key} is {value}")
    return problems
