"""Political Divide & Conquer at the table: 4-8 players, one shared deck.

The referee tracks what is face up (bases, the unaffiliated area, the
discard pile, the attack under way) and counts what is not (cards in the
deck, in each hand, and set aside when the deck is cut). Every card put
down must be a free printed copy (`printed`). On their turn a player draws
one card (the referee does it as the turn starts) and takes exactly one
action, after which the turn passes by itself:
    event, unaffiliate, recruit, attach, or an attack
    (attack -> team -> call | raise -> [team] -> fight; see phases.Phase).
`next` passes without an action. The game ends after the turn of the
player who drew the last card (house rule last-card-by-event for a last
card drawn through an event); then every hand is discarded and the nets
decide (`result`; `over` is kept too, for status --json). Each player's `fields`: hand, drawn, left, right, net, cards (in
base), recomputed after every action so `status` scores live.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from referee.rules import prompts
from referee.errors import RuleViolation
from referee.rules import ActionSpec, HouseRule, action_table
from referee.games.divide_and_conquer import actions, cards, zones
from referee.games.divide_and_conquer.actions import step_action
from referee.games.divide_and_conquer.hands import put_down
from referee.games.divide_and_conquer.phases import next_step, phase_of
from referee.games.divide_and_conquer.printed import places_of
from referee.games.divide_and_conquer.work import Work
from referee.rules.generic import GenericRules
from referee.rules.shared import SHARED_ACTIONS
from referee.model import Action, GameSlug, Setup, State

TURN_ACTIONS = ("event", "unaffiliate", "recruit", "attach", "attack")
LAST_CARD_CHOICES = ("drawer-plays", "game-ends")
ATTACK_STEPS = ("team", "raise", "call", "fight")

ACTIONS: tuple[ActionSpec, ...] = (
    step_action("event", actions.event),
    step_action("unaffiliate", actions.unaffiliate),
    step_action("recruit", actions.recruit),
    step_action("attach", actions.attach),
    step_action("attack", actions.attack),
    step_action("team", actions.team),
    step_action("call", actions.respond),
    step_action("raise", actions.respond),
    step_action("fight", actions.fight, dice=(6, 6)),
    ActionSpec("end-turn", actions.check_end_turn, actions.apply_end_turn),  # `next`: pass without an action
    ActionSpec("hand", actions.check_hand, actions.apply_hand),
)


class DivideAndConquerRules(GenericRules):
    slug = GameSlug.DIVIDE_AND_CONQUER
    version = "divide-and-conquer-3"
    min_players, max_players = 4, 8
    actions = action_table(SHARED_ACTIONS, ACTIONS)
    house_rules = {
        "deck-size": HouseRule(
            "deck-size", None,
            f"cards in the shared deck; default: all {cards.PRINTED_DECK} printed cards. A smaller deck is a "
            "shorter game: shuffle, then set cards aside unseen (it must still deal 6 to everyone)",
            minimum=zones.HAND_SIZE * 4, maximum=cards.PRINTED_DECK,
        ),
        "last-card-by-event": HouseRule(
            "last-card-by-event", "drawer-plays",
            "when an event draws the last card: drawer-plays = the player who drew it still plays one turn "
            "(play goes on without drawing until then); game-ends = the game ends once that event is resolved",
            kind=str, choices=LAST_CARD_CHOICES,
        ),
    }

    # ---- setup -------------------------------------------------------------

    def setup(self, setup: Setup, dice: Sequence[int]) -> State:
        state = super().setup(setup, dice)
        rules = dict(state.house_rules)
        size = rules.get("deck-size")
        size = int(size) if size is not None else cards.deck_size()  # type: ignore[arg-type]
        rules["deck-size"] = size
        names = [p.name for p in state.players]
        left = size - zones.HAND_SIZE * len(names)
        if left < 0:
            raise RuleViolation("the deal", f"a deck of {size} cards cannot deal {zones.HAND_SIZE} to "
                                f"{len(names)} players")
        fields: dict[str, Any] = {
            "deck": left, "deck_size": size, "set_aside": cards.PRINTED_DECK - size, "last_drawer": None,
            "last_card_by_event": False, "bases": {n: [] for n in names},
            "unaffiliated": [], "discard": [], "next_ref": 1, "attack": None, "last_attack": None,
            "last_event": None, "hidden_discards": 0, "over": False, "result": None,
        }
        w = Work(fields, {n: zones.HAND_SIZE for n in names}, names)
        w.draw(names[0])  # the first player's turn starts with a draw
        return w.state(replace(state, house_rules=rules))

    # ---- hooks the core calls -------------------------------------------------

    def phase(self, state: State) -> str | None:
        """action (no attack under way), team, call-or-raise, add, roll, or game over."""
        return phase_of(state.fields).value

    def hand_size(self, state: State, player: str) -> int | None:
        return int(state.player(player).fields.get("hand", 0))

    def cards_from_hand(self, state: State, action: Action) -> list[str] | None:
        return put_down(action)  # an attached asset is a `_`-arg

    def where_is(self, state: State, card_id: str) -> list[str]:
        return places_of(state.fields, card_id)

    def copy_hints(self, state: State, action: Action) -> list[str | None]:
        """The group each numbered copy goes to or on: a team's or raise's
        cards are laid first (the next g-numbers), then its --attach cards."""
        from referee.rules.copy_register import named_at  # lazy: only an action naming copies asks

        laid = list(action.args.get("cards") or [])
        attach = [str(a).rpartition("=")[2] for a in action.args.get("attach") or ()]
        first = int(state.fields.get("next_ref") or 1)
        out: list[str | None] = []
        for _, _, at in named_at(action):
            ref = None
            if action.name in ("team", "raise") and at is not None:
                if at < len(laid):
                    ref = f"g{first + at}"
                elif at - len(laid) < len(attach):
                    onto = attach[at - len(laid)]
                    ref = f"g{first + int(onto[4:])}" if onto.startswith("new:") else onto
            elif action.name == "attach":
                ref = str(action.args.get("onto") or "") or None
            out.append(f"({ref})" if ref else None)
        return out

    # rules_can_decide: the deck running out decides the game (the default,
    # `not state.finished`); after a draw ("play again") a winner can only be
    # named by hand.

    # ---- checking ------------------------------------------------------------

    def check(self, state: State, action: Action) -> None:
        actions.well_formed(action)
        if state.result and not (action.name == "win" and state.winner is None):  # the deck ran out and was scored
            raise RuleViolation("game over", f"the game is over: {state.result}; undo to go back")
        attack = state.fields.get("attack")
        now = phase_of(state.fields)
        if attack and action.name not in (*ATTACK_STEPS, "hand", "win"):
            raise RuleViolation("finish the attack first", f"{attack['attacker']}'s attack on {attack['target']} is "
                                f"under way (phase {now.value}); next: " + next_step(attack))
        if not attack and action.name in ATTACK_STEPS:
            who = action.args.get("player") or action.actor or state.active_player.name
            raise RuleViolation("attack order", f"{who} cannot {action.name} in phase {now.value}: no attack is "
                                "under way (`attack TARGET --intent ...` starts one)")
        if action.name in TURN_ACTIONS or action.name in ("team", "fight"):
            actions.check_turn(state, action)
        super().check(state, action)

    # ---- prompts and text ------------------------------------------------------

    def apply_prompt_answer(self, state: State, prompt: prompts.Prompt, answer: str,
                            dice: Sequence[int]) -> State:
        """An owner's pick for an event on everyone (see actions.event)."""
        if (prompt.data or {}).get("pick") != "event":
            return state
        return actions.answer_event_pick(state, prompt, answer)


RULES = DivideAndConquerRules()
