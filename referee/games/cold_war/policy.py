"""How a sensible 15 Minute Cold War player plays (self-play's heuristic agent).

From the rulebook's turn (two plays, at least one discard, free regrouping):
- setup: place the six cards that defend best, discard the three that defend least;
- regroup: form a stack of three singles (a stack defends as one card of
  the summed defence); a stack is never broken again (the loop guard also
  refuses breaking a stack formed this turn);
- the Nuclear Triad whenever it is in hand, at the rival with most defence;
- attack when the attack value is likely to match the defence: the Leader
  stack first (it knocks the Leader out), else the spot it beats with the
  most defence; face-down cards it cannot see are guessed from the copies
  it has not seen (the determinised table);
- a Special that removes or redeploys at the rival;
- otherwise build defence (Military face down, Science face up, Assistant
  Leaders on the Leader), discard the card worth least once, end the turn;
- a Fallen Leader flips at the rival leading the score; a defender blocks or
  redirects an attack that would succeed.
Propaganda challenges are left alone (a guess that costs own cards when wrong).
"""
from __future__ import annotations

from typing import Any, Mapping

from referee.games.cold_war import desk as D
from referee.model import Action
from referee.rules.choosing import Options
from referee.rules.legal import Candidate

IDLE = frozenset({"regroup"})
MILITARY_SPOTS = 4  # a Military card is placed in defence only while the table has fewer spots


def undoes(earlier: Action, later: Action) -> bool:
    """A stack formed and broken (or broken and formed) in one turn changes nothing."""
    if earlier.name != "regroup" or later.name != "regroup":
        return False
    return bool(earlier.args.get("stacks")) != bool(later.args.get("stacks"))


def _fields(o: Options) -> Mapping[str, Any]:
    """The table as the player may believe it: their view with the unseen cards sampled."""
    world = o.memo.get("world")
    if world is None or world[0] is not o.view:
        o.memo["world"] = (o.view, o.world() if o.world is not None else o.view)
    return o.memo["world"][1].fields


def _defence(f: Mapping[str, Any], name: str, cid: str) -> int:
    return int(D.card(f, cid).get("defence", 0) or 0)


def _attack_value(f: Mapping[str, Any], ids) -> int:
    return sum(int(D.card(f, c).get("attack", 0) or 0) for c in ids)


def _spot_defence(f: Mapping[str, Any], target: str, label: str) -> int:
    pd = 0
    desk = f["desks"][target]
    groups = {lb: cards for lb, _, cards in D.spots(desk)}
    leader = sum(_defence(f, target, c) for c in D.leader_stack(f, target))
    if label == "L":
        return leader + sum(D.group_defence(f, target, cards, pd) for cards in groups.values())
    return D.group_defence(f, target, groups.get(label, []), pd)


def _strength(f: Mapping[str, Any], name: str) -> float:
    desk = f["desks"][name]
    return 30.0 * sum(f["scores"][name]) + sum(_defence(f, name, c) for _, _, cards in D.spots(desk) for c in cards)


def choose(o: Options) -> Candidate | None:
    f = _fields(o)
    me = str(o.player)
    for name, pick in (("triad", _triad), ("setup", _setup), ("fallen", _fallen)):
        found = list(o.each(name))
        if found:
            return pick(o, f, me, found)
    stacks = [c for c in o.each("regroup") if c.action.args.get("stacks")]
    if stacks:
        chosen = o.best((1.0, c) for c in stacks)
        if chosen is not None:
            return chosen
    if list(o.each("start")):
        return o.best((0.0, c) for c in o.each("start"))
    moves = f["moves"]
    plays_left = 2 - int(moves.get("plays", 0))
    if plays_left > 0:
        chosen = _attack(o, f, me, plays_left) or _special(o, f, me) or _place(o, f, me)
        if chosen is not None:
            return chosen
    if not int(moves.get("discards", 0)):
        discards = [(-_worth(f, c.action.args["cards"][0]), c) for c in o.each("discard")
                    if len(c.action.args["cards"]) == 1]
        chosen = o.best(discards)
        if chosen is not None:
            return chosen
    return o.best((0.0, c) for c in o.each("end-turn"))


def _worth(f: Mapping[str, Any], cid: str) -> float:
    card = D.card(f, cid)
    bonus = 150 if card.get("triad") else 0
    return int(card.get("attack", 0) or 0) + int(card.get("defence", 0) or 0) + bonus + \
        (80 if card.get("type") in ("special", "assistant") else 0)


def _setup(o: Options, f, me, found) -> Candidate | None:
    def score(c: Candidate) -> float:
        args = c.action.args
        placed = sum(_defence(f, me, cid) for cid in args.get("cards", ()))
        kept = sum(_worth(f, cid) for cid in args.get("discard", ()))
        return placed - 0.3 * kept - 50 * len(args.get("propaganda", ()))
    return o.best((score(c), c) for c in found)


def _triad(o: Options, f, me, found) -> Candidate | None:
    return o.best((_strength(f, str(c.action.args["target"])), c) for c in found)


def _fallen(o: Options, f, me, found) -> Candidate | None:
    def score(c: Candidate) -> float:
        return _strength(f, str(c.action.args["target"])) + (0 if c.action.args.get("at") else 1)
    return o.best((score(c), c) for c in found)


def _attack(o: Options, f, me: str, plays_left: int) -> Candidate | None:
    scored = []
    for c in o.each("attack"):
        args = c.action.args
        ids = list(args.get("cards", ()))
        if len(ids) > plays_left or any(k in args for k in ("block", "redirect", "shields")):
            continue
        target, label = str(args["target"]), str(args["at"])
        value = _attack_value(f, ids)
        defence = _spot_defence(f, target, label)
        if value < defence:
            continue
        worth = 1000.0 if label == "L" else float(defence)
        left = _strength(f, target) - 30.0 * sum(f["scores"][target])  # the defence still standing there
        scored.append((worth - 0.5 * left - 0.1 * value - 20 * (len(ids) - 1), c))
    return o.best(scored)


def _special(o: Options, f, me: str) -> Candidate | None:
    scored = []
    for c in o.each("special"):
        args = c.action.args
        if any(k in args for k in ("block", "redirect")):
            continue
        target = str(args.get("target"))
        scored.append((_strength(f, target) + o.rng.random(), c))
    return o.best(scored)


def _place(o: Options, f, me: str) -> Candidate | None:
    """Defence: Science & Culture and Assistant Leaders freely; a Military card
    (which could attack instead) only while the table has few spots."""
    spots = len(list(D.spots(f["desks"][me])))
    scored = []
    for c in o.each("place"):
        cid = str(c.action.args["card"])
        card = D.card(f, cid)
        if card.get("type") == "special" or c.action.args.get("propaganda"):
            continue
        if card.get("type") == "military" and (card.get("triad") or spots >= MILITARY_SPOTS):
            continue  # kept to attack with (a leg of the Nuclear Triad for the launch)
        scored.append((_defence(f, me, cid) - 0.5 * int(card.get("attack", 0) or 0), c))
    return o.best(scored, floor=0.0)


def answer(o: Options) -> Candidate | None:
    """The defender's answer: block or redirect only an attack that would succeed."""
    plain = [c for c in o.each() if not any(k in c.action.args for k in ("block", "redirect", "shields"))]
    if not plain:
        return None
    act = plain[0].action
    f = _fields(o)
    me = str(o.player)
    danger = True
    if act.name == "attack":
        danger = _attack_value(f, act.args.get("cards", ())) >= _spot_defence(f, me, str(act.args.get("at")))
    if not danger:
        return plain[0]
    shielded = [c for c in o.each() if c.action.args.get("shields")]
    blocks = [c for c in o.each() if c.action.args.get("block")]
    redirects = [c for c in o.each() if c.action.args.get("redirect")]
    for group in (shielded, blocks, redirects):
        if group:
            return group[0]
    return plain[0]
