"""The attack sequence: a small state machine, one step per command (pure
functions on a Work).

Phases (`Phase` in phases.py, shown by `status`): outside an attack the active player is
in the ACTION phase and takes one action; declaring an attack (`attack`)
starts the sequence:
    team           the attacker lays the attack team (`team`, possibly empty)
    call-or-raise  for a player's group only: its owner calls or raises once
    add            after a raise only: the attacker may add once more (`team`)
    roll           both roll a d6 (`fight`), and the turn ends
An unaffiliated group, or the attacker's own, goes from team straight to roll.

`fields["attack"]`, while an attack is under way:
    {"attacker", "target" (a group ref), "intent": "take-over" | "destroy",
     "kind": "player" | "unaffiliated" | "own", "defender" (or null),
     "stage": a Phase value, "team": [groups laid from the attacker's hand],
     "joined": [refs of the attacker's base groups that join, each once],
     "defence": [groups laid from the defender's hand], "raised", "countered"}
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Mapping, Sequence

from referee.errors import RuleViolation
from referee.games.divide_and_conquer import zones
from referee.games.divide_and_conquer.phases import Phase
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
                          "defender": defender, "stage": Phase.TEAM.value, "team": [], "joined": [], "defence": []}


def _in_fight(attack: Mapping[str, Any], ref: str) -> bool:
    """The target, the attack team (with base groups that joined it) and the
    defence team are in the fight; nothing else is."""
    return ref in [attack["target"], *(g["ref"] for g in attack["team"]), *attack["joined"],
                   *(g["ref"] for g in attack["defence"])]


def _group_in_fight(w: Work, ref: str) -> dict[str, Any]:
    attack = w.fields["attack"]
    for group in [*attack["team"], *attack["defence"]]:
        if group["ref"] == ref:
            return group
    return zones.find(w.fields, ref)[1]


def lay(w: Work, player: str, groups: Sequence[Mapping[str, Any]], joined: Sequence[str],
        attaches: Sequence[Mapping[str, Any]]) -> None:
    """The attacker's team (phase team or add) or the defender's raise
    (phase call-or-raise): groups from the hand, base groups that may join,
    and assets or deficits put on cards in the fight. Each card must be a
    free printed copy; each base group joins once."""
    attack = w.fields["attack"]
    side = "defender" if attack["stage"] == Phase.CALL_OR_RAISE else "attacker"
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
                            "defend only through a card like Attorneys on Retainer")
    for i, ref in enumerate(joined):
        owner, group = zones.find(w.fields, ref)
        if owner != player or ref == attack["target"]:
            raise RuleViolation("base groups stay home", f"{ref} is not a group in {player}'s base that can join")
        if not zones.has(group, "base-joins-attacks"):
            raise RuleViolation("base groups stay home", f"{player}'s {group['name']} ({ref}) is in their base and "
                                "has no asset that lets it join attacks")
        if ref in attack["joined"] or (w.strict and ref in joined[:i]):
            raise RuleViolation("a group joins once", f"{group['name']} ({ref}) has already joined this attack; "
                                "it counts once")
    w.spend(player, len(groups) + len(attaches), "this play")
    laid = []
    for card in groups:
        w.claim(card, player)
        group = zones.new_group(w.fields, card)
        laid.append(group)
        (attack["defence"] if side == "defender" else attack["team"]).append(group)
    attack["joined"].extend(joined)
    for item in attaches:
        onto = str(item["onto"])
        if onto.startswith("new:"):
            index = int(onto[4:])
            if not 0 <= index < len(laid):
                raise RuleViolation("the fight", f"{player} put {item['card']['name']} on a group not laid here")
            group = laid[index]
        else:
            if not _in_fight(attack, onto):
                raise RuleViolation("only cards in the fight", f"during the attack {player} may put "
                                    f"{item['card']['name']} only on the target, the attack team or the "
                                    f"defence team, not on {onto}")
            group = _group_in_fight(w, onto)
        w.claim(item["card"], player)
        group["attached"].append(zones.attachment(item["card"]))


def team(w: Work, player: str, groups, joined, attaches) -> None:
    attack = w.fields["attack"]
    if player != attack["attacker"]:
        raise RuleViolation("attack order", f"{player} is not the attacker; {attack['attacker']} lays the attack team")
    stage = Phase(attack["stage"])
    if stage == Phase.CALL_OR_RAISE:
        raise RuleViolation("attack order", f"{attack['defender']} calls or raises now, before {player} adds more "
                            f"(phase {stage.value})")
    if stage == Phase.ROLL:
        raise RuleViolation("attacker adds once more", f"{player} has laid the team"
                            + (" and added once more after the raise" if attack.get("countered") else "")
                            + "; roll with `fight` (phase roll)")
    if w.strict and stage == Phase.ADD and not (groups or joined or attaches):
        raise RuleViolation("an addition adds cards", f"{player} adds nothing: to fight as things stand, roll "
                            "with `fight` (phase add)")
    lay(w, player, groups, joined, attaches)
    if stage == Phase.TEAM:
        attack["stage"] = (Phase.CALL_OR_RAISE if attack["kind"] == "player" else Phase.ROLL).value
    else:
        attack["stage"], attack["countered"] = Phase.ROLL.value, True


def respond(w: Work, player: str, raise_: bool, groups=(), attaches=()) -> None:
    attack = w.fields["attack"]
    if attack["kind"] != "player":
        where = "unaffiliated" if attack["kind"] == "unaffiliated" else f"{attack['attacker']}'s own"
        raise RuleViolation("a roll and nothing else", f"the target is an {where} group: it defends with a roll "
                            "only, so nobody calls or raises")
    if player != attack["defender"]:
        raise RuleViolation("attack order", f"{player} is not the defender; {attack['defender']} calls or raises")
    stage = Phase(attack["stage"])
    if stage == Phase.TEAM:
        raise RuleViolation("attack order", f"{attack['attacker']} lays the attack team first (phase team)")
    if stage != Phase.CALL_OR_RAISE:
        raise RuleViolation("the defender raises once", f"{player} has already "
                            + ("raised" if attack.get("raised") else "called") + f" in this attack (phase {stage.value})")
    if raise_:
        if w.strict and not (groups or attaches):
            raise RuleViolation("a raise adds cards", f"{player} raises with no cards: that is no raise; "
                                "`call` to fight as things stand")
        lay(w, player, groups, (), attaches)
        attack["stage"], attack["raised"] = Phase.ADD.value, True
    else:
        attack["stage"], attack["raised"] = Phase.ROLL.value, False


def totals(fields: Mapping[str, Any]) -> tuple[int, list[tuple[str, int]], int, list[tuple[str, int]]]:
    """The attack's and the defence's influence (before the dice), with their parts."""
    attack = fields["attack"]

    def part(group: Mapping[str, Any], role: str, why: str = "") -> tuple[str, int]:
        extra = f", {why}" if why else ""
        return f"{group['name']} ({group['ref']}{extra}: {zones.sources(group, role)})", zones.value(group, role)

    a_parts = [part(g, "attack") for g in attack["team"]]
    a_parts += [part(zones.find(fields, ref)[1], "attack", "from the base") for ref in attack["joined"]]
    _, target = zones.find(fields, attack["target"])
    d_parts = [part(target, "defence", "the target")]
    if attack["kind"] == "player":
        d_parts += [part(g, "defence") for g in attack["defence"]]
        for group in fields["bases"][attack["defender"]]:
            if group["ref"] != target["ref"] and zones.has(group, "defends-all"):
                d_parts.append(part(group, "defence", "defends the base"))
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
