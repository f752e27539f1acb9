"""Events, from the fields on the card (scope, action, zone, wing, count).

Options a player names at the table:
    groups: group refs (one target; or, for an event on everyone, the group
            each affected player gives up: one per player);
    attachment: an asset or deficit (card id) on groups[0];
    player: the player a one-player event picks.
Groups under an event-immune asset (and everything on them) are out of
reach; a player with nothing an event can touch ignores it.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from referee.errors import RuleViolation
from referee.games.divide_and_conquer import zones
from referee.games.divide_and_conquer.work import Work


def _immune(group: Mapping[str, Any]) -> bool:
    return zones.has(group, "event-immune")


def _one_group(w: Work, card: Mapping[str, Any], refs: Sequence[str], zone: str | None) -> tuple[str | None, dict]:
    if len(refs) != 1:
        raise RuleViolation("event target", f"{card['name']} picks one group: give --group REF")
    owner, group = zones.find(w.fields, refs[0])
    if zone == "base" and owner is None:
        raise RuleViolation("event target", f"{card['name']} picks a group in a base; {group['name']} "
                            f"({group['ref']}) is unaffiliated")
    if zone == "unaffiliated" and owner is not None:
        raise RuleViolation("event target", f"{card['name']} picks an unaffiliated group; {group['name']} "
                            f"({group['ref']}) is in {owner}'s base")
    if _immune(group):
        raise RuleViolation("event-immune", f"{group['name']} ({group['ref']}) cannot be touched by events")
    return owner, group


def _dispose(w: Work, ref: str, action: str, actor: str) -> None:
    _, group = zones.take(w.fields, ref)
    if action == "destroy-group":
        zones.discard_group(w.fields, group)
    elif action == "unaffiliate-group":
        w.fields["unaffiliated"].append(group)
    else:  # claim-group
        w.fields["bases"][actor].append(group)


def play(w: Work, actor: str, card: Mapping[str, Any], opts: Mapping[str, Any]) -> None:
    scope, action = card.get("scope"), card.get("action")
    count = int(card.get("count") or 1)
    refs = list(opts.get("groups") or ())
    if scope == "one-target":
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
        if action == "draw-cards":
            w.draw(name, count)
        elif action == "discard-hand":
            w.discard_from_hand(name, count)
        elif action == "steal-hand-card":
            moved = min(count, w.hands[name])
            w.hands[name] -= moved
            w.hands[actor] += moved
        return
    # everyone at the table
    order = w.names[w.names.index(actor):] + w.names[:w.names.index(actor)]
    if action == "draw-cards":
        for name in order:
            w.draw(name, count)
    elif action == "discard-hand":
        for name in order:
            w.discard_from_hand(name, count)
    elif action == "pass-hand-left":
        gives = {n: min(count, w.hands[n]) for n in w.names}
        for i, name in enumerate(w.names):
            w.hands[name] += gives[w.names[i - 1]] - gives[name]
    elif action == "destroy-group":
        wing = card.get("wing")
        hit = [n for n in order if any(g["wing"] == wing and not _immune(g) for g in w.fields["bases"][n])]
        chosen: dict[str, str] = {}
        for ref in refs:
            owner, group = zones.find(w.fields, ref)
            if owner not in hit or group["wing"] != wing or _immune(group):
                raise RuleViolation("event target", f"{card['name']} takes one {wing}-wing group from each base; "
                                    f"{group['name']} ({ref}) is not one it can take")
            if owner in chosen:
                raise RuleViolation("event target", f"{card['name']} takes one group from {owner}, not two")
            chosen[owner] = ref
        missing = [n for n in hit if n not in chosen]
        if missing:
            raise RuleViolation("event target", f"{card['name']}: {', '.join(missing)} must each give up one "
                                f"{wing}-wing group: add --group REF for each")
        for ref in chosen.values():
            _dispose(w, ref, action, actor)
