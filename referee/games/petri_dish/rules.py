"""Battle for the Petri Dish at the table: white and black, white moves first.

The rules object (setup, house rules, the hooks) and ACTIONS, the table of
the dish's actions (actions.py). The State keeps the dish as plain JSON
(dish.py); the legality of every action comes from engine.py, the pure
generator; view.py writes the text.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

from referee.errors import RuleViolation
from referee.rules import ActionSpec, HouseRule, action_table
from referee.rules.generic import GenericRules
from referee.games.petri_dish import actions, engine
from referee.games.petri_dish.dish import board_fields, variant_of
from referee.games.petri_dish.engine import COLOURS, Position
from referee.rules.shared import SHARED_ACTIONS, apply_end_turn
from referee.model import Action, GameSlug, Setup, State

ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("place", actions.check_board_action, actions.apply_board_action),
    ActionSpec("move", actions.check_board_action, actions.apply_board_action),
    ActionSpec("grow", actions.check_board_action, actions.apply_board_action),
    ActionSpec("divide", actions.check_board_action, actions.apply_board_action),
    ActionSpec("pass", actions.check_board_action, actions.apply_board_action),
    ActionSpec("claim-draw", actions.check_claim_draw, actions.apply_claim_draw),
    ActionSpec("end-turn", actions.refuse_end_turn, apply_end_turn),  # refused: a turn ends by playing
)


class PetriDishRules(GenericRules):
    slug = GameSlug.PETRI_DISH
    version = "petri-dish-1"
    min_players, max_players = 2, 2
    factions = COLOURS
    faction_word = "colour"
    actions = action_table(SHARED_ACTIONS, ACTIONS)
    house_rules = {
        # Ranges from the rulebook: a germ has at most 4 orthogonal liberties, the dish 4 prime areas.
        "large-divide-liberties": HouseRule(
            "large-divide-liberties", 3,
            "liberties a large germ needs before dividing (the rulebook's line names a medium germ; "
            "we read it as large)",
            minimum=0, maximum=4,
        ),
        "areas-to-win": HouseRule(
            "areas-to-win", 3, "prime areas (of 4) a player must hold alone to win at once",
            minimum=1, maximum=4,
        ),
    }

    # ---- setup -------------------------------------------------------------

    def setup(self, setup: Setup, dice: Sequence[int]) -> State:
        """Unnamed colours go in listed order (first listed is white); white starts."""
        self._check_players(setup)
        given = [self._faction(f) for _, f in setup.players]
        named = [c for c in given if c]
        if len(set(named)) != len(named):
            raise RuleViolation("colour", f"both players asked for {named[0]}; one plays white, one black")
        free = [c for c in COLOURS if c not in named]
        colours = [c or free.pop(0) for c in given]
        setup = replace(setup, players=tuple((n, c) for (n, _), c in zip(setup.players, colours)))
        self._check_house_ranges(setup)
        state = super().setup(setup, dice)
        variant = variant_of(state.house_rules)
        players = tuple(replace(p, fields={"reserve": variant.tokens}) for p in state.players)
        state = replace(state, players=players, active=colours.index("white"))
        start = Position(variant=variant)
        return replace(state, fields={
            "board": board_fields(start.board),
            "passed": False,
            "seen_positions": {engine.position_key(start): 1},
            "result": None,
        })

    def _check_house_ranges(self, setup: Setup) -> None:
        """A whole number outside its declared range is refused as a rule of the
        dish (anything else is left to HouseRule.parse, which names the rule)."""
        for key, given in setup.house_rules.items():
            rule = self.house_rules.get(key)
            try:
                value = int(str(given).strip())
            except ValueError:
                continue
            if rule is not None and rule.minimum is not None and rule.maximum is not None \
                    and not rule.minimum <= value <= rule.maximum:
                raise RuleViolation(
                    key, f"house rule {key} must be {rule.minimum} to {rule.maximum}, not {value}")

    # ---- the end ---------------------------------------------------------------

    def check(self, state: State, action: Action) -> None:
        if state.finished and state.winner is None:  # a draw (a won game is refused by GenericRules.check)
            raise RuleViolation("game over", f"the game is over ({state.result}); undo to go back")
        super().check(state, action)

    # ---- text ------------------------------------------------------------------


RULES = PetriDishRules()
