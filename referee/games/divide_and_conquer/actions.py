"""The Divide & Conquer actions, each a check and an apply function over
(rules, state, action[, dice]); rules.py lists them in ACTIONS.

A turn's action (event, unaffiliate, recruit, attach) and each step of an
attack (attack, team, call, raise, fight) is one `step` function: checking
runs it on a copy with CHECKING set, which stops once every check has
passed (the table after it is not built; a fight has placeholder dice);
applying runs it again with REPLAYING set, which skips the checks that
came in with this version (printed copies, empty raises and additions, a
base group joining twice in one command, another player), so a table logged
by an earlier version still loads. Then end-turn (passing without an
action) and `hand`, the scorekeeper's correction of a hand's count.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Sequence

from referee.rules import prompts
from referee.errors import RuleViolation
from referee.rules import ActionSpec
from referee.rules.generic import check_by_applying
from referee.games.divide_and_conquer import battle, events, hands, zones
from referee.games.divide_and_conquer.phases import Phase
from referee.games.divide_and_conquer.work import Work
from referee.model import Action, State

REPLAYING = "_applying"  # marks an action being applied, not checked
CHECKING = "_checking"  # marks an action being checked: the step stops before building the table after it
CHECK_DICE = (6, 6)  # what a fight is checked with: any dice are legal
Step = Callable[[State, Action, Sequence[int]], State]


def step_action(name: str, step: Step, dice: tuple[int, ...] | None = None) -> ActionSpec:
    """The table entry of a turn action or attack step (see the module docstring)."""

    def strict(rules: Any, state: State, action: Action, rolled: Sequence[int]) -> State:
        return step(state, replace(action, args={**action.args, CHECKING: True}), rolled)

    def apply(rules: Any, state: State, action: Action, rolled: Sequence[int]) -> State:
        return step(state, replace(action, args={**action.args, REPLAYING: True}), rolled)

    strict.__name__ = name
    return ActionSpec(name, check_by_applying(strict, CHECK_DICE), apply,
                      (lambda rules, state, action: dice) if dice else None)


TEXT_ARGS = ("player", "target", "intent", "onto", "pick", "attachment", "card")
LIST_ARGS = ("cards", "attach", "join", "groups")
CARD_KEYS = ("id", "name", "type")


def well_formed(action: Action) -> None:
    """Refuse an action whose arguments are not what the commands record
    (a word where a word goes, lists of words, card data with its id, name
    and type), so a malformed action is refused, never half-read."""
    args = action.args

    def bad(key: str) -> RuleViolation:
        return RuleViolation("the command's arguments", f"{action.name}: the argument {key} is not "
                             f"what the command records ({args[key]!r})")

    def is_card(value: Any) -> bool:
        return isinstance(value, dict) and all(isinstance(value.get(k), str) for k in CARD_KEYS)

    for key in TEXT_ARGS:
        if key in args and not isinstance(args[key], str):
            raise bad(key)
    for key in LIST_ARGS:
        if key in args and not (isinstance(args[key], list) and all(isinstance(v, str) for v in args[key])):
            raise bad(key)
    if "_card" in args and not is_card(args["_card"]):
        raise bad("_card")
    if "_groups" in args and not (isinstance(args["_groups"], list) and all(is_card(g) for g in args["_groups"])):
        raise bad("_groups")
    if "_attach" in args and not (isinstance(args["_attach"], list) and all(
            isinstance(a, dict) and is_card(a.get("card")) and isinstance(a.get("onto"), str)
            for a in args["_attach"])):
        raise bad("_attach")


def _run(state: State, action: Action, body: Callable[[Work], None], ends_turn: bool) -> State:
    w = Work.of(state)
    w.strict = not action.args.get(REPLAYING)
    body(w)
    if action.args.get(CHECKING):
        return state  # every check passed; what follows only builds the table after it
    after = w.state(state)
    return end_turn(after) if ends_turn else after


def _actor(state: State, action: Action) -> str:
    name = action.args.get("player") or action.actor
    return state.player(name).name if name else state.active_player.name


# ---- the turn's one action ------------------------------------------------------


def event(state: State, action: Action, dice: Sequence[int]) -> State:
    actor, card = _actor(state, action), action.args.get("_card") or {}
    if card.get("type") != "event":
        raise RuleViolation("play one event", f"{actor} cannot play {card.get('name', '?')} as an event: it is not an event card")
    w = Work.of(state)
    w.strict = not action.args.get(REPLAYING)
    w.claim(card, actor)
    w.spend(actor, 1, "an event")
    pick = action.args.get("pick")
    opts = {**action.args, "player": state.player(pick).name if pick else None}
    events.play(w, actor, card, opts)
    if action.args.get(CHECKING):
        return state  # every check passed (see _run)
    w.fields["discard"].append(card["id"])
    w.fields["last_event"] = {"turn": state.turn, "player": actor, "card": card["id"],
                              "name": card["name"], "notes": list(w.notes)}
    after = w.state(state)
    if not w.asks:
        return end_turn(after)
    for ask in w.asks:  # each owner's own pick: the turn ends once every one is answered
        after = prompts.ask(
            after, ask["player"], card["id"], card["name"], "played",
            f"{card.get('text') or card['name']} {ask['player']} picks the {ask['what']} they give up: "
            f"{ask['groups']}.", choices=ask["choices"],
            data={"pick": "event", "action": ask["action"], "by": actor})
    return after


def answer_event_pick(state: State, prompt: prompts.Prompt, answer: str) -> State:
    """An owner's pick for an event on everyone: the group goes; once the
    last pick is in, the event's turn ends."""
    data = prompt.data or {}
    w = Work.of(state)
    _, group = zones.find(w.fields, answer)
    events.dispose(w, answer, str(data["action"]), str(data["by"]))
    last = w.fields.get("last_event") or {}
    last["notes"] = [*last.get("notes", ()), f"{prompt.player} gives up {group['name']} ({answer})"]
    w.fields["last_event"] = last
    after = w.state(state)
    return after if prompts.pending(after) else end_turn(after)


def _group_from_hand(state: State, action: Action, where: str) -> State:
    actor, card = _actor(state, action), action.args.get("_card") or {}
    if card.get("type") != "group":
        raise RuleViolation("groups only", f"{actor} can only put a group in {where}, and "
                            f"{card.get('name', '?')} is not a group")

    def body(w: Work) -> None:
        w.claim(card, actor)
        w.spend(actor, 1, "a group")
        group = zones.new_group(w.fields, card)
        (w.fields["unaffiliated"] if where == "the unaffiliated area" else w.fields["bases"][actor]).append(group)
    return _run(state, action, body, ends_turn=True)


def unaffiliate(state: State, action: Action, dice: Sequence[int]) -> State:
    return _group_from_hand(state, action, "the unaffiliated area")


def recruit(state: State, action: Action, dice: Sequence[int]) -> State:
    return _group_from_hand(state, action, "their base")


def attach(state: State, action: Action, dice: Sequence[int]) -> State:
    actor, card = _actor(state, action), action.args.get("_card") or {}
    if card.get("type") not in ("asset", "deficit"):
        raise RuleViolation("assets and deficits go on groups", f"{actor} can only attach assets and "
                            f"deficits, and {card.get('name', '?')} is neither")

    def body(w: Work) -> None:
        _, group = zones.find(w.fields, str(action.args.get("onto")))
        w.claim(card, actor)
        w.spend(actor, 1, "an asset or deficit")
        group["attached"].append(zones.attachment(card))
    return _run(state, action, body, ends_turn=True)


# ---- an attack, step by step (battle.py) ------------------------------------------


def attack(state: State, action: Action, dice: Sequence[int]) -> State:
    actor = _actor(state, action)
    return _run(state, action, lambda w: battle.declare(
        w, actor, str(action.args.get("target")), str(action.args.get("intent"))), ends_turn=False)


def team(state: State, action: Action, dice: Sequence[int]) -> State:
    actor, args = _actor(state, action), action.args
    return _run(state, action, lambda w: battle.team(
        w, actor, args.get("_groups") or [], args.get("join") or [], args.get("_attach") or []), ends_turn=False)


def respond(state: State, action: Action, dice: Sequence[int]) -> State:
    """`call` or `raise`: the defender's answer."""
    attack_now = state.fields["attack"]
    args = action.args
    name = args.get("player") or action.actor or attack_now.get("defender") or "?"
    actor = state.player(name).name if name != "?" else name
    raising = action.name == "raise"
    return _run(state, action, lambda w: battle.respond(
        w, actor, raising, args.get("_groups") or [], args.get("_attach") or []), ends_turn=False)


def fight(state: State, action: Action, dice: Sequence[int]) -> State:
    attack_now = state.fields["attack"]
    stage = Phase(attack_now["stage"])
    if stage in (Phase.TEAM, Phase.CALL_OR_RAISE):
        who = attack_now["attacker"] if stage == Phase.TEAM else attack_now["defender"]
        step = "lay the attack team (`team`, even with no cards)" if stage == Phase.TEAM else "call or raise"
        raise RuleViolation("attack order", f"before the dice, {who} must {step} (phase {stage.value})")
    return _run(state, action, lambda w: battle.fight(w, dice), ends_turn=True)


# ---- passing, hands, the end -------------------------------------------------------


def check_turn(state: State, action: Action) -> None:
    """Only the active player acts, and only once: their action ended the turn."""
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


def check_end_turn(rules: Any, state: State, action: Action) -> None:
    check_turn(state, action)


def apply_end_turn(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    return end_turn(state)


def end_turn(state: State) -> State:
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
        w.fields.update(over=True, result=result, hands_discarded=dropped,  # over: for status --json
                        hidden_discards=int(w.fields.get("hidden_discards") or 0) + dropped)
        return replace(w.state(state), winner=winners[0] if len(winners) == 1 else None)
    nxt = (state.active + 1) % len(state.players)
    w.draw(w.names[nxt])
    return replace(w.state(state), active=nxt, turn=state.turn + 1,
                   round=state.round + (1 if nxt == 0 else 0))


def check_hand(rules: Any, state: State, action: Action) -> None:
    hands.check_correction(state, action.args)


def apply_hand(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    return hands.apply_correction(state, action.args)
