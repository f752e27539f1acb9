"""Turns and rounds: passing the turn (the mover draws back up to 5), a
Leader's fall, and the end of a round and of the match."""
from __future__ import annotations

from referee.games.cold_war import desk as D
from referee.games.cold_war import zones as Z
from referee.games.cold_war.play import Play
from referee.model import PlayerName

PLACES = ("first-place", "second-place", "third-place", "fourth-place")


def fresh_desk(p: Play, player: str) -> dict:
    return D.new_desk(Z.fresh_pile(p.f["decks"][player]))


def advance(p: Play) -> None:
    """The turn passes: the mover, if their Leader stands, draws back up to
    a hand of 5 (the discard pile turns over when the draw pile runs out)."""
    if p.f["phase"] != "play":
        return
    mover = p.active_name()
    desk = p.desk(mover)
    if not desk["fallen"]:
        before = desk["resets"]
        drawn, _ = Z.refill(desk)
        if drawn:
            turned = " (the draw pile ran out: the discard pile turned over, unshuffled, as the new one)" \
                if desk["resets"] > before else ""
            p.say(f"{mover} draws {drawn} card(s) back up to a hand of {desk['hand']}{turned}")
    count = len(p.state.players)
    p.active = (p.active + 1) % count
    p.turn += 1
    p.f["moves"] = {"plays": 0, "discards": 0}
    p.desk(p.active_name())["weakened"] = []


def fall(p: Play, target: str, by: str) -> None:
    """`target`'s Leader is beaten: it flips, and all 24 other cards (from the
    hand, the piles, the table and out of the game) are shuffled into the
    Fallen Leader's draw pile."""
    for cid in D.defence_cards(p.f, target) + list(p.desk(target)["assistants"]):
        if D.owner(p.f, cid) != target:
            D.to_discard(p.f, cid)  # a card lent by another Fallen Leader goes home
    deck = p.f["decks"][target]
    leader = p.card(deck["leader"])
    fresh = fresh_desk(p, target)
    fresh.update(set_up=True, fallen=True)
    p.f["desks"][target] = fresh
    p.f["knocked_out"].append(target)
    p.say(f"{target}'s Leader {leader['name']} falls and becomes {leader.get('fallen_name', 'the Fallen Leader')}; "
          f"{target}'s {len(fresh['unseen'])} other cards are shuffled into a new draw pile")
    if p.desk(by)["fallen"] and by != target:
        p.f["fallen_defeats"][by] += 1
        p.say(f"{by} beat a Leader while Fallen: +{p.rules['fallen-bonus']} at the end of the round")
    end_round_if_decided(p)


def end_round_if_decided(p: Play) -> None:
    standing = [n for n in p.names() if not p.desk(n)["fallen"]]
    if len(standing) != 1:
        return
    order = standing + list(reversed(p.f["knocked_out"]))
    points = [int(p.rules[key]) for key in PLACES]
    bonus = int(p.rules["fallen-bonus"])
    lines = []
    for place, name in enumerate(order):
        extra = bonus * p.f["fallen_defeats"][name]
        p.f["scores"][name].append(points[place] + extra)
        lines.append(f"{name} {points[place]}" + (f"+{extra}" if extra else ""))
    p.say(f"round {p.round} is won by {standing[0]}; scores: " + ", ".join(lines))
    rounds = int(p.rules["rounds"])
    first_out = p.f["knocked_out"][0]
    if p.round < rounds:
        p.round += 1
        p.f.update(phase="setup", desks={n: fresh_desk(p, n) for n in p.names()},
                   moves={"plays": 0, "discards": 0}, knocked_out=[], first=first_out,
                   fallen_defeats={n: 0 for n in p.names()})
        p.say(f"round {p.round} of {rounds}: every player shuffles and sets up again; {first_out}, knocked out "
              "first, plays first")
        return
    totals = {n: sum(p.f["scores"][n]) for n in p.names()}
    best = max(totals.values())
    top = [n for n in p.names() if totals[n] == best]
    p.f["phase"] = "over"
    if len(top) == 1:
        p.winner = PlayerName(top[0])
        p.f["result"] = f"{top[0]} wins with {best} points"
    else:
        p.f["result"] = f"tie for first on {best} points: {', '.join(top)}"
    p.say(f"after {rounds} round(s): {p.f['result']}")
