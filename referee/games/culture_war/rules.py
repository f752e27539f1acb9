"""Culture War's rules object: setup, the hooks the core calls, and ACTIONS,
the table of the game's actions.

Most actions are played on a Board (board.py), a working copy of the table,
by a step function (actions.py, attacks.py, alliances.py, turns.py). Every
such action is checked by running its step on a throw-away Board, so
`check` and `apply` cannot disagree; `apply` runs it again on the real one
(or, applying with no dice the action just checked on that very state,
takes the board the check played it on), and `narrate` from the same dice
to say what happened.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from importlib import import_module
from typing import Any, Callable, Mapping, Sequence

from referee.errors import RefereeError, RuleViolation
from referee.rules.facts import Fact
from referee.rules import ActionSpec, DiceNeeded, action_table
from referee.games.culture_war import effects, phases, zones
from referee.games.culture_war.board import PLAIN, Board, DiceShortage, feeder, new_piece
from referee.games.culture_war.cards import deck_size, starting_cards
from referee.games.culture_war.effects import freeze
from referee.games.culture_war.house_rules import HOUSE_RULES, LIFE_BY_PLAYERS
from referee.rules.generic import GenericRules
from referee.rules.shared import SHARED_ACTIONS, check_capital, check_end_turn, check_life
from referee.model import Action, GameSlug, Setup, State

WINDOW_ALLOWS = frozenset({"settle", "resolve", "life", "capital", "crowd"})

Step = Callable[[Board, Mapping[str, Any], Any], None]  # (board, args, dice): changes the board, leaves notes


# ---- actions played on a Board ------------------------------------------------------


@dataclass(frozen=True)
class BoardAction(ActionSpec):
    """An action played on a Board by its `step` (see board_action)."""

    step: Step | None = None
    then: Callable[[Board], dict] | None = None  # changes to the State after the step (the roll-off's first player)


def board_action(name: str, step: Step, dice: DiceNeeded | None = None, check: Any = None,
                 check_roll: int | None = None, then: Callable[[Board], dict] | None = None) -> BoardAction:
    """The table entry of an action played on a Board by `step`.

    Checked by running the step on a throw-away Board with no dice (or every
    die reading `check_roll`: a card that rolls as it is played is legal
    whatever it rolls), unless `check` is given; applied by running it on the
    real one with exactly the recorded dice (`then(board)` adds changes to
    the State, such as who plays first after the roll-off); narrated by
    running it again from the same dice."""

    def check_on_board(rules: Any, state: State, action: Action) -> None:
        _CHECKED.last = None
        rolled: list[int] = []

        def die() -> int:
            if not check_roll:
                return _no_dice()
            rolled.append(check_roll)
            return check_roll

        board = run(state, action, step, die)
        if not rolled:  # what `apply` with no dice would do to this very state: kept for it
            _CHECKED.last = (state, action, board)

    def apply_on_board(rules: Any, state: State, action: Action, dice_: Sequence[int]) -> State:
        return _applied(state, action, dice_, step, then)[0]

    def narrate(rules: Any, state: State, action: Action, dice_: Sequence[int]) -> list[Fact]:
        return run(state, action, step, feeder(dice_)).notes

    def play_on_board(rules: Any, state: State, action: Action, dice_: Sequence[int]) -> tuple[State, list[Fact]]:
        return _applied(state, action, dice_, step, then)

    return BoardAction(name, check or check_on_board, apply_on_board, dice, narrate, play_on_board, step, then)


def run(state: State, action: Action, step: Step, dice: Callable[[], int] | None) -> Board:
    board = Board(state)
    step(board, action.args, dice)
    return board


def _applied(state: State, action: Action, dice: Sequence[int], step: Step,
             then: Callable[[Board], dict] | None) -> tuple[State, list[Fact]]:
    used: list[int] = []
    source = feeder(dice)

    def counted() -> int:
        used.append(source())
        return used[-1]

    board = _checked(state, action) if not dice else None
    try:
        if board is None:
            board = run(state, action, step, counted)
    except DiceShortage:
        raise RuleViolation("a tie is rolled again",
                            f"the dice {_dice(dice)} run out before the battle is over; type every die") from None
    if len(used) != len(dice):
        raise RuleViolation("dice", f"{action.name} used {len(used)} of the {len(dice)} dice given")
    return freeze(board, **(then(board) if then else {})), board.notes


# The board the last `check` played an action on, with no die rolled, and
# what it was played from: (state, action, board). Applying that very action
# to that very state with no dice would play the step again on a new copy
# and give the same board (a step is a pure function of the table, its
# arguments and its dice), so `_applied` takes this one instead, once. Self-
# play checks each move it draws and then applies it. One per thread.
_CHECKED = threading.local()


def _checked(state: State, action: Action) -> Board | None:
    last = getattr(_CHECKED, "last", None)
    _CHECKED.last = None
    if last is not None and last[0] is state and last[1] is action:
        return last[2]
    return None


def _no_dice() -> int:
    raise DiceShortage("checking an action rolls no dice")


def _dice(values: Sequence[int]) -> str:
    return ",".join(map(str, values)) or "(none)"


def _rolled(rules: Any, state: State, action: Action) -> tuple[int, ...]:
    """A battle, a roll-off, a shown battle and its settling: as many d6 as rolled (`rolls`)."""
    return (6,) * int(action.args.get("rolls") or 0)


def _card_rolls(rules: Any, state: State, action: Action) -> tuple[int, ...]:
    """A card played: a d6 for each roll its effects make as it is played."""
    from referee.games.culture_war import actions  # lazy: action code loads only when an action is played
    from referee.games.culture_war import handlers as fx  # lazy: as above

    card = action.args["_card"]
    now = [e for e in effects.read(card.get("effects")) if effects.when_of(e) in actions.NOW_OF.get(card["type"], ())]
    rolls = fx.rolls_in(now)
    if any(e["kind"] == "destroy" and e.get("what") == "your-unit" for e in now) and action.args.get("on"):
        try:  # a unit destroyed by card text may roll to survive (Leaderless Crowd)
            piece = state.fields["pieces"][Board(state).find(str(action.args["on"]), ("unit",))]
        except RefereeError:
            piece = {}
        rolls += fx.rolls_in([e for e in effects.live_effects(piece) if effects.when_of(e) == "would-die"])
    return (6,) * rolls


def _first_player(board: Board) -> dict:
    first = board.f["order"]["first"]
    return {"active": board.seats.index(first)} if first else {}


def _later(module: str, name: str) -> Callable[..., Any]:
    """`name` from this game's `module`, imported when first called. The table
    as it is now is read from a snapshot, so `status` and the other reading
    commands never play an action: the action code and the card handlers
    behind it load only for the commands that do."""
    found: list[Callable[..., Any]] = []  # the function, once imported

    def call(*args: Any, **kwargs: Any) -> Any:
        if not found:
            found.append(getattr(import_module(f"referee.games.culture_war.{module}"), name))
        return found[0](*args, **kwargs)

    call.__qualname__ = call.__name__ = f"{module}.{name}"
    return call


ACTIONS: tuple[ActionSpec, ...] = (
    board_action("rolloff", _later("turns", "rolloff"), dice=_rolled, check=_later("turns", "check_rolloff"),
                 then=_first_player),
    ActionSpec("end-turn", check_end_turn, _later("turns", "apply_end_turn"), dice=_later("turns", "turn_dice"),
               narrate=_later("turns", "narrate_end_turn"), play=_later("turns", "play_end_turn")),
    board_action("play", _later("actions", "play"), dice=_card_rolls, check_roll=3),
    board_action("seize", _later("actions", "seize")),
    board_action("battle", _later("attacks", "battle"), dice=_rolled, check=_later("attacks", "check_battle")),
    board_action("window", _later("attacks", "window"), dice=_rolled, check=_later("attacks", "check_window")),
    board_action("settle", _later("attacks", "settle"), dice=_rolled, check=_later("attacks", "check_settle")),
    board_action("ally", _later("alliances", "ally")),
    board_action("unally", _later("alliances", "unally")),
    board_action("donate", _later("alliances", "donate")),
    board_action("gift", _later("alliances", "gift")),
    board_action("discard", _later("actions", "discard")),
    board_action("draw", _later("actions", "draw")),
    board_action("discard-hand", _later("actions", "discard_hand")),
    ActionSpec("life", check_life, _later("actions", "apply_life")),
    ActionSpec("capital", check_capital, _later("actions", "apply_capital")),
)


CANCEL_KEEPS = frozenset({"resolve", "draw", "discard-hand", "life", "capital"})


def close_cancel(state: State, action: Action) -> State:
    """A card may be cancelled only as it is played: what a cancel would undo
    (cancel.py) is kept from a Happening's or Operation's play until the next
    action, except the answers to its prompts and the scorekeeper's corrections."""
    if "cancellable" not in state.fields or action.name in CANCEL_KEEPS:
        return state
    if action.name == "play" and action.args["_card"].get("type") in ("happening", "operation"):
        return state
    return replace(state, fields={k: v for k, v in state.fields.items() if k != "cancellable"})


class CultureWarRules(GenericRules):
    slug = GameSlug.CULTURE_WAR
    version = "culture-war-8"  # 8: an attack tax is paid as a battle's window opens (a Flash bought with those coins jammed settle); 7: issue 25 (battles: counter-attacks, triggers, battle Flashes, saves; protection, cancel, seize coins, prompts, timing; cards seen going back to a hand: hand_known); 6: an eliminated player's truces end
    min_players, max_players = 2, 5
    has_life = True
    has_capital = True
    out_at_zero_life = True
    factions = ("anarchy", "community", "technocracy", "conservative", "libertarian")
    house_rules = HOUSE_RULES
    actions = action_table(SHARED_ACTIONS, ACTIONS)

    # ---- setup -------------------------------------------------------------

    def starting_life(self, setup: Setup, rules: Mapping[str, object]) -> int | None:
        if setup.life is not None:
            if setup.life < 1:
                raise RuleViolation("starting life", f"players must start with at least 1 life, not {setup.life}")
            self.house_rules["starting-life"].check_range(setup.life)
            return setup.life
        chosen = rules.get("starting-life")
        return int(chosen) if chosen is not None else LIFE_BY_PLAYERS[len(setup.players)]

    def starting_capital(self, rules: Mapping[str, object]) -> int | None:
        value = int(rules["starting-capital"])  # type: ignore[arg-type]
        if value < 0:
            raise RuleViolation("starting capital", f"players cannot start with {value} capital")
        return value

    def setup(self, setup: Setup, dice: Sequence[int]) -> State:
        state = super().setup(setup, dice)
        rules = state.house_rules
        seating = rules["first-player"] == "seating"
        names = [p.name for p in state.players]
        fields = {
            "order": {"mode": rules["first-player"], "settled": seating, "first": names[0] if seating else None,
                      "contenders": [] if seating else names, "rounds": []},
            "pieces": {}, "banks": {n: {} for n in names}, "timed": [], "alliances": [],
            "had_turn": [], "attacks": 0, "begun": False, "next": 1,
            "discards": {n: [] for n in names}, "removed": {n: [] for n in names},
        }
        board = Board(replace(state, fields=fields))
        for player in state.players:
            estate_card, base_card = starting_cards(player.faction) if player.faction else (None, None)
            estate = new_piece(estate_card or {"name": "Real Estate", "type": "real-estate"}, player.name, 0)
            coins = int(player.capital or 0)
            room = effects.capacity(estate)
            if coins:
                estate["coins"] = {estate.get("deck") or PLAIN: min(coins, room)}
            board.add_piece(estate)
            board.put(player.name, {player.faction or PLAIN: max(0, coins - room)})
            board.add_piece(new_piece(base_card or {"name": "Base Unit", "type": "unit", "cost": 1, "atk": 0,
                                                 "def": 0, "traits": ["base"]}, player.name, 0))
            size = deck_size(player.faction) if player.faction and rules["decks"] == "faction" else None
            board.people[player.name] = replace(player, fields={**player.fields, **zones.starting_fields(size)})
        return freeze(board)

    # ---- phases, zones and the hooks the core calls --------------------------------

    def phase(self, state: State) -> str | None:
        """roll-off, card deployment, combat or game over (see phases.py)."""
        return phases.describe(state)

    def where_is(self, state: State, card_id: str) -> list[str]:
        return [f"{p.name}'s: {place}" for p in state.players for place in zones.places(state, p.name, card_id)]

    def copy_owner(self, state: State, action: Action) -> str | None:
        """Each player plays their own printed deck: a copy number names a
        card of the acting player's deck (two players of one faction each
        have a copy 1)."""
        player = action.args.get("player") or action.actor
        try:
            return state.player(str(player)).name if player else None
        except RefereeError:
            return None

    def copy_places(self, state: State, card_id: str, owner: str | None = None) -> list[str]:
        return zones.places(state, owner, card_id) if owner else self.where_is(state, card_id)

    # rules_can_decide: players are out at 0 LIFE and the last one standing
    # wins; no printed card ends the game another way, so until the game is
    # won `win PLAYER` is an override, --force (the default).

    def check(self, state: State, action: Action) -> None:
        try:
            if not state.finished and state.fields.get("window") and action.name not in WINDOW_ALLOWS:
                card = action.args.get("_card") or {}
                if action.name != "play" or card.get("type") != "flash":
                    raise RuleViolation("after the dice", "a battle's dice are shown and it waits to be settled: "
                                        "only Flash cards may be played now, then `referee settle`")
            if not state.finished:
                phases.check_phase(state, action)
                zones.check(state, action)
            super().check(state, action)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            # the CLI always builds whole arguments; an action built another way is refused, never a crash
            given = ", ".join(sorted(action.args)) or "none"
            raise RefereeError(f"{action.name} cannot be played with these arguments ({given}): "
                               f"{type(exc).__name__} {exc}") from None

    def check_prompt_answer(self, state: State, prompt: Any, answer: str) -> None:
        if prompt.data:
            _later("answers", "check")(state, prompt, answer)

    def apply_prompt_answer(self, state: State, prompt: Any, answer: str, dice: Sequence[int]) -> State:
        """A unit's owner chose which card keeps it alive first (saves.py), or
        a prompt that changes numbers took them as its answer (answers.py)."""
        from referee.games.culture_war import saves  # lazy: action code loads only when an action is played

        if (prompt.data or {}).get("kind") == saves.KIND:
            return saves.answer(state, prompt, answer)
        return _later("answers", "apply")(state, prompt, answer) if prompt.data else state

    def game_apply(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self.settled(state, action, super().game_apply(state, action, dice))

    def game_play(self, state: State, action: Action, dice: Sequence[int]) -> tuple[State, list[Fact]]:
        """Apply and narrate in one run (a board action's notes are its facts)."""
        spec = self.spec(action)
        if spec.play is None:
            return self.game_apply(state, action, dice), self.narrate(state, action, dice)
        after, facts = spec.play(self, state, action, dice)
        return self.settled(state, action, after), facts

    def play_drawing(self, state: State, action: Action, dice: Any) -> tuple[Action, State, list[Fact]]:
        """A battle, its shown dice or its settling, or the seeded roll-off:
        checked and played once, the dice drawn as the rules ask (drawing.py)."""
        from referee.games.culture_war import drawing  # lazy: action code loads only when an action is played

        action, after, facts = drawing.play(self, state, action, dice)
        return action, self._tracked(state, action, after), facts

    def settled(self, state: State, action: Action, after: State) -> State:
        """What follows every action: cards move between zones, a unit's
        owner is asked which card saves it, a cancel's window closes."""
        from referee.games.culture_war import saves  # lazy: action code loads only when an action is played

        return close_cancel(saves.ask_choices(zones.settle(state, after, action)), action)

    # ---- text -------------------------------------------------------------------------


RULES = CultureWarRules()
