"""Battle for the Petri Dish at the table: white and black, white moves first.

The table's State keeps the dish as plain JSON:
- `fields.board`: every foodpoint name -> null or {"owner": colour, "size": n};
- `fields.passed`: the last action was a pass;
- `fields.seen_positions`: how often each position (germs + side to move) occurred;
- `fields.result`: null, or why the game ended in a draw;
- each player's `fields.reserve`: tokens not on the dish.
`turn` counts actions from 1; turns 1 and 2 are the two placements.

The legality of every action comes from engine.py, the pure generator.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from referee.errors import RefereeError, RuleViolation
from referee.games import HouseRule
from referee.games.petri_dish import phrases as _phrases
from referee.games.generic import GenericRules
from referee.games.petri_dish import engine, text
from referee.games.petri_dish.engine import BLACK, COLOURS, DRAW, WHITE, Position, Variant
from referee.games.petri_dish.geometry import INDEX, POINTS, REMOVED, is_point_name
from referee.model import Action, GameSlug, Player, Setup, State

REPETITIONS_FOR_DRAW = 3
BOARD_ACTIONS = ("place", "move", "grow", "divide", "pass")


class PetriDishRules(GenericRules):
    slug = GameSlug.PETRI_DISH
    phrases = {**GenericRules.phrases, **_phrases.PHRASES}

    def pieces(self, state: State) -> list[tuple[str, str]]:
        """The dish's points, a cell's owner and size beside each occupied one."""
        board = state.fields.get("board") or {}
        return [(point, f"{cell['owner']} {cell['size']}" if cell else "empty") for point, cell in board.items()]

    title = "Battle for the Petri Dish"
    version = "petri-dish-1"
    min_players, max_players = 2, 2
    factions = COLOURS
    faction_word = "colour"
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

    # ---- checking ------------------------------------------------------------

    def check(self, state: State, action: Action) -> None:
        result = state.fields.get("result")
        if result:
            raise RuleViolation("game over", f"the game is over ({result}); undo to go back")
        super().check(state, action)

    def check_end_turn(self, state: State, action: Action) -> None:
        who = _who(state.active_player)
        raise RuleViolation(
            "a turn ends by playing",
            f"{who} ends the turn by placing, moving, growing, dividing or passing; "
            "type `pass` to let the turn go",
        )

    def _check_board_action(self, state: State, action: Action) -> None:
        self._check_turn(state, action)
        move = action_of(action)
        why = engine.refusal(position_of(state), move)
        if why is not None:
            rule, reason = why
            raise RuleViolation(rule, f"{_who(state.active_player)} cannot {engine.action_text(move)}: {reason}")

    check_place = check_move = check_grow = check_divide = check_pass = _check_board_action

    def check_claim_draw(self, state: State, action: Action) -> None:
        self._check_turn(state, action)
        seen = repetitions(state)
        if seen < REPETITIONS_FOR_DRAW:
            times = "once" if seen == 1 else f"{seen} times"
            raise RuleViolation(
                "draw by threefold repetition",
                f"{_who(state.active_player)} cannot claim a draw: this position, with the same side "
                f"to move, has occurred {times}, and it takes {REPETITIONS_FOR_DRAW}",
            )

    def _check_turn(self, state: State, action: Action) -> None:
        if action.actor is None:
            return
        actor = state.player(action.actor)
        if actor.name != state.active_player.name:
            raise RuleViolation(
                "turn order",
                f"it is {_who(state.active_player)}'s turn, so {_who(actor)} cannot {action.name}",
            )

    # ---- applying ------------------------------------------------------------

    def _apply_board_action(self, state: State, action: Action, dice: Sequence[int]) -> State:
        pos = position_of(state)
        after = engine.play(pos, action_of(action)).position
        return state_after(state, after)

    apply_place = apply_move = apply_grow = apply_divide = apply_pass = _apply_board_action

    def apply_claim_draw(self, state: State, action: Action, dice: Sequence[int]) -> State:
        who = _who(state.active_player)
        return replace(state, fields={
            **state.fields,
            "result": f"draw claimed by {who}: the position occurred {REPETITIONS_FOR_DRAW} times",
        })

    # ---- text ------------------------------------------------------------------

    def render_lines(self, state: State) -> list[str]:
        return text.status_lines(state, position_of(state), repetitions(state))

    def change_lines(self, before: State, after: State) -> list[str]:
        return text.change_lines(before, after)


RULES = PetriDishRules()


# ---- between the table's State and the engine's Position -------------------


def variant_of(house_rules: Mapping[str, Any]) -> Variant:
    return Variant(
        large_divide_liberties=int(house_rules.get("large-divide-liberties", 3)),
        areas_to_win=int(house_rules.get("areas-to-win", 3)),
    )


def colour_of(player: Player) -> int:
    return WHITE if player.faction == "white" else BLACK


def player_of(state: State, colour: int) -> Player:
    return next(p for p in state.players if p.faction == COLOURS[colour])


def _who(player: Player) -> str:
    return f"{player.name} ({player.faction})"


def board_fields(board: Sequence[int]) -> dict[str, Any]:
    return {
        name: None if v == 0 else {"owner": COLOURS[WHITE if v > 0 else BLACK], "size": abs(v)}
        for name, v in zip(POINTS, board)
    }


def position_of(state: State) -> Position:
    cells = state.fields["board"]
    board = []
    for name in POINTS:
        cell = cells.get(name)
        board.append(0 if not cell else cell["size"] * (1 if cell["owner"] == "white" else -1))
    if state.winner is not None:
        result: int | None = colour_of(state.player(state.winner))
    elif state.fields.get("result"):
        result = DRAW
    else:
        result = None
    return Position(
        tuple(board), colour_of(state.active_player), state.turn - 1,
        bool(state.fields.get("passed")), result, variant_of(state.house_rules),
    )


def state_after(state: State, pos: Position) -> State:
    """The table after the engine played to `pos` from `state`."""
    players = tuple(
        replace(p, fields={**p.fields, "reserve": pos.reserve(colour_of(p))}) for p in state.players
    )
    seen = dict(state.fields.get("seen_positions") or {})
    key = engine.position_key(pos)
    seen[key] = seen.get(key, 0) + 1
    fields = {
        **state.fields,
        "board": board_fields(pos.board),
        "passed": pos.passed,
        "seen_positions": seen,
        "result": "draw: a pass was answered by a pass" if pos.result == DRAW else None,
    }
    active = next(i for i, p in enumerate(players) if colour_of(p) == pos.side)
    turn = state.turn + 1
    winner = player_of(state, pos.result).name if pos.result in (WHITE, BLACK) else None
    return replace(state, players=players, fields=fields, active=active, turn=turn,
                   round=(turn + 1) // 2, winner=winner)


def repetitions(state: State) -> int:
    """How often the current position (same side to move) has occurred."""
    key = engine.position_key(position_of(state))
    return int((state.fields.get("seen_positions") or {}).get(key, 0))


def point_index(name: object) -> int:
    """The index of a foodpoint named like `d4`; refuses other text."""
    text_ = str(name).strip().lower()
    if text_ in INDEX:
        return INDEX[text_]
    if is_point_name(text_) and text_ in REMOVED:
        raise RuleViolation(
            "foodpoints", f"{text_} is not a foodpoint: the dish has no point there "
            f"(the corners {', '.join(sorted(REMOVED))} are cut off)",
        )
    raise RefereeError(f"{name!r} is not a point of the dish: write a file a-h and a rank 1-8, like d4")


def action_of(action: Action) -> tuple[int, int, int]:
    """The engine's tuple for a table action; malformed points are refused."""
    args = action.args
    if action.name == "place":
        return (engine.PLACE, -1, point_index(args.get("at")))
    if action.name == "grow":
        return (engine.GROW, point_index(args.get("at")), -1)
    if action.name in ("move", "divide"):
        kind = engine.MOVE if action.name == "move" else engine.DIVIDE
        return (kind, point_index(args.get("from")), point_index(args.get("onto")))
    if action.name == "pass":
        return (engine.PASS, -1, -1)
    raise RefereeError(f"petri-dish has no action called {action.name!r}")


def action_args(move: tuple[int, int, int]) -> tuple[str, dict[str, str]]:
    """The table action (name, args) for an engine tuple."""
    kind, a, b = move
    if kind == engine.PLACE:
        return "place", {"at": POINTS[b]}
    if kind == engine.GROW:
        return "grow", {"at": POINTS[a]}
    if kind == engine.PASS:
        return "pass", {}
    return engine.KIND_NAMES[kind], {"from": POINTS[a], "onto": POINTS[b]}


def legal_strings(state: State) -> list[str]:
    """Every action the side to move may take, as the strings the commands accept."""
    if state.fields.get("result") or state.winner is not None:
        return []
    out = [engine.action_text(m) for m in engine.legal_actions(position_of(state))]
    if repetitions(state) >= REPETITIONS_FOR_DRAW:
        out.append("claim-draw")
    return out
