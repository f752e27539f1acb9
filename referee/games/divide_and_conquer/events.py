"""Events, from the fields their one effect gives the card (effects.py:
scope, action, zone, wing, count). `wing`, when set, narrows the groups an
event can take to that wing.

Options a player names at the table:
    groups: group refs (one target; or, for an event on everyone, the group
            each affected player gives up: one per player; an affected
            player left out picks their own when asked: `Work.asks`, which
            actions.py turns into prompts);
    attachment: an asset or deficit (card id) on groups[0];
    player: the player a one-player event picks.
Groups under an event-immune asset (and everything on them) are out of
reach; a player with nothing an event can touch ignores it. An event with
nothing at all to hit is still played: it does nothing and is discarded
(`play` says so in the Work's notes). An event that takes from a hand
("pick another player") cannot pick the player who plays it.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from referee.errors import RuleViolation
from referee.games.divide_and_conquer import zones
from referee.games.divide_and_conquer.work import Work


def _immune(group: Mapping[str, Any]) -> bool:
    return zones.has(group, "event-immune")


# one-player events that take from a hand pick another player (the cards say so)
OTHER_PLAYER_ACTIONS = ("steal-hand-card", "discard-hand")


def picks_another(card: Mapping[str, Any]) -> bool:
    return card.get("scope") == "one-player" and card.get("action") in OTHER_PLAYER_ACTIONS


def _of_wing(card: Mapping[str, Any], group: Mapping[str, Any]) -> bool:
    return not card.get("wing") or group["wing"] == card["wing"]


def _wing_words(card: Mapping[str, Any]) -> str:
    return f"{card['wing']}-wing " if card.get("wing") else ""


def _candidates(w: Work, card: Mapping[str, Any]) -> list[str]:
    """Refs of the groups a one-target event could pick now."""
    zone, action = card.get("zone"), card.get("action")
    out = []
    for owner, groups in zones.places(w.fields):
        if (zone == "base" and owner is None) or (zone == "unaffiliated" and owner is not None):
            continue
        for g in groups:
            if _immune(g) or not _of_wing(card, g) or (action == "discard-attachment" and not g["attached"]):
                continue
            out.append(g["ref"])
    return out


def _one_group(w: Work, card: Mapping[str, Any], refs: Sequence[str], zone: str | None) -> tuple[str | None, dict]:
    if len(refs) != 1:
        can = ", ".join(_candidates(w, card))
        raise RuleViolation("event target", f"{card['name']} picks one group: give --group REF (it can pick {can})")
    owner, group = zones.find(w.fields, refs[0])
    if zone == "base" and owner is None:
        raise RuleViolation("event target", f"{card['name']} picks a group in a base; {group['name']} "
                            f"({group['ref']}) is unaffiliated")
    if zone == "unaffiliated" and owner is not None:
        raise RuleViolation("event target", f"{card['name']} picks an unaffiliated group; {group['name']} "
                            f"({group['ref']}) is in {owner}'s base")
    if not _of_wing(card, group):
        raise RuleViolation("event target", f"{card['name']} picks a {_wing_words(card)}group; {group['name']} "
                            f"({group['ref']}) is {group['wing']}-wing")
    if _immune(group):
        nothing = "" if _candidates(w, card) else (f"; {card['name']} has nothing it can hit, so play it "
                                                   "without --group and it does nothing")
        raise RuleViolation("event-immune", f"{group['name']} ({group['ref']}) cannot be touched by events{nothing}")
    return owner, group


def _dispose(w: Work, ref: str, action: str, actor: str) -> None:
    _, group = zones.take(w.fields, ref)
    if action == "destroy-group":
        zones.discard_group(w.fields, group)
    elif action == "unaffiliate-group":
        w.fields["unaffiliated"].append(group)
    else:  # claim-group
        w.fields["bases"][actor].append(group)


def _nothing(w: Work, card: Mapping[str, Any], why: str) -> None:
    w.notes.append(f"{card['name']} has nothing to hit ({why}): it does nothing and goes to the discard pile")


def play(w: Work, actor: str, card: Mapping[str, Any], opts: Mapping[str, Any]) -> None:
    scope, action = card.get("scope"), card.get("action")
    count = int(card.get("count") or 1)
    refs = list(opts.get("groups") or ())
    if scope == "one-target":
        if not refs and not _candidates(w, card):
            kind = f"{_wing_words(card)}group"
            where = {"base": f"no {kind} in any base", "unaffiliated": f"no unaffiliated {kind}"}.get(
                str(card.get("zone")), f"no {kind}")
            what = "with an asset or deficit on it " if action == "discard-attachment" else ""
            _nothing(w, card, f"{where} {what}that events can touch")
            return
        owner, group = _one_group(w, card, refs, card.get("zone"))
        if action == "discard-attachment":
            wanted = str(opts.get("attachment") or "").strip().lower()
            hits = [i for i, a in enumerate(group["attached"]) if a["id"] == wanted]
            if not hits:
                on = ", ".join(a["id"] for a in group["attached"]) or "nothing"
                raise RuleViolation("event target", f"{card['name']} discards an asset or deficit on "
                                    f"{group['name']} ({group['ref']}): give --attachment CARD (on it: {on})")
            w.fields["discard"].append(group["attached"].pop(hits[-1])["id"])
        else:
            _dispose(w, group["ref"], action, actor)
        return
    if scope == "one-player":
        name = opts.get("player")
        if not name:
            raise RuleViolation("event target", f"{card['name']} picks a player: give --player NAME")
        if w.strict and name == actor and picks_another(card):
            raise RuleViolation("pick another player", f"{card['name']} picks another player, so {actor}, "
                                "who plays it, cannot pick themself")
        if action == "draw-cards":
            if not w.draw(name, count, by_event=True):
                _nothing(w, card, "the deck is empty")
        elif action == "discard-hand":
            if not w.discard_from_hand(name, count):
                _nothing(w, card, f"{name} has no cards in hand")
        elif action == "steal-hand-card":
            moved = min(count, w.hands[name])
            w.hands[name] -= moved
            w.hands[actor] += moved
            if not moved:
                _nothing(w, card, f"{name} has no cards in hand")
        return
    # everyone at the table
    order = w.names[w.names.index(actor):] + w.names[:w.names.index(actor)]
    if action == "draw-cards":
        if not sum(w.draw(name, count, by_event=True) for name in order):
            _nothing(w, card, "the deck is empty")
    elif action == "discard-hand":
        if not sum(w.discard_from_hand(name, count) for name in order):
            _nothing(w, card, "every hand is empty")
    elif action == "pass-hand-left":
        gives = {n: min(count, w.hands[n]) for n in w.names}
        for i, name in enumerate(w.names):
            w.hands[name] += gives[w.names[i - 1]] - gives[name]
        if not any(gives.values()):
            _nothing(w, card, "every hand is empty")
    elif action == "destroy-group":
        wing = _wing_words(card)
        hit = [n for n in order if any(_of_wing(card, g) and not _immune(g) for g in w.fields["bases"][n])]
        chosen: dict[str, str] = {}
        for ref in refs:
            owner, group = zones.find(w.fields, ref)
            if owner not in hit or not _of_wing(card, group) or _immune(group):
                raise RuleViolation("event target", f"{card['name']} takes one {wing}group from each base; "
                                    f"{group['name']} ({ref}) is not one it can take")
            if owner in chosen:
                raise RuleViolation("event target", f"{card['name']} takes one group from {owner}, not two")
            chosen[owner] = ref
        if not hit:
            _nothing(w, card, f"no base holds a {wing}group that events can touch")
        for ref in chosen.values():
            _dispose(w, ref, action, actor)
        for name in (n for n in hit if n not in chosen):  # the owner picks: a prompt (rules.py asks it)
            choices = [g for g in w.fields["bases"][name] if _of_wing(card, g) and not _immune(g)]
            if len(choices) == 1:  # a forced choice is no choice: it is not asked
                w.notes.append(f"{choices[0]['name']} ({choices[0]['ref']}) is {name}'s only {wing}group "
                               f"{card['name']} can take: it goes, with nothing to pick")
                _dispose(w, choices[0]["ref"], action, actor)
                continue
            w.asks.append({"player": name, "choices": [g["ref"] for g in choices], "action": action,
                           "what": f"{wing}group", "groups": ", ".join(
                               f"{g['ref']} {g['name']}" for g in choices)})


def dispose(w: Work, ref: str, action: str, actor: str) -> None:
    """An owner's pick, given when a prompt asked for it: the group goes as the event says."""
    _dispose(w, ref, action, actor)
