"""Attacks: a Military attack from the hand, a Special, and how any attack
(also a redeployed one or a Fallen Leader's flip) is resolved against the
defender's answers (block, redirect). With the answer window (window.py)
an action aimed at a player that could answer stops at `wait`, and
`answer.py` lands it with the target's answer; on an older table the
answers are options of the mover's own command."""
from __future__ import annotations

from typing import Any

from referee.errors import RefereeError, RuleViolation
from referee.games.cold_war import desk as D
from referee.games.cold_war import effects as E
from referee.games.cold_war import rounds
from referee.games.cold_war import window as W
from referee.games.cold_war.cards import TYPE_WORDS
from referee.games.cold_war.play import Play


def act_attack(p: Play) -> None:
    mover = p.standing_mover("attack")
    ids = p.cards_arg("cards")
    if not 1 <= len(ids) <= 2:
        raise RuleViolation("one or two Military cards", f"{mover} attacks with {len(ids)} cards; an attack uses "
                                                         "1 Military Power card or 2 combined")
    p.distinct(mover, ids)
    p.use_play(mover, len(ids), "combined attack" if len(ids) == 2 else "attack")
    value = 0
    for cid in ids:
        card = p.own_card(mover, cid)
        if card["type"] != "military":
            raise RuleViolation("attacks use Military Power", f"{card['name']} is {TYPE_WORDS[card['type']]}, "
                                                              f"so {mover} cannot attack with it")
        p.from_hand(mover, cid)
        value += int(card["attack"])
    target = p.opponent(mover, p.args.get("target"), "attack")
    verb = "combined attack" if len(ids) == 2 else "attack"
    resolve(p, mover, value, ids, target, p.args.get("at"), verb)


def act_special(p: Play) -> None:
    """A Special played on its owner's turn: its action effect (remove or
    redeploy, effects.py) is applied; any effect the referee cannot apply is
    put to the table as a prompt."""
    mover = p.standing_mover("play a Special")
    p.use_play(mover, 1, "Special")
    cid = str(p.args.get("card"))
    card = p.own_card(mover, cid)
    if card["type"] != "special":
        raise RuleViolation("Special cards", f"{card['name']} is {TYPE_WORDS[card['type']]}, not a Special")
    act = E.action(card)
    if act is not None and act["kind"] in E.ANSWERS:
        raise RuleViolation("Special timing", f"{card['name']} answers an attack aimed at its owner; {mover} "
                                              f"plays it as --{act['kind']} when attacked")
    p.from_hand(mover, cid)
    D.to_discard(p.f, cid)
    if act is None:  # nothing the referee applies: the card's text is put to the table
        p.say(f"{mover} plays {card['name']}")
        E.ask(p, mover, cid, card, ("your-turn", "while-in-play"))
        return
    target = p.opponent(mover, p.args.get("target"), "Special cards")
    if SPECIAL_ACTIONS[act["kind"]](p, mover, card, target, act):
        E.ask(p, mover, cid, card, "your-turn")


def remove(p: Play, mover: str, card: dict[str, Any], target: str, effect: dict[str, Any]) -> bool:
    """Effect `remove`: one card of the kind `what` leaves `target`'s table,
    unless `target` blocks. True if it took effect."""
    if W.on(p.f):
        W.no_inline(p.args, target)
    elif p.args.get("redirect") is not None:
        raise RuleViolation("redirect", "a redirect answers an attack, not a Special that removes a card")
    zone = E.REMOVE_ZONES[effect["what"]]
    at = p.args.get("at")
    if not isinstance(at, str) or not at:
        example = {"science": "S1 or S1.2", "military": "M1 or M1.2", "assistants": "A1"}[zone]
        raise RefereeError(f"say which card {card['name']} removes from {target}'s table: --at {example}")
    if not D.zone_cards(p.desk(target), zone):
        what = D.ZONE_WORDS[zone] if zone != "assistants" else "Assistant Leader"
        raise RuleViolation(card["name"], f"{target} has no {what} card on the table to remove")
    _, victim = p.own_table_card(target, at, (zone,))
    if W.on(p.f):
        if W.could_answer(p.f, target, "remove"):
            spot = _spot_word(p, target, zone, victim)
            wait(p, {"kind": "remove", "by": mover, "target": target, "card": card["id"], "zone": zone,
                     "victim": victim, "what": f"{mover}'s {card['name']} (removing a card at {spot})",
                     "then": {"ask": card["id"]}})
            return False
    return remove_lands(p, mover, card, target, zone, victim)


def remove_lands(p: Play, mover: str, card: dict[str, Any], target: str, zone: str, victim: str) -> bool:
    """A remove lands with the target's answer (a block, or none). True if it took effect."""
    if p.args.get("redirect") is not None:
        raise RuleViolation("redirect", "a redirect answers an attack, not a Special that removes a card")
    if p.args.get("block") is not None:
        block(p, target, mover, f"{mover}'s {card['name']}", [])
        return False
    spot = _spot_word(p, target, zone, victim)
    broke = D.take(p.f, target, zone, victim, mover)
    D.to_discard(p.f, victim)
    p.say(f"{mover} plays {card['name']}: {target} discards {p.label(victim)} from {spot}"
          + (f"; the rest of the stack stays weakened (single cards) until {target}'s turn" if broke else ""))
    return True


def _spot_word(p: Play, target: str, zone: str, cid: str) -> str:
    if zone == "assistants":
        return "the Leader stack"
    return D.label(zone, D.group_of(p.desk(target), zone, cid))


def redeploy(p: Play, mover: str, card: dict[str, Any], target: str, effect: dict[str, Any]) -> bool:
    """Effect `redeploy`: 1 to `most` of the mover's own face-down Military
    Power cards leave the table and attack as one."""
    most = int(effect.get("most", 2))
    used = p.cards_arg("with")
    if not 1 <= len(used) <= most:
        how_many = {1: "1", 2: "1 or 2"}.get(most, f"1 to {most}")
        raise RuleViolation("redeploy", f"{card['name']} sends {how_many} of {mover}'s own face-down Military "
                                        f"Power cards into attack, not {len(used)}")
    ids: list[str] = []
    for token in used:
        _, own = p.own_table_card(mover, token, ("military",))
        if own in ids:
            raise RuleViolation("each card once", f"{mover} names {p.label(own)} twice")
        ids.append(own)
    # A face-down card sent to attack is turned over; one that proves to be Propaganda adds nothing and is
    # discarded with the rest. Refusing it instead would tell anyone at the table which face-down card is
    # Propaganda (its twin table, where that spot holds a Military card, accepts the same line).
    duds = [c for c in ids if c in p.desk(mover)["propaganda"] or p.card(c)["type"] != "military"]
    value = 0
    for own in ids:
        D.take(p.f, mover, "military", own, mover)
        value += 0 if own in duds else int(p.card(own)["attack"])
    p.say(f"{mover} plays {card['name']}: " + ", ".join(p.label(c) for c in ids) + " leave the table to attack"
          + "".join(f"; {p.label(c)} is turned over: Propaganda, it adds nothing" for c in duds))
    return resolve(p, mover, value, ids, target, p.args.get("at"), "redeployed attack", {"ask": card["id"]})


def _answer(p: Play, target: str, key: str, kind: str, what: str) -> tuple[str, dict[str, Any]]:
    """The Special `target` answers with (from --block / --redirect), checked to carry effect `kind`."""
    cid = str(p.args.get(key))
    card = p.own_card(target, cid)
    if card["type"] != "special" or not E.has(card, kind):
        raise RuleViolation(kind, f"{card['name']} is not a Special that {what}")
    p.from_hand(target, cid)
    D.to_discard(p.f, cid)
    return cid, card


def block(p: Play, target: str, attacker: str, what: str, used: list[str], combined: bool = False) -> None:
    """Effect `block`: the attack or Special aimed at `target` fails; the
    block (and the attack's cards) are discarded and `target` draws one."""
    cid, card = _answer(p, target, "block", "block", "blocks")
    for used_id in used:
        D.to_discard(p.f, used_id)
    how = " (a combined attack counts as a single card)" if combined else ""
    p.say(f"{target} blocks {what} with {card['name']}{how}: it fails")
    p.draw_back(target, 1, "the block")
    E.ask(p, target, cid, card, "when-targeted")


def redirect(p: Play, target: str, attacker: str, value: int) -> tuple[str, str]:
    """Effect `redirect`: the attack aimed at `target` lands on another
    player's spot (--onto PLAYER --onto-at SPOT); the new target and spot."""
    onto = p.args.get("onto")
    cid = str(p.args.get("redirect"))
    card = p.own_card(target, cid)
    if card["type"] != "special" or not E.has(card, "redirect"):
        raise RuleViolation("redirect", f"{card['name']} is not a Special that redirects an attack")
    p.from_hand(target, cid)
    if onto is None:
        raise RefereeError(f"say whom {target}'s redirect sends the attack to: --onto PLAYER:SPOT")
    new = p.player(onto)
    if new == target:
        raise RuleViolation("redirect", f"{target} must send the attack to another player")
    if p.desk(new)["fallen"]:
        raise RuleViolation("redirect", f"{new}'s Leader has fallen, so {target} cannot redirect "
                                        "the attack there")
    D.to_discard(p.f, cid)
    p.say(f"{target} plays {card['name']}: the attack goes to {new}")
    p.draw_back(target, 1, "the redirect")
    E.ask(p, target, cid, card, "when-attacked")
    return new, p.attack_spot(new, p.args.get("onto_at"))


def wait(p: Play, pending: dict[str, Any]) -> None:
    """Open the answer window: the action waits for its target's `answer`."""
    p.f["pending"] = pending
    ways = ", ".join(W.KINDS[pending["kind"]])
    p.say(f"{pending['target']} may answer {pending['what']} ({ways} or none): "
          f"it resolves once {pending['target']} has answered")


def resolve(p: Play, attacker: str, value: int, used: list[str], target: str, at: Any, verb: str,
            then: dict[str, Any] | None = None) -> bool:
    """Resolve an attack of `value` made with the cards `used` (already off
    the hand or table) on `target` at spot `at`. With the answer window, an
    attack the target could answer waits for it (False: `then` is what the
    mover's action still does once it lands); else it lands now (True)."""
    label = p.attack_spot(target, at)
    if W.on(p.f):
        W.no_inline(p.args, target)
        if W.could_answer(p.f, target, "attack"):
            wait(p, {"kind": "attack", "by": attacker, "target": target, "value": value, "used": list(used),
                     "at": label, "verb": verb, "what": f"{attacker}'s {verb} of {value} on {label}",
                     "then": dict(then or {})})
            return False
    land(p, attacker, value, used, target, label, verb)
    return True


def land(p: Play, attacker: str, value: int, used: list[str], target: str, label: str, verb: str) -> None:
    """The attack lands on `target`'s spot `label`, with the defender's
    answers from the action's block / redirect / onto / onto_at."""
    combined = len(used) == 2
    if p.args.get("redirect") is not None:
        target, label = redirect(p, target, attacker, value)
    elif p.args.get("onto") is not None:
        raise RefereeError("--onto goes with --redirect CARD")
    if p.args.get("block") is not None:
        block(p, target, attacker, f"{attacker}'s {verb}", used, combined)
        return
    hit, defence, everything = p.spot_cards(target, label)
    for cid in used:
        D.to_discard(p.f, cid)
    if value < defence:
        # The Leader stack falls last: L is open once nothing else stands, or to one attack that beats
        # everything on the table at once. One that does not is made and fails like any other (never
        # refused: a refusal would tell the face-down total for free, one value at a time).
        whole = f"{target}'s whole table at once" if everything else f"{target}'s {label}"
        p.say(f"{attacker}'s {verb} of {value} on {whole} fails; the defence stands")
        return
    beaten: list[str] = []
    for zone, number in hit:
        for cid in D.take_group(p.f, target, zone, number):
            D.to_discard(p.f, cid)
            beaten.append(cid)
    names = ", ".join(p.label(c) for c in beaten)
    if label == "L":
        for cid in list(p.desk(target)["assistants"]):
            D.take(p.f, target, "assistants", cid, None)
            D.to_discard(p.f, cid)
            beaten.append(cid)
        names = ", ".join(p.label(c) for c in beaten)
        scope = "whole table at once" if everything else "Leader stack"
        p.say(f"{attacker}'s {verb} of {value} takes {target}'s {scope} (defence {defence})"
              + (f"; discarded: {names}" if names else ""))
        rounds.fall(p, target, attacker)
    else:
        what = f"whole stack {label}" if len(beaten) == D.STACK else label
        p.say(f"{attacker}'s {verb} of {value} beats {target}'s {what} (defence {defence}); discarded: {names}")


# A Special's action effect (effects.ACTIONS) -> what applies it. Shields and the
# Triad are applied by moves.py; actions.EFFECT_HANDLERS lists every kind.
SPECIAL_ACTIONS = {"remove": remove, "redeploy": redeploy, "block": block, "redirect": redirect}
