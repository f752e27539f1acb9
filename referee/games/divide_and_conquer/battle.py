"""The attack sequence, one step per command (pure functions on a Work).

`fields["attack"]`, while an attack is under way:
    {"attacker", "target" (a group ref), "intent": "take-over" | "destroy",
     "kind": "player" | "unaffiliated" | "own", "defender" (or null),
     "stage": "team" | "defence" | "counter" | "roll",
     "team": [groups laid from the attacker's hand],
     "joined": [refs of the attacker's base groups that join],
     "defence": [groups laid from the defender's hand]}
Steps: declare (attack) -> the attacker's team (team) -> for a player's
group only, the defender calls or raises once (call / raise) -> after a
raise the attacker may add once more (team) -> both roll (fight).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping, Sequence

from referee.errors import RuleViolation
from referee.games.divide_and_conquer import zones
from referee.games.divide_and_conquer.work import Work

INTENTS = ("take-over", "destroy")


def declare(w: Work, attacker: str, target: str, intent: str) -> None:
    if intent not in INTENTS:
        raise RuleViolation("declare the intent", f"{attacker} must declare take-over or destroy, not {intent!r}")
    owner, group = zones.find(w.fields, target)
    if owner is None:
        kind, defender = "unaffiliated", None
    elif owner == attacker:
        kind, defender = "own", None
        if intent != "destroy":
            raise RuleViolation("attacking your own group", f"{attacker} can only attack their own "
                                f"{group['name']} ({target}) to destroy it")
    else:
        kind, defender = "player", owner
    w.fields["attack"] = {"attacker": attacker, "target": target, "intent": intent, "kind": kind,
                          "defender": defender, "stage": "team", "team": [], "joined": [], "defence": []}


def _in_fight(attack: Mapping[str, Any], ref: str, side: str) -> bool:
    own = [g["ref"] for g in attack["team"]] + list(attack["joined"])
    other = [g["ref"] for g in attack["defence"]]
    allowed = [attack["target"], *own] + (other if side == "defender" else [])
    return ref in allowed


def _group_in_fight(w: Work, ref: str) -> dict[str, Any]:
    attack = w.fields["attack"]
    for group in [*attack["team"], *attack["defence"]]:
        if group["ref"] == ref:
            return group
    return zones.find(w.fields, ref)[1]


def lay(w: Work, player: str, groups: Sequence[Mapping[str, Any]], joined: Sequence[str],
        attaches: Sequence[Mapping[str, Any]]) -> None:
    """The attacker's team (stage team or counter) or the defender's raise
    (stage defence): groups from the hand, base groups that may join, and
    assets or deficits put on cards in the fight."""
    attack = w.fields["attack"]
    side = "defender" if attack["stage"] == "defence" else "attacker"
    for card in [*groups, *(a["card"] for a in attaches)]:
        if card.get("type") == "event":
            raise RuleViolation("no events in a fight", f"{player} cannot use the event {card['name']} in an attack "
                                "or a defence")
    for card in groups:
        if card.get("type") != "group":
            raise RuleViolation("teams are groups", f"{player} laid {card['name']}, which is no group: put assets "
                                "and deficits on a card in the fight with --attach CARD=GROUP")
    for card in (a["card"] for a in attaches):
        if card.get("type") not in ("asset", "deficit"):
            raise RuleViolation("assets and deficits go on groups", f"{player} can only attach assets and deficits, and {card['name']} is neither")
    if joined and side == "defender":
        raise RuleViolation("base groups stay home", f"{player} defends with groups from the hand; base groups "
                            "defend only through cards like the Lawyers")
    for ref in joined:
        owner, group = zones.find(w.fields, ref)
        if owner != player or ref == attack["target"]:
            raise RuleViolation("base groups stay home", f"{ref} is not a group in {player}'s base that can join")
        if not zones.has(group, "base-joins-attacks"):
            raise RuleViolation("base groups stay home", f"{player}'s {group['name']} ({ref}) is in their base and "
                                "has no asset that lets it join attacks")
        if ref in attack["joined"]:
            raise RuleViolation("base groups stay home", f"{group['name']} ({ref}) has already joined this attack")
    w.spend(player, len(groups) + len(attaches), "this play")
    laid = [zones.new_group(w.fields, card) for card in groups]
    (attack["defence"] if side == "defender" else attack["team"]).extend(laid)
    attack["joined"].extend(joined)
    for item in attaches:
        onto = str(item["onto"])
        if onto.startswith("new:"):
            index = int(onto[4:])
            if not 0 <= index < len(laid):
                raise RuleViolation("the fight", f"{player} put {item['card']['name']} on a group not laid here")
            group = laid[index]
        else:
            if not _in_fight(attack, onto, side):
                raise RuleViolation("only cards in the fight", f"during the attack {player} may put "
                                    f"{item['card']['name']} only on "
                                    + ("the target or the attack team" if side == "attacker" else
                                       "the target, the defence or the attack team") + f", not on {onto}")
            group = _group_in_fight(w, onto)
        group["attached"].append(zones.attachment(item["card"]))


def team(w: Work, player: str, groups, joined, attaches) -> None:
    attack = w.fields["attack"]
    if player != attack["attacker"]:
        raise RuleViolation("attack order", f"{player} is not the attacker; {attack['attacker']} lays the attack team")
    stage = attack["stage"]
    if stage == "defence":
        raise RuleViolation("attack order", f"{attack['defender']} calls or raises now, before {player} adds more")
    if stage == "roll":
        raise RuleViolation("attacker adds once more", f"{player} has laid the team"
                            + (" and added once more after the raise" if attack.get("countered") else "")
                            + "; roll with `fight`")
    lay(w, player, groups, joined, attaches)
    if stage == "team":
        attack["stage"] = "defence" if attack["kind"] == "player" else "roll"
    else:
        attack["stage"], attack["countered"] = "roll", True


def respond(w: Work, player: str, raise_: bool, groups=(), attaches=()) -> None:
    attack = w.fields["attack"]
    if attack["kind"] != "player":
        where = "unaffiliated" if attack["kind"] == "unaffiliated" else f"{attack['attacker']}'s own"
        raise RuleViolation("a roll and nothing else", f"the target is an {where} group: it defends with a roll "
                            "only, so nobody calls or raises")
    if player != attack["defender"]:
        raise RuleViolation("attack order", f"{player} is not the defender; {attack['defender']} calls or raises")
    if attack["stage"] == "team":
        raise RuleViolation("attack order", f"{attack['attacker']} lays the attack team first")
    if attack["stage"] != "defence":
        raise RuleViolation("the defender raises once", f"{player} has already "
                            + ("raised" if attack.get("raised") else "called") + " in this attack")
    if raise_:
        lay(w, player, groups, (), attaches)
        attack["stage"], attack["raised"] = "counter", True
    else:
        attack["stage"], attack["raised"] = "roll", False


def totals(fields: Mapping[str, Any]) -> tuple[int, list[tuple[str, int]], int, list[tuple[str, int]]]:
    """The attack's and the defence's influence (before the dice), with their parts."""
    attack = fields["attack"]
    a_parts = [(f"{g['name']} ({g['ref']})", zones.value(g, "attack")) for g in attack["team"]]
    for ref in attack["joined"]:
        group = zones.find(fields, ref)[1]
        a_parts.append((f"{group['name']} ({ref}, from the base)", zones.value(group, "attack")))
    _, target = zones.find(fields, attack["target"])
    d_parts = [(f"{target['name']} ({target['ref']}, the target)", zones.value(target, "defence"))]
    if attack["kind"] == "player":
        d_parts += [(f"{g['name']} ({g['ref']})", zones.value(g, "defence")) for g in attack["defence"]]
        for group in fields["bases"][attack["defender"]]:
            if group["ref"] != target["ref"] and zones.has(group, "defends-all"):
                d_parts.append((f"{group['name']} ({group['ref']}, defends the base)", zones.value(group, "defence")))
    return sum(v for _, v in a_parts), a_parts, sum(v for _, v in d_parts), d_parts


def odds(attack: int, defence: int) -> Fraction:
    """The chance that d6 + attack is strictly higher than d6 + defence."""
    wins = sum(1 for a in range(1, 7) for d in range(1, 7) if a + attack > d + defence)
    return Fraction(wins, 36)


def fight(w: Work, dice: Sequence[int]) -> None:
    """Both sides roll; the attacker must be strictly higher. The team cards
    go to their players' bases; a win moves the target (with everything on
    it) to the attacker's base or to the discard pile."""
    fields = w.fields
    attack = fields["attack"]
    a_roll, d_roll = dice
    a_inf, a_parts, d_inf, d_parts = totals(fields)
    a_total, d_total = a_roll + a_inf, d_roll + d_inf
    won = a_total > d_total
    attacker = attack["attacker"]
    _, target = zones.find(fields, attack["target"])
    fields["bases"][attacker].extend(attack["team"])
    if attack["defender"]:
        fields["bases"][attack["defender"]].extend(attack["defence"])
    if won:
        _, group = zones.take(fields, attack["target"])
        if attack["intent"] == "take-over":
            fields["bases"][attacker].append(group)
        else:
            zones.discard_group(fields, group)
    fields["last_attack"] = {
        "attacker": attacker, "defender": attack["defender"], "target": f"{target['name']} ({target['ref']})",
        "intent": attack["intent"], "dice": [a_roll, d_roll], "attack": a_total, "defence": d_total,
        "attack_parts": [list(p) for p in a_parts], "defence_parts": [list(p) for p in d_parts], "won": won,
    }
    fields["attack"] = None
