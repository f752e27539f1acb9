"""How a sensible Divide & Conquer player plays (self-play's heuristic agent).

From the rulebook: influence counts on one wing, the smaller wing is
subtracted, and every card laid in an attack or a defence joins its
player's base whether the fight is won or lost ("you have nothing to
lose"). So the player
- keeps to its wing: the one its base (else its hand) leans to;
- attacks whenever there is a group to attack: takes over the largest group
  of its own wing that another player or the centre holds, or else destroys
  the largest group of the other wing in the leading rival's base;
- lays every group of its own wing it holds in the team (and assets on
  them), never a group of the other wing; defends its own wing the same
  way, and calls otherwise;
- when there is nothing to attack: recruits a group of its wing, puts an
  asset on its own group or a deficit on a rival's, or sends a group of the
  other wing to the centre;
- ends the turn when none of that is possible.
"""
from __future__ import annotations

from typing import Any, Mapping

from referee.games.divide_and_conquer import zones
from referee.games.divide_and_conquer.legal import card
from referee.rules.choosing import Options
from referee.rules.legal import Candidate


def _wing(f: Mapping[str, Any], me: str, hand: list[str]) -> str:
    scored = zones.score(list(f["bases"][me]))
    if scored.get("left", 0) != scored.get("right", 0):
        return "left" if scored.get("left", 0) > scored.get("right", 0) else "right"
    lean = {"left": 0, "right": 0}
    for cid in hand:
        c = card(cid)
        if c.get("wing") in lean:
            lean[c["wing"]] += int(c.get("influence") or 0)
    return "left" if lean["left"] >= lean["right"] else "right"


def _leader(o: Options, me: str) -> str | None:
    others = [p for p in o.view.players if p.name != me]
    return max(others, key=lambda p: int(p.fields.get("net", 0))).name if others else None


def choose(o: Options) -> Candidate | None:
    me = str(o.player)
    f = o.view.fields
    hand = list(o.hand)
    wing = _wing(f, me, hand)
    for name in ("resolve", "fight"):
        found = o.best((0.0, c) for c in o.each(name))
        if found is not None:
            return found
    attack = f.get("attack")
    if attack:
        laid = [c for c in o.each("team", "raise")]
        calls = list(o.each("call"))
        if calls and attack.get("target"):
            _, group = zones.find(f, str(attack["target"]))
            if group and zones.scoring_wing(group) != wing:
                return o.best((0.0, c) for c in calls)
        return o.best((_laid(c, wing), c) for c in laid) or o.best((0.0, c) for c in calls)
    leader = _leader(o, me)
    scored = []
    for c in o.each("attack"):
        target = str(c.action.args["target"])
        holder, group = zones.find(f, target)
        if not group or holder == me:
            continue
        worth = zones.value(group)
        if c.action.args["intent"] == "take-over" and zones.scoring_wing(group) == wing:
            scored.append((2.0 * worth, c))
        elif c.action.args["intent"] == "destroy" and zones.scoring_wing(group) != wing and holder == leader:
            scored.append((1.0 * worth, c))
    strength = sum(int(card(cid).get("influence") or 0) for cid in hand if card(cid).get("wing") == wing)
    chosen = o.best(scored, floor=0.0) if strength else None
    if chosen is not None:
        return chosen
    quiet = []
    for c in o.each("recruit", "attach", "unaffiliate"):
        printed = c.action.args.get("_card") or card(str(c.action.args["card"]))
        if c.action.name == "recruit":
            quiet.append(((3.0 + int(printed.get("influence") or 0)) if printed.get("wing") == wing else -1.0, c))
        elif c.action.name == "unaffiliate":
            quiet.append((1.0 if printed.get("wing") != wing else -1.0, c))
        else:
            holder, group = zones.find(f, str(c.action.args["onto"]))
            if not group:
                continue
            modifier = int(printed.get("modifier") or 0)
            mine = holder == me and zones.scoring_wing(group) == wing
            quiet.append((modifier if mine else (-modifier if holder == leader else -1.0), c))
    return o.best(quiet, floor=0.0) or o.best((0.0, c) for c in o.each("end-turn"))


def _laid(c: Candidate, wing: str) -> float:
    """Own-wing influence laid, other-wing groups counted against it."""
    args = c.action.args
    score = 0.0
    for cid in args.get("cards") or ():
        printed = card(str(cid))
        influence = int(printed.get("influence") or 0)
        score += influence if printed.get("wing") == wing else -2.0 * influence
    for a in args.get("attach") or ():
        printed = card(str(a).split("=")[0])
        score += 0.5 * int(printed.get("modifier") or 0)
    score += 0.5 * len(args.get("join") or ())
    return score
