"""Random play through the real rules, for the legal-move agreement tests.

The physical truth is kept here, as self-play will keep it: the printed
decks shuffled by copy and dealt, each hand's cards known. A step picks a
player (mostly the one whose turn it is), asks the game's generator for
their moves with the hands known, plays one at random (uniform over kinds,
then over moves, so 90 donations do not drown a battle), rolls the dice with
a seeded generator and applies it with `rules.apply`.
"""
from __future__ import annotations

import importlib
import random
import shlex
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from click.testing import CliRunner

from referee.cli import main as core_cli
from referee.rules import dice as dicelib
from referee.table import operations as table
from referee.rules import rules_for
from referee.rules.legal import Move, legal_moves
from referee.model import Action, State

Key = tuple


def key(action: Action) -> Key:
    """An action as the log records it, less the card data and the dice count."""
    def frozen(value: Any) -> Any:
        if isinstance(value, list):
            return tuple(frozen(v) for v in value)
        if isinstance(value, dict):
            return tuple(sorted((k, frozen(v)) for k, v in value.items() if not k.startswith("_")))
        return value
    args = tuple(sorted((k, frozen(v)) for k, v in action.args.items() if not k.startswith("_") and k != "rolls"))
    return action.name, args, action.actor


@dataclass
class Visit:
    """One state met in random play, with the hands as they were."""

    state: State
    hands: dict[str, list[str]]
    moves: dict[str, list[Move]] = field(default_factory=dict)  # by player, as generated
    seconds: float = 0.0


def pick(rng: random.Random, moves: Sequence[Move]) -> Move:
    concrete = [m for m in moves if m.action is not None]
    kinds: dict[str, list[Move]] = {}
    for m in concrete:
        kinds.setdefault(m.kind if m.kind != "battle" else m.action.name, []).append(m)  # type: ignore[union-attr]
    weights = {k: (0.15 if k in ("ally", "unally", "donate", "gift") else 1.0) for k in kinds}
    kind = rng.choices(list(kinds), [weights[k] for k in kinds])[0]
    return rng.choice(kinds[kind])


def play_out(rules: Any, state: State, hands: dict[str, list[str]], sync: Callable[..., None],
             dice_for: Callable[..., tuple[Action, tuple[int, ...]]], seed: int, steps: int,
             choose_player: Callable[[random.Random, State], str], on_visit: Callable[[Visit], None],
             refused: list | None = None) -> State:
    """Play up to `steps` random moves from `state`; `on_visit` sees each state met."""
    import time

    rng = random.Random(seed)
    die = lambda: rng.randint(1, 6)  # noqa: E731
    for _ in range(steps):
        if state.finished:
            break
        visit = Visit(state, {k: list(v) for k, v in hands.items()})
        name = choose_player(rng, state)
        t = time.process_time()  # CPU time: the machine is shared
        moves = legal_moves(rules, state, name, hands)
        visit.seconds = time.process_time() - t
        visit.moves[name] = moves
        on_visit(visit)
        if not any(m.action is not None for m in moves):
            continue
        move = pick(rng, moves)
        try:
            action, dice = dice_for(rules, state, move.action, die)
            after = rules.apply(state, action, dice)
        except Exception as exc:  # checked, yet refused when played: a finding
            if refused is None:
                raise
            refused.append((move, repr(exc)))
            continue
        sync(state, after, action, hands, rng)
        state = after
    return state


def moves_of(visit: Visit, rules: Any, name: str) -> list[Move]:
    if name not in visit.moves:
        visit.moves[name] = legal_moves(rules, visit.state, name, visit.hands)
    return visit.moves[name]


def accepted(rules: Any, state: State, action: Action, prepare: Callable[[Action], Action] = lambda a: a) -> bool:
    from referee.errors import RefereeError

    try:
        rules.check(state, prepare(action))
    except RefereeError:
        return False
    return True


def same_after(rules: Any, state: State, a: Action, b: Action, dice: Sequence[int]) -> bool:
    """Whether two actions leave the same table (with the same dice)."""
    try:
        return rules.apply(state, a, dice) == rules.apply(state, b, dice)
    except Exception:
        return False


def hands_mapping(hands: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    return {k: list(v) for k, v in hands.items()}


class Captured(Exception):
    """Raised by the stand-in for `table.act`: the command got as far as recording."""


def parsed(monkeypatch, game: str, command: str, state: State | None = None,
           **state_of: Callable[..., Any]) -> Action:
    """The Action the command line `command` records, parsed by the CLI of
    `game` (its package name, `culture_war`) with `table.act` caught before it
    writes. `state_of` replaces the functions of the game's `commands` module
    that read the table (`_current=lambda path: (state, 1, 0)`), so the
    command sees the state under test. An action that draws its dice as it
    rolls (a Culture War battle) is recorded as the ledger records it: played
    once on `state` with the table's dice (seed 1, from die 0)."""
    game_cli = importlib.import_module(f"referee.games.{game}.cli")
    commands = importlib.import_module(f"referee.games.{game}.commands")
    got: list[Action] = []

    def act(path, name, args, actor=None, cards=(), dice_text=None, drawn=False):
        action = Action(name, {k: v for k, v in args.items() if v is not None}, actor)
        if drawn:
            assert state is not None, f"`{command}` draws its dice: pass the state it is played on"
            typed = dicelib.parse_entered(dice_text) if dice_text is not None else None
            action = rules_for(state.game).play_drawing(state, action, dicelib.Drawn(1, 0, typed))[0]
        got.append(action)
        raise Captured

    monkeypatch.setattr(table, "act", act)
    for name, stand_in in state_of.items():
        monkeypatch.setattr(commands, name, stand_in)
    words = shlex.split(command)
    found = game_cli.COMMANDS.get(words[0]) or core_cli.cli.commands[words[0]]
    result = CliRunner().invoke(found, words[1:], obj={})
    assert got, f"`{command}` recorded nothing: {result.output} {result.exception!r}"
    return got[0]


def report(visits_of: Callable[[int], Any], seeds: range = range(40, 50)) -> str:
    """Moves and generation time per state over random games (the legal tests'
    `__main__`: numbers for a report, never an assertion)."""
    import time

    t0 = time.perf_counter()
    times, sizes = [], []
    for seed in seeds:
        for visit in visits_of(seed):
            times.append(visit.seconds)
            sizes.extend(len(m) for m in visit.moves.values())
    times.sort()
    sizes.sort()
    return (f"states {len(times)}; moves median {sizes[len(sizes) // 2]}, p90 {sizes[len(sizes) * 9 // 10]}, "
            f"max {sizes[-1]}; time median {times[len(times) // 2] * 1000:.2f} ms, p90 "
            f"{times[len(times) * 9 // 10] * 1000:.2f} ms, max {times[-1] * 1000:.1f} ms "
            f"(wall {time.perf_counter() - t0:.1f}s)")
