"""Where Divide & Conquer cards lie, and what groups are worth (pure).

`fields` of the table's State (all plain JSON):
- bases: player name -> groups, in the order they arrived;
- unaffiliated: groups in the centre of the table;
- discard: card ids, oldest first; hidden_discards: unseen cards discarded
  from hands (events, and every hand at the end);
- deck: cards left to draw; deck_size; last_drawer: who drew the last card;
- next_ref: the number the next group on the table is called by (g1, g2 ...);
- attack: the attack under way, or null (see battle.py);
- last_attack: how the last attack came out; over / result: the end;
- set_aside: printed cards left out of a cut deck (unseen); drawn per player;
- last_card_by_event: whether an event drew the last card;
- last_event: the last event played and what it did (notes);
- groups: a summary by ref, rebuilt after every action (work.where);
- phase: the attack sequence's phase (battle.Phase), rebuilt likewise.
A group is {"ref", "id", "name", "wing", "influence", "attached": [card ...]}
where each attached asset or deficit is {"id", "name", "type", "modifier",
"ability"}, oldest first (the newest sits on top).
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence

from referee.errors import RuleViolation

HAND_SIZE = 6  # cards dealt to each player


def new_group(fields: dict[str, Any], card: Mapping[str, Any]) -> dict[str, Any]:
    ref = f"g{fields['next_ref']}"
    fields["next_ref"] += 1
    return {"ref": ref, "id": card["id"], "name": card["name"], "wing": card["wing"],
            "influence": int(card["influence"]), "attached": []}


def attachment(card: Mapping[str, Any]) -> dict[str, Any]:
    return {"id": card["id"], "name": card["name"], "type": card["type"], "modifier": int(card.get("modifier") or 0),
            "ability": card.get("ability") or "plain"}


def places(fields: Mapping[str, Any]) -> Iterator[tuple[str | None, list[dict[str, Any]]]]:
    """(owner, list) for every base, then (None, the unaffiliated area)."""
    for name, groups in fields["bases"].items():
        yield name, groups
    yield None, fields["unaffiliated"]


def find(fields: Mapping[str, Any], ref: str) -> tuple[str | None, dict[str, Any]]:
    """The owner (None: unaffiliated) and the group called `ref`."""
    for owner, groups in places(fields):
        for group in groups:
            if group["ref"] == ref:
                return owner, group
    raise RuleViolation("groups on the table", f"there is no group {ref} on the table")


def take(fields: dict[str, Any], ref: str) -> tuple[str | None, dict[str, Any]]:
    """Remove a group (with everything on it) from where it lies."""
    for owner, groups in places(fields):
        for i, group in enumerate(groups):
            if group["ref"] == ref:
                return owner, groups.pop(i)
    raise RuleViolation("groups on the table", f"there is no group {ref} on the table")


def discard_group(fields: dict[str, Any], group: Mapping[str, Any]) -> None:
    fields["discard"].extend([group["id"], *(a["id"] for a in group["attached"])])


def cancelled(group: Mapping[str, Any]) -> bool:
    """A cancels-assets deficit voids every asset on the group."""
    return any(a["type"] == "deficit" and a["ability"] == "cancels-assets" for a in group["attached"])


def live(group: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The attachments that count: all of them, less assets under a cancel."""
    off = cancelled(group)
    return [a for a in group["attached"] if not (off and a["type"] == "asset")]


def has(group: Mapping[str, Any], ability: str) -> bool:
    return any(a["ability"] == ability for a in live(group))


def value(group: Mapping[str, Any], role: str | None = None) -> int:
    """Influence plus assets minus deficits. `role` "attack" or "defence"
    adds the cards that only count there; None is the final count."""
    total = int(group["influence"])
    for a in live(group):
        ability = a["ability"]
        if ability == "plain" or (role == "attack" and ability == "attack-only") or (
                role == "defence" and ability == "defence-only"):
            total += int(a["modifier"])
    return total


def sources(group: Mapping[str, Any], role: str | None = None) -> str:
    """Where value(group, role) comes from: "4 printed, +3 Circled Wagons",
    with the cards that count nothing here left out."""
    parts = [f"{group['influence']} printed"]
    for a in live(group):
        ability = a["ability"]
        if a["modifier"] and (ability == "plain" or (role == "attack" and ability == "attack-only") or (
                role == "defence" and ability == "defence-only")):
            n = int(a["modifier"])
            parts.append(f"{'+' if n > 0 else '-'}{abs(n)} {a['name']}")
    return ", ".join(parts)


def scoring_wing(group: Mapping[str, Any]) -> str:
    if any(a["ability"] == "flips-wing" for a in live(group)):
        return "right" if group["wing"] == "left" else "left"
    return group["wing"]


def score(groups: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """A base's left and right totals, its net (the absolute difference) and
    its card count (groups and everything on them)."""
    totals = {"left": 0, "right": 0}
    for group in groups:
        totals[scoring_wing(group)] += value(group)
    return {**totals, "net": abs(totals["right"] - totals["left"]),
            "cards": sum(1 + len(g["attached"]) for g in groups)}


def standings(fields: Mapping[str, Any], names: Sequence[str]) -> tuple[list[str], str]:
    """The winner(s) by net, then by cards in base; one name, or a draw."""
    scores = {n: score(fields["bases"][n]) for n in names}
    best = max(s["net"] for s in scores.values())
    top = [n for n in names if scores[n]["net"] == best]
    if len(top) == 1:
        return top, f"{top[0]} wins with a net influence of {best}"
    most = max(scores[n]["cards"] for n in top)
    by_cards = [n for n in top if scores[n]["cards"] == most]
    if len(by_cards) == 1:
        return by_cards, (f"{', '.join(top)} tie on a net influence of {best}; {by_cards[0]} wins with "
                          f"more cards in their base ({most})")
    return by_cards, (f"{', '.join(by_cards)} tie on a net influence of {best} and on {most} cards in base: "
                      "a draw (play again)")
