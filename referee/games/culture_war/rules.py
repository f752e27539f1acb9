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

from dataclasses import replace
from typing import Any, Callable, Mapping, Sequence

from referee.errors import RefereeError, RuleViolation
from referee.rules.facts import Fact
from referee.rules import action_table, lazy_table
from referee.games.culture_war.effects import static as effects
from referee.games.culture_war.table import phases
from referee.games.culture_war.table import zones
from referee.games.culture_war.table.board import PLAIN, Board
from referee.games.culture_war.table.pieces import new_piece
from referee.games.culture_war.table.cards import deck_size, starting_cards
from referee.games.culture_war.effects.static import freeze
from referee.games.culture_war.table.house_rules import HOUSE_RULES, LIFE_BY_PLAYERS
from referee.rules.generic import GenericRules
from referee.rules.shared import SHARED_ACTIONS
from referee.model import Action, GameSlug, Setup, State

WINDOW_ALLOWS = frozenset({"settle", "resolve", "life", "capital", "crowd"})

Step = Callable[[Board, Mapping[str, Any], Any], None]  # (board, args, dice): changes the board, leaves notes


def _actions() -> tuple:
    from referee.games.culture_war.action_table import ACTIONS  # lazy: the action code, only when an action is played

    return ACTIONS


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
    actions = lazy_table(lambda: action_table(SHARED_ACTIONS, _actions()))

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

    def known_in_hand(self, state: State, player: str) -> list[str]:
        return zones.known_in_hand(state, state.player(player).name)

    def hand_size(self, state: State, player: str) -> int | None:
        return int(state.player(player).fields.get("hand", 0))

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
            from referee.games.culture_war.effects import answers  # lazy: action code loads only when an action is played

            answers.check(state, prompt, answer)

    def apply_prompt_answer(self, state: State, prompt: Any, answer: str, dice: Sequence[int]) -> State:
        """A unit's owner chose which card keeps it alive first (saves.py), or
        a prompt that changes numbers took them as its answer (answers.py)."""
        from referee.games.culture_war.battle import saves  # lazy: action code loads only when an action is played
        from referee.games.culture_war.effects import answers  # lazy: as above

        if (prompt.data or {}).get("kind") == saves.KIND:
            return saves.answer(state, prompt, answer)
        return answers.apply(state, prompt, answer) if prompt.data else state

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
        from referee.games.culture_war.battle import drawing  # lazy: action code loads only when an action is played

        action, after, facts = drawing.play(self, state, action, dice)
        return action, self._tracked(state, action, after), facts

    def settled(self, state: State, action: Action, after: State) -> State:
        """What follows every action: cards move between zones, a unit's
        owner is asked which card saves it, a cancel's window closes."""
        from referee.games.culture_war.battle import saves  # lazy: action code loads only when an action is played

        return close_cancel(saves.ask_choices(zones.settle(state, after, action)), action)

    # ---- text -------------------------------------------------------------------------


RULES = CultureWarRules()
