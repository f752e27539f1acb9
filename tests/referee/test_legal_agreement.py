"""Legal-move generation and `check` agree (issue 27 item 1), python-chess perft style.

On random reachable states of every game that has a generator
(`referee/games/<game>/legal.py`; the games are listed in legal_cases.py),
reached from setup by playing random generated moves with seeded dice and
hands dealt from the printed decks:
- every concrete generated action passes the rules' `check`, with the hands
  known and with them unknown (the table's view); a move without an action
  (a card the referee cannot see) appears only with hands unknown;
- every action `check` accepts out of a broad candidate set, built without
  the generator, is generated: the same action, or one of the same name that
  leaves the same table (a pick the card ignores is the same move);
- the walk never jams: while the game goes on, someone has a move.
And each move's `command` typed into the real CLI records the same action.
"""
from __future__ import annotations

import importlib.util
import json
import random
import shlex
from dataclasses import replace
from typing import Any

import pytest
from click.testing import CliRunner
from helpers.sizes import two_sizes
from legal_cases import CASES, Case

from referee.table import operations as table
from referee.cli.main import cli
from referee.errors import RefereeError
from referee.rules import rules_for
from referee.rules.legal import legal_moves
from referee.model import Action, GameSlug, PlayerName, Setup, State
from referee.table.store import events


def has_generator(slug: GameSlug) -> bool:
    return importlib.util.find_spec(slug.module("legal")) is not None


def cases() -> list[Any]:
    return [pytest.param(case, id=slug.value,
                         marks=pytest.mark.skipif(not has_generator(slug), reason=f"no {slug.package}/legal.py yet"))
            for slug, case in CASES.items()]


def key(action: Action) -> str:
    return json.dumps([action.name, action.args, action.actor], sort_keys=True, default=str)


def accepted(rules: Any, state: State, action: Action) -> bool:
    try:
        rules.check(state, action)
    except RefereeError:
        return False
    return True


def roll(rules: Any, state: State, action: Action, rng: random.Random) -> tuple[int, ...]:
    return tuple(rng.randint(1, faces) for faces in rules.dice_needed(state, action))


def setup(case: Case, seed: int) -> tuple[Any, State]:
    rules = rules_for(case.slug)
    start = Setup(case.slug, case.players, seed, None, dict(case.house_rules))
    rng = random.Random(seed)
    dice = tuple(rng.randint(1, f) for f in rules.setup_dice(start))
    return rules, rules.setup(start, dice)


def walk(case: Case, seed: int):
    """(rules, state, hands, rng) at each step of one random game."""
    rules, state = setup(case, seed)
    rng = random.Random(seed * 7919 + 1)
    for _ in range(case.steps):
        hands = case.deal(rules, state, rng)
        yield rules, state, hands, rng
        if state.finished:
            return
        moves = [m for p in state.players for m in legal_moves(rules, state, p.name, hands) if m.action is not None]
        assert moves, f"the table jams: no player has a move ({rules.phase(state)})"
        chosen = rng.choice(moves).action
        state = rules.apply(state, chosen, roll(rules, state, chosen, rng))


def same_outcome(rules: Any, state: State, a: Action, b: Action, rng: random.Random) -> bool:
    if a.name != b.name:
        return False
    faces = rules.dice_needed(state, a)
    if faces != rules.dice_needed(state, b):
        return False
    dice = tuple(rng.randint(1, f) for f in faces)
    return rules.apply(state, a, dice) == rules.apply(state, b, dice)


@two_sizes(bounded=4, full=1, name="part")
@pytest.mark.parametrize("case", cases())
def test_generated_moves_and_check_agree(case: Case, part: int):
    """Bounded: the first quarter of the first walk; full: every walk, whole."""
    if part > 1:
        case = replace(case, walks=1, steps=max(8, case.steps // part))
    states = candidates_tried = 0
    for seed in range(case.walks):
        for rules, state, hands, rng in walk(case, seed):
            states += 1
            for player in state.players:
                name = PlayerName(player.name)
                known = legal_moves(rules, state, name, hands)
                blind = legal_moves(rules, state, name, None)
                generated = [m.action for m in known if m.action is not None]
                if hands is not None:
                    assert all(m.action is not None for m in known), "with the hands known every move is concrete"
                for m in [*known, *blind]:
                    if m.action is not None:
                        assert accepted(rules, state, m.action), (m.command, rules.phase(state))
                    else:
                        assert "<CARD>" in m.command, m.command
                keys = {key(a) for a in generated}
                assert len(keys) == len(generated), "a move is listed twice"
                tried = list(case.candidates(rules, state, player.name, hands))
                if case.sample is not None and len(tried) > case.sample:
                    tried = rng.sample(tried, case.sample)
                for cand in tried:
                    candidates_tried += 1
                    if key(cand) in keys or not accepted(rules, state, cand):
                        continue
                    if case.hand_rule is not None and case.hand_rule(state, cand, hands, generated):
                        continue
                    if case.choice is not None and case.choice(state, cand) is not None and \
                            case.choice(state, cand) in {case.choice(state, g) for g in generated}:
                        continue
                    twins = [g for g in generated if same_outcome(rules, state, cand, g, rng)]
                    assert twins, (f"check accepts {cand.name} {cand.args} by {cand.actor} "
                                   f"({rules.phase(state)}), and no generated move does the same")
    assert states >= case.walks * 5 and candidates_tried > states


# ---- the command round trip, through the real CLI and a real table file ------------------------


def last_action(db) -> Action:
    with table.opened(db) as (conn, _rules):
        return events.last_event(conn).to_action()


@pytest.mark.parametrize("case", cases())
def test_each_command_records_its_action(case: Case, tmp_path):
    """Random games played through the CLI: every step types a generated move's
    `command` and the log records exactly the move's action."""
    runner = CliRunner()
    db = tmp_path / "t.db"
    players = [x for n, f in case.players for x in ("--player", f"{n}:{f}" if f else n)]
    rules_args = [x for k, v in case.house_rules.items() for x in ("--house-rule", f"{k}={v}")]
    done = 0
    for seed in range(2):
        new = runner.invoke(cli, ["--db", str(db), "new", case.slug.value, *players, *rules_args,
                                  "--seed", str(seed), "--force"])
        assert new.exit_code == 0, new.output
        rng = random.Random(seed)
        rules = rules_for(case.slug)
        for _ in range(min(case.steps, 25)):
            state = table.status(db).state
            if state.finished:
                break
            hands = case.deal(rules, state, rng)
            moves = [m for p in state.players for m in legal_moves(rules, state, p.name, hands) if m.action]
            chosen = rng.choice(moves)
            result = runner.invoke(cli, ["--db", str(db), *shlex.split(chosen.command)])
            assert result.exit_code == 0, (chosen.command, result.output)
            recorded = last_action(db)
            assert (recorded.name, dict(recorded.args), recorded.actor) == \
                (chosen.action.name, dict(chosen.action.args), chosen.action.actor), chosen.command
            done += 1
    assert done >= 10
