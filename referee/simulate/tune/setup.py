"""A tune Spec from what a person typed, every part checked first."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Sequence

from referee.errors import RefereeError
from referee.simulate.runner import make_plan
from referee.simulate.tune.fairness import parse_target
from referee.simulate.tune.knobs import parse_vary
from referee.simulate.tune.search import Spec


def make_spec(game: str, target: str, tolerance: float, vary: Sequence[str], games: int, batch: int,
              verify_games: int, max_candidates: int, max_rounds: int, players: int | None,
              factions: Sequence[str], agents: Sequence[str], seed: int, turn_cap: int,
              until_decided: float | None = None, house_rules: Sequence[str] = ()) -> tuple[Spec, Path]:
    from referee.cards.index import project_root  # lazy: card sources only when tuning

    plan = make_plan(game, players, factions, agents, games, seed, 1, turn_cap, house_rules=house_rules)
    if not vary:
        raise RefereeError("name what may change with --vary (e.g. --vary auto)")
    for name, value in (("--batch", batch), ("--verify-games", verify_games), ("--candidates", max_candidates),
                        ("--rounds", max_rounds)):
        if value <= 0:
            raise RefereeError(f"{name} must be 1 or more, not {value}")
    if until_decided is not None and not 0.0 < until_decided < 1.0:
        raise RefereeError(f"--effect is a change of win rate between 0 and 1 (0.05 is 5 points), not {until_decided}")
    if not 0 < tolerance < 50:
        raise RefereeError(f"--tolerance is in points, more than 0 and under 50, not {tolerance:g}")
    base = project_root()
    goal = parse_target(target, plan.factions)
    knobs = parse_vary(vary, plan.game.value, base)
    if not knobs:
        raise RefereeError("--vary names nothing that can change")
    for knob in knobs:
        if knob.kind == "house-rule":
            from referee.rules import rules_for  # lazy: as above
            from referee.simulate.play import setup_of  # lazy: as above

            rules = rules_for(plan.game)
            for value in knob.values:
                rules._house_rules(setup_of(replace(plan.config(0), house_rules={knob.target: value})))
            given = dict(plan.house_rules).get(knob.target)
            if given is not None:
                raise RefereeError(f"--vary {knob.name}: the house rule is also set by --house-rule "
                                   f"{knob.target}={given}; give it one way")
            default = rules.house_rules[knob.target].default
            knobs = tuple(replace(k, now=str(default)) if k is knob and default is not None else k for k in knobs)
    spec = Spec(plan, goal, tolerance, {k.name: k for k in knobs},
                auto=any(v.strip() == "auto" for v in vary), batch=batch, max_candidates=max_candidates,
                max_rounds=max_rounds, verify_games=verify_games, until_decided=until_decided)
    return spec, base
