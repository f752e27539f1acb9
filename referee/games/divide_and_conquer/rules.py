"""Political Divide & Conquer at the table: 4-8 players, one shared deck.

The referee tracks what is face up (bases, the unaffiliated area, the
discard pile, the attack under way) and counts what is not (cards in the
deck, in each hand, and set aside when the deck is cut). Every card put
down must be a free printed copy (`printed`). On their turn a player draws
one card (the referee does it as the turn starts) and takes exactly one
action, after which the turn passes by itself:
    event, unaffiliate, recruit, attach, or an attack
    (attack -> team -> call | raise -> [team] -> fight; see battle.Phase).
`next` passes without an action. The game ends after the turn of the
player who drew the last card (house rule last-card-by-event for a last
card drawn through an event); then every hand is discarded and the nets
decide. Each player's `fields`: hand, drawn, left, right, net, cards (in
base), recomputed after every action so `status` scores live.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Sequence

from referee import prompts
from referee.errors import RuleViolation
from referee.games import HouseRule
from referee.games.divide_and_conquer import battle, cards, events, hands, text, zones
from referee.games.divide_and_conquer.battle import Phase
from referee.games.divide_and_conquer.work import Work
from referee.games.divide_and_conquer import phrases as _phrases
from referee.games.generic import GenericRules
from referee.model import Action, GameSlug, Setup, State

TURN_ACTIONS = ("event", "unaffiliate", "recruit", "attach", "attack")
LAST_CARD_CHOICES = ("drawer-plays", "game-ends")
REPLAYING = "_applying"  # marks an action being applied, not checked (see apply)
ATTACK_STEPS = ("team", "raise", "call", "fight")


class DivideAndConquerRules(GenericRules):
    slug = GameSlug.DIVIDE_AND_CONQUER
    phrases = {**GenericRules.phrases, **_phrases.PHRASES}

    tally = ("net",)
    quiet = ("drawn",)

    def label(self, state: State, key: str, value: object) -> str | None:
        return _phrases.label(state, key, value)

    def pieces(self, state: State) -> list[tuple[str, str]]:
        return [(ref, _phrases.label(state, "target", ref) or ref) for ref in (state.fields.get("groups") or {})]

    def log_outcome(self, before: State, event: object, after: State) -> list[str]:
        """A fight's dice and result, without the sums' sources."""
        last = after.fields.get("last_attack")
        if not last or last == before.fields.get("last_attack"):
            return []
        return [_phrases.fight_text(last)]

    title = "Political Divide & Conquer"
    version = "divide-and-conquer-3"
    min_players, max_players = 4, 8
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

    # ---- checking ------------------------------------------------------------

    # ---- hooks the core calls -------------------------------------------------

    def phase(self, state: State) -> str | None:
        """action (no attack under way), team, call-or-raise, add, roll, or game over."""
        return battle.phase_of(state.fields).value

    def where_is(self, state: State, card_id: str) -> list[str]:
        from referee.games.divide_and_conquer.printed import places_of

        return places_of(state.fields, card_id)

    def rules_can_decide(self, state: State) -> bool:
        """The deck running out decides the game; after a draw ("play again")
        a winner can only be named by hand."""
        return not state.fields.get("over")

    # ---- checking ------------------------------------------------------------

    def check(self, state: State, action: Action) -> None:
        if state.fields.get("over") and not (action.name == "win" and state.winner is None):
            raise RuleViolation("game over", f"the game is over: {state.fields.get('result')}; undo to go back")
        attack = state.fields.get("attack")
        now = battle.phase_of(state.fields)
        if attack and action.name not in (*ATTACK_STEPS, "hand", "win"):
            raise RuleViolation("finish the attack first", f"{attack['attacker']}'s attack on {attack['target']} is "
                                f"under way (phase {now.value}); next: " + text.next_step(attack))
        if not attack and action.name in ATTACK_STEPS:
            who = action.args.get("player") or action.actor or state.active_player.name
            raise RuleViolation("attack order", f"{who} cannot {action.name} in phase {now.value}: no attack is "
                                "under way (`attack TARGET --intent ...` starts one)")
        if action.name in TURN_ACTIONS or action.name in ("team", "fight"):
            self._turn(state, action)
        super().check(state, action)

    def _turn(self, state: State, action: Action) -> None:
        name = action.args.get("player") or action.actor
        active = state.active_player.name
        if name is None or state.player(name).name == active:
            return
        name = state.player(name).name
        previous = state.players[state.active - 1].name
        rule = "one action per turn" if name == previous else "turn order"
        raise RuleViolation(rule, f"it is {active}'s turn, so {name} cannot "
                            + ("take another action: their turn ended with the last one" if name == previous
                               else "act now"))

    def _run(self, state: State, action: Action, body: Callable[[Work], None], ends_turn: bool) -> State:
        w = Work.of(state)
        w.strict = not action.args.get(REPLAYING)
        body(w)
        after = w.state(state)
        return self._end_turn(after) if ends_turn else after

    def _actor(self, state: State, action: Action) -> str:
        name = action.args.get("player") or action.actor
        return state.player(name).name if name else state.active_player.name

    # the five actions --------------------------------------------------------

    def _event(self, state: State, action: Action) -> State:
        actor, card = self._actor(state, action), action.args.get("_card") or {}
        if card.get("type") != "event":
            raise RuleViolation("play one event", f"{actor} cannot play {card.get('name', '?')} as an event: it is not an event card")
        w = Work.of(state)
        w.strict = not action.args.get(REPLAYING)
        w.claim(card, actor)
        w.spend(actor, 1, "an event")
        pick = action.args.get("pick")
        opts = {**action.args, "player": state.player(pick).name if pick else None}
        events.play(w, actor, card, opts)
        w.fields["discard"].append(card["id"])
        w.fields["last_event"] = {"turn": state.turn, "player": actor, "card": card["id"],
                                  "name": card["name"], "notes": list(w.notes)}
        after = w.state(state)
        if not w.asks:
            return self._end_turn(after)
        for ask in w.asks:  # each owner's own pick: the turn ends once every one is answered
            after = prompts.ask(
                after, ask["player"], card["id"], card["name"], "played",
                f"{card.get('text') or card['name']} {ask['player']} picks the {ask['what']} they give up: "
                f"{ask['groups']}.", choices=ask["choices"],
                data={"pick": "event", "action": ask["action"], "by": actor})
        return after

    def apply_prompt_answer(self, state: State, prompt: prompts.Prompt, answer: str,
                            dice: Sequence[int]) -> State:
        """An owner's pick for an event on everyone: the group goes; once the
        last pick is in, the event's turn ends."""
        data = prompt.data or {}
        if data.get("pick") != "event":
            return state
        w = Work.of(state)
        _, group = zones.find(w.fields, answer)
        events.dispose(w, answer, str(data["action"]), str(data["by"]))
        event = w.fields.get("last_event") or {}
        event["notes"] = [*event.get("notes", ()), f"{prompt.player} gives up {group['name']} ({answer})"]
        w.fields["last_event"] = event
        after = w.state(state)
        return after if prompts.pending(after) else self._end_turn(after)

    def _group_from_hand(self, state: State, action: Action, where: str) -> State:
        actor, card = self._actor(state, action), action.args.get("_card") or {}
        if card.get("type") != "group":
            raise RuleViolation("groups only", f"{actor} can only put a group in {where}, and "
                                f"{card.get('name', '?')} is not a group")

        def body(w: Work) -> None:
            w.claim(card, actor)
            w.spend(actor, 1, "a group")
            group = zones.new_group(w.fields, card)
            (w.fields["unaffiliated"] if where == "the unaffiliated area" else w.fields["bases"][actor]).append(group)
        return self._run(state, action, body, ends_turn=True)

    def _attach(self, state: State, action: Action) -> State:
        actor, card = self._actor(state, action), action.args.get("_card") or {}
        if card.get("type") not in ("asset", "deficit"):
            raise RuleViolation("assets and deficits go on groups", f"{actor} can only attach assets and "
                                f"deficits, and {card.get('name', '?')} is neither")

        def body(w: Work) -> None:
            _, group = zones.find(w.fields, str(action.args.get("onto")))
            w.claim(card, actor)
            w.spend(actor, 1, "an asset or deficit")
            group["attached"].append(zones.attachment(card))
        return self._run(state, action, body, ends_turn=True)

    def _attack(self, state: State, action: Action) -> State:
        actor = self._actor(state, action)
        return self._run(state, action, lambda w: battle.declare(
            w, actor, str(action.args.get("target")), str(action.args.get("intent"))), ends_turn=False)

    # the attack's steps ---------------------------------------------------------

    def _team(self, state: State, action: Action) -> State:
        actor, args = self._actor(state, action), action.args
        return self._run(state, action, lambda w: battle.team(
            w, actor, args.get("_groups") or [], args.get("join") or [], args.get("_attach") or []), ends_turn=False)

    def _respond(self, state: State, action: Action) -> State:
        attack = state.fields["attack"]
        args = action.args
        name = args.get("player") or action.actor or attack.get("defender") or "?"
        actor = state.player(name).name if name != "?" else name
        raising = action.name == "raise"
        return self._run(state, action, lambda w: battle.respond(
            w, actor, raising, args.get("_groups") or [], args.get("_attach") or []), ends_turn=False)

    def _fight(self, state: State, action: Action, dice: Sequence[int]) -> State:
        attack = state.fields["attack"]
        stage = Phase(attack["stage"])
        if stage in (Phase.TEAM, Phase.CALL_OR_RAISE):
            who = attack["attacker"] if stage == Phase.TEAM else attack["defender"]
            step = "lay the attack team (`team`, even with no cards)" if stage == Phase.TEAM else "call or raise"
            raise RuleViolation("attack order", f"before the dice, {who} must {step} (phase {stage.value})")
        return self._run(state, action, lambda w: battle.fight(w, dice), ends_turn=True)

    def dice_needed(self, state: State, action: Action) -> tuple[int, ...]:
        return (6, 6) if action.name == "fight" else ()

    # one check_/apply_ pair per action: check runs the step on a copy
    def _step(self, state: State, action: Action, dice: Sequence[int] = (6, 6)) -> State:
        name = action.name
        if name == "event":
            return self._event(state, action)
        if name == "unaffiliate":
            return self._group_from_hand(state, action, "the unaffiliated area")
        if name == "recruit":
            return self._group_from_hand(state, action, "their base")
        if name == "attach":
            return self._attach(state, action)
        if name == "attack":
            return self._attack(state, action)
        if name == "team":
            return self._team(state, action)
        if name in ("raise", "call"):
            return self._respond(state, action)
        return self._fight(state, action, dice)

    def check_event(self, state: State, action: Action) -> None:
        self._step(state, action)

    check_unaffiliate = check_recruit = check_attach = check_attack = check_team = check_event
    check_raise = check_call = check_fight = check_event

    def apply(self, state: State, action: Action, dice: Sequence[int]) -> State:
        """Apply a checked action. The checks that came in with this version
        (printed copies, empty raises and additions, a base group joining
        twice in one command, another player) are not run again here, so a
        table logged by an earlier version still loads."""
        if action.name in (*TURN_ACTIONS, *ATTACK_STEPS):
            return self._step(state, replace(action, args={**action.args, REPLAYING: True}), dice)
        return super().apply(state, action, dice)

    # passing, hands, the end ---------------------------------------------------

    def check_end_turn(self, state: State, action: Action) -> None:
        self._turn(state, action)

    def apply_end_turn(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._end_turn(state)

    def _end_turn(self, state: State) -> State:
        """The turn is over: the game ends if the player who drew the last
        card has now had their turn; otherwise the next player draws."""
        w = Work.of(state)
        current = state.active_player.name
        by_event_ends = (w.fields.get("last_card_by_event")
                         and state.house_rules.get("last-card-by-event") == "game-ends")
        if w.fields["deck"] == 0 and (w.fields.get("last_drawer") in (current, None) or by_event_ends):
            winners, result = zones.standings(w.fields, w.names)
            dropped = sum(w.hands.values())
            w.hands = {n: 0 for n in w.names}
            w.fields.update(over=True, result=result, hands_discarded=dropped,
                            hidden_discards=int(w.fields.get("hidden_discards") or 0) + dropped)
            return replace(w.state(state), winner=winners[0] if len(winners) == 1 else None)
        nxt = (state.active + 1) % len(state.players)
        w.draw(w.names[nxt])
        return replace(w.state(state), active=nxt, turn=state.turn + 1,
                       round=state.round + (1 if nxt == 0 else 0))

    def check_hand(self, state: State, action: Action) -> None:
        hands.check_correction(state, action.args)

    def apply_hand(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return hands.apply_correction(state, action.args)

    # text ------------------------------------------------------------------

    def render_lines(self, state: State) -> list[str]:
        return text.status_lines(state)

    def change_lines(self, before: State, after: State) -> list[str]:
        return text.change_lines(before, after)


RULES = DivideAndConquerRules()
