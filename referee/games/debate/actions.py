"""The debate's actions, each a check and an apply function over
(rules, state, action[, dice]); rules.py lists them in ACTIONS.

The moves on the forum (playing a tactic from the hand, taking one out of
the forum, using a POTUS ability) are pure functions of (state, action)
that check what they need as they go, raising RuleViolation naming the
player, the phase and the rule; the check runs them and drops the result,
so checking and applying can never disagree. Then the phases (`end-turn`,
`no-argument`), decks and POTUS chosen before play, fortitude by hand, and
round end.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping, Sequence

from referee.rules import prompts
from referee.rules.facts import Fact
from referee.rules.copies import check_free_copy
from referee.errors import RuleViolation
from referee.games.debate import forum as fm
from referee.games.debate import phases as ph
from referee.games.debate import piles
from referee.games.debate.abilities import Play, remove_tactic, resolve
from referee.rules.shared import changed, check_change
from referee.model import Action, State
from referee.rules.plain import plain_copy


def play_tactic(state: State, action: Action) -> State:
    """`argue` or `device`: a tactic from the player's hand into their thread."""
    args = action.args
    player = state.player(args["player"])
    card = args.get("_card") or {}
    what = card.get("name", "a tactic")
    ph.check_tactic(state, player.name, what)
    thread = _thread(args.get("thread"))
    names = [p.name for p in state.players]
    fields = fresh(state.fields)
    slots = fields["forum"][player.name]
    card = {**card, "owner": player.name}
    if action.name == "argue":
        if card.get("kind") != "argument":
            raise RuleViolation("arguments open threads",
                                f"{player.name} cannot open thread {thread} with {what}: "
                                "only arguments go into a thread")
        if slots[thread - 1]:
            raise RuleViolation("one argument per thread", f"{player.name} already has "
                                f"{slots[thread - 1]['argument']['name']} in thread {thread}")
        ph.check_argument_slot(state, player.name, thread, what)
        piles.take_from_hand(fields, player.name, card)
        slots[thread - 1] = {"argument": card, "devices": [], "mods": []}
        _mark(fields, "opened", thread)
        fields["held"] = {**fields.get("held", {}), player.name: sorted({*fields["held"].get(player.name, []), thread})}
        if ph.current(fields) in ph.PHASE_ONE:
            _mark(fields, "argued", player.name)
    else:
        if card.get("kind") != "device":
            raise RuleViolation("devices go on arguments",
                                f"{player.name} cannot play {what} as a device: it is not a "
                                "rhetorical device")
        if not slots[thread - 1]:
            raise RuleViolation("devices go on arguments", f"{player.name} has no argument in thread "
                                f"{thread} to put {what} on")
        piles.take_from_hand(fields, player.name, card)
        slots[thread - 1]["devices"].append(card)
    crowd = state.crowd or 0
    if card.get("timing", "instant") == "instant":
        fields, crowd = resolve(Play(fields, crowd, names, player.name, card, thread, args))
    return _ask(replace(state, fields=fields, crowd=crowd), player.name, card, "played")


def remove(state: State, action: Action) -> State:
    """`destroy` or `return`: a tactic leaves the forum for the discard pile or the hand."""
    args = action.args
    side = state.player(args["player"]).name
    thread = _thread(args.get("thread"))
    names = [p.name for p in state.players]
    actor = state.player(action.actor).name if action.actor else None
    fields = fresh(state.fields)
    fields = remove_tactic(fields, names, side, thread, args.get("device"), actor,
                           verb="destroy" if action.name == "destroy" else "return")
    return replace(state, fields=fields)


def use_ability(state: State, action: Action) -> State:
    """`ability`: a POTUS ability, in its owner's phase or the POTUS window."""
    args = action.args
    player = state.player(args["player"])
    card = (state.fields.get("potus") or {}).get(player.name)
    if not card:
        raise RuleViolation("POTUS", f"{player.name} has no POTUS; set one with `potus {player.name} CARD`")
    uses = card.get("uses")
    used = (state.fields.get("used") or {}).get(player.name) or {}
    if uses == "passive":
        raise RuleViolation("passive abilities", f"{card['ability']} ({card['name']}) is passive: the referee "
                            "applies it by itself")
    ph.check_ability(state, player.name, card["ability"])
    if uses == "once-per-match" and used.get("match"):
        raise RuleViolation("once per match", f"{player.name} has already used {card['ability']} this match")
    if uses == "once-per-round" and used.get("round") == state.round:
        raise RuleViolation("once per round", f"{player.name} has already used {card['ability']} this round")
    fields = fresh(state.fields)
    names = [p.name for p in state.players]
    if card.get("action") == "look-at-hand":
        them = fm.opponent(names, player.name)
        if not fields["piles"][them]["hand"]:
            raise RuleViolation("ability target", f"{player.name}'s {card['ability']} ({card['name']}) looks at "
                                f"{them}'s hand, and {them} holds no cards")
    if card.get("crowd_toward") in ("mob", "citizen", "either") and card.get("crowd_shift"):
        _check_crowd_room(state, player.name, card, args)
    fields, crowd = resolve(Play(fields, state.crowd or 0, names, player.name, card, None, args))
    mark = {"match": True} if uses == "once-per-match" else {"round": state.round}
    fields["used"] = {**fields.get("used", {}), player.name: {**used, **mark}}
    return _ask(replace(state, fields=fields, crowd=crowd), player.name, card, f"POTUS ability {card['ability']}")


def _check_crowd_room(state: State, player: str, card: dict[str, Any], args: dict[str, Any]) -> None:
    """A POTUS crowd move is refused when the crowd cannot move that way at all
    (it would be spent for nothing)."""
    toward = card["crowd_toward"] if card["crowd_toward"] != "either" else args.get("toward")
    if toward not in fm.TOWARD:
        return  # resolve asks for the direction
    crowd = state.crowd or 0
    if crowd * fm.TOWARD[toward] >= fm.CROWD_LIMIT:
        side = "Irrational Mob" if toward == "mob" else "Enlightened Citizen"
        raise RuleViolation("crowd limit", f"{player}'s {card['ability']} ({card['name']}) moves the crowd toward "
                            f"{side}, and it is already at {crowd:+d}, the end of the track")


def _ask(state: State, player: str, card: dict[str, Any], moment: str) -> State:
    """The card's effects that a person carries out: a prompt each, at this moment."""
    names = [p.name for p in state.players]
    them = fm.opponent(names, player)
    for prompt in card.get("prompts") or ():
        words = f"{player}: {prompt['text']}"
        if prompt["kind"] == "look-at-hand":
            count = state.fields["piles"][them]["hand"]
            words += f" ({them} shows {player} {count} card{'s' if count != 1 else ''}.)"
        state = prompts.ask(state, player, card["id"], card["name"], moment, words)
    return state


def _mark(fields: dict[str, Any], key: str, value: Any) -> None:
    if value not in fields.get(key, []):
        fields[key] = [*fields.get(key, []), value]


def _thread(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= fm.THREADS:
        raise RuleViolation("threads 1-7", f"the forum has threads 1 to {fm.THREADS}, not {value!r}")
    return value


# ---- the forum: checked by playing them on a copy --------------------------------


def apply_tactic(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    """`argue` or `device` (checked by applying it: generic.check_by_applying)."""
    return play_tactic(state, action)


def apply_remove(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    """`destroy` or `return` (checked by applying it)."""
    return remove(state, action)


def apply_ability(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    return use_ability(state, action)


def fresh(fields: Mapping[str, Any]) -> dict[str, Any]:
    """A working copy of the table's fields, exactly as a JSON round trip
    gives it (self-play checks thousands of plays a game)."""
    return plain_copy(fields)


# ---- phases: `end-turn` moves on, `no-argument` lets a hand without arguments pass phase one


def check_end_turn(rules: Any, state: State, action: Action) -> None:
    ph.check_end_turn(state, state.player(action.actor).name if action.actor else None)


def apply_end_turn(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    phase = ph.NEXT[ph.current(state.fields)]
    who = ph.acting(state, phase)
    names = [p.name for p in state.players]
    active = names.index(who) if who else state.active
    return replace(state, active=active, turn=state.turn + 1,
                   fields={**state.fields, "phase": phase.value, "waived": []})


def check_no_argument(rules: Any, state: State, action: Action) -> None:
    ph.check_no_argument(state, state.player(action.args["player"]).name)


def apply_no_argument(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    name = state.player(action.args["player"]).name
    return replace(state, fields={**state.fields, "waived": [*state.fields.get("waived", []), name]})


# ---- decks and POTUS, chosen before the first tactic ----------------------------


def check_deck(rules: Any, state: State, action: Action) -> None:
    player = state.player(action.args["player"]).name
    if state.fields.get("begun"):
        raise RuleViolation("tactic deck", f"{player}'s deck is chosen before the first tactic of the match")
    other = fm.opponent([p.name for p in state.players], player)
    theirs = state.fields["piles"][other]
    piles.check_deck(player, action.args.get("_deck") or [], theirs["deck"], other, bool(theirs.get("named")))


def narrate_deck(rules: Any, state: State, action: Action, dice: Sequence[int]) -> list[Fact]:
    """Said whenever the opponent's deck was named before (public: that `deck`
    line is in the log), so the words never depend on what that list holds."""
    player = state.player(action.args["player"]).name
    other = fm.opponent([p.name for p in state.players], player)
    if not state.fields["piles"][other].get("named"):
        return []
    return [Fact(f"{other}'s deck list is hidden, so the referee does not check it against {player}'s: "
                 f"{player} and {other} check between them that no card is in both lists beyond its printed "
                 "copies", who=player)]


def apply_deck(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    player = state.player(action.args["player"]).name
    pile = piles.new_pile(action.args["_deck"])
    piles.draw_up(pile)
    return replace(state, fields={**state.fields, "piles": {**state.fields["piles"], player: pile}})


def check_potus(rules: Any, state: State, action: Action) -> None:
    player = state.player(action.args["player"])
    card = action.args.get("_card") or {}
    if card.get("kind") != "potus":
        raise RuleViolation("POTUS", f"{player.name} cannot take {card.get('name', '?')}: it is not a POTUS card")
    if state.fields.get("begun"):
        raise RuleViolation("POTUS", f"{player.name} can only choose a POTUS before the first tactic is played")
    taken = [f"{n}'s POTUS" for n, c in (state.fields.get("potus") or {}).items()
             if c and c["id"] == card["id"] and n != player.name]
    check_free_copy(card["id"], card["name"], int(card.get("quantity") or 1), taken)


def apply_potus(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    player = state.player(action.args["player"])
    card = dict(action.args["_card"])
    fortitude = int(player.fields.get("fortitude", 0))
    state = state.with_player(replace(player, faction=card["name"], fields=player_fields(fortitude, card)))
    return replace(state, fields={**state.fields, "potus": {**state.fields["potus"], player.name: card}})


def player_fields(fortitude: int, card: Mapping[str, Any] | None) -> dict[str, Any]:
    """A debater's own fields: fortitude and what their POTUS gives."""
    return {"fortitude": fortitude, "potus": card["name"] if card else None,
            "gf_bonus": card["gf_bonus"] if card else 0, "bf_bonus": card["bf_bonus"] if card else 0}


# ---- fortitude by hand ------------------------------------------------------------


def check_fortitude(rules: Any, state: State, action: Action) -> None:
    player = state.player(action.args["player"])
    check_change(action.args, f"{player.name}'s fortitude", allow_negative=True)


def apply_fortitude(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    player = state.player(action.args["player"])
    value = changed(int(player.fields["fortitude"]), action.args)
    return state.with_player(replace(player, fields={**player.fields, "fortitude": value}))


# ---- round end -----------------------------------------------------------------


def round_report(state: State) -> fm.Report:
    """What round end would do to the table now."""
    names = [p.name for p in state.players]
    fortitude = {p.name: int(p.fields["fortitude"]) for p in state.players}
    return fm.round_end(state.fields, names, state.crowd or 0, fortitude, state.round,
                        bool(state.fields.get("tiebreaker")))


def check_round_end(rules: Any, state: State, action: Action) -> None:
    ph.check_round_end(state)


def apply_round_end(rules: Any, state: State, action: Action, dice: Sequence[int]) -> State:
    report = round_report(state)
    names = [p.name for p in state.players]
    players = tuple(replace(p, fields={**p.fields, "fortitude": report.fortitude[p.name]}) for p in state.players)
    opener = fm.opponent(names, state.fields["opener"])
    fields = fresh(state.fields)
    piles.clear_forum(fields, names)
    if report.winner is None:  # round start: both draw back up to five
        for name in names:
            piles.draw_up(fields["piles"][name])
    fields.update({
        "forum": fm.empty_forum(names), "columns": {n: [0] * fm.THREADS for n in names},
        "protected": [], "tiebreaker": report.tiebreaker, **ph.round_fields(opener, names),
    })
    return replace(state, players=players, crowd=report.crowd, fields=fields, round=state.round + 1,
                   turn=state.turn + 1, active=names.index(opener), winner=report.winner)
