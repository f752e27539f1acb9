"""The hidden zones of one Cold War player: the hand and the draw pile.

The draw pile starts shuffled, so the referee does not know its order, and
it does not see a card drawn from it until the card is named (played,
placed or discarded). It keeps, per player:

    hand    how many cards the hand holds (5 after each turn)
    known   cards the referee knows are in the hand (drawn from a pile whose
            order it knows)
    unseen  cards that are either in the hand, unseen, or in the shuffled
            draw pile: len(unseen) == hand - len(known) + draw
    draw    how many cards the shuffled draw pile holds
    order   the draw pile in a known order, top first: once the shuffled pile
            is empty, the discard pile turns over, unshuffled, as the new pile
    resets  how many times the discard pile was turned over this round

A Fallen Leader holds no hand: `unseen` is then the shuffled pile itself.
Each card id appears once per printed copy across every zone of its owner
(`places`), which the copy-conservation test checks.
"""
from __future__ import annotations

from typing import Any, Mapping

from referee.rules.copies import check_free_copy
from referee.errors import RuleViolation
from referee.games.cold_war import desk as D

HAND = 5


def fresh_pile(deck: Mapping[str, Any]) -> list[str]:
    """A country's draw pile at the start of a round: every card but the
    Leader, one entry per printed copy, by id (the real order is unknown; by id,
    a table read back from its saved JSON, whose keys are sorted, gives the
    same list as the table in memory)."""
    return [cid for cid, stats in sorted(deck["cards"].items()) if cid != deck["leader"]
            for _ in range(max(1, int(stats.get("quantity") or 1)))]


def hidden_in_hand(desk: Mapping[str, Any]) -> int:
    return int(desk["hand"]) - len(desk["known"])


def pile_size(desk: Mapping[str, Any]) -> int:
    return int(desk["draw"]) + len(desk["order"])


def turn_over(desk: dict[str, Any]) -> bool:
    """An empty draw pile is renewed from the unshuffled discard pile: the
    first card discarded comes up first. Returns True if that happened."""
    if desk["draw"] or desk["order"] or not desk["discard"]:
        return False
    desk["order"], desk["discard"] = list(desk["discard"]), []
    desk["resets"] += 1
    return True


def draw(desk: dict[str, Any], count: int) -> int:
    """Draw up to `count` cards into the hand; returns how many were drawn."""
    drawn = 0
    while drawn < count:
        if not desk["draw"] and not desk["order"] and not turn_over(desk):
            break
        if desk["draw"]:
            desk["draw"] -= 1
        else:
            desk["known"].append(desk["order"].pop(0))
        desk["hand"] += 1
        drawn += 1
    return drawn


def refill(desk: dict[str, Any]) -> tuple[int, bool]:
    """Draw back up to a hand of 5: (cards drawn, whether the pile turned over)."""
    before = desk["resets"]
    drawn = draw(desk, max(0, HAND - int(desk["hand"])))
    return drawn, desk["resets"] > before


def places(f: Mapping[str, Any], player: str, cid: str, *, unseen: bool = False) -> list[str]:
    """Where the copies of `player`'s card are, one entry per copy, in words.
    Copies in the hand-or-shuffled-pile (`unseen`) are listed only if asked.
    A card on a table is "on X's table", face up or face down alike."""
    desk = f["desks"][player]
    out: list[str] = []
    for holder, other in f["desks"].items():
        # one word for face-up and face-down cards, so a refusal never tells Propaganda apart
        out += [f"on {holder}'s table"] * D.defence_cards(f, holder).count(cid)
        out += [f"on {holder}'s Leader stack"] * other["assistants"].count(cid)
    out += [f"in {player}'s hand"] * desk["known"].count(cid)
    out += [f"in {player}'s draw pile"] * desk["order"].count(cid)
    out += [f"in {player}'s discard pile"] * desk["discard"].count(cid)
    out += [f"out of the game ({player}'s)"] * desk["removed"].count(cid)
    if unseen:
        where = f"{player}'s draw pile" if desk["fallen"] else f"{player}'s hand or draw pile"
        out += [f"in {where}"] * desk["unseen"].count(cid)
    return out


def quantity(f: Mapping[str, Any], cid: str) -> int:
    return max(1, int(D.card(f, cid).get("quantity") or 1))


def _taken(f: Mapping[str, Any], player: str, cid: str) -> None:
    """Raise the printed-copies refusal when every copy is somewhere known."""
    check_free_copy(cid, D.name_of(f, cid), quantity(f, cid), places(f, player, cid))


def from_hand(f: dict[str, Any], player: str, cid: str) -> None:
    """`player` plays, places or discards `cid` from the hand."""
    desk = f["desks"][player]
    name = D.name_of(f, cid)
    if cid in desk["known"]:
        desk["known"].remove(cid)
        desk["hand"] -= 1
        return
    if not desk["hand"]:
        raise RuleViolation("cards in hand", f"{player} holds no cards, so {name} cannot come from the hand")
    if cid in desk["unseen"] and hidden_in_hand(desk) > 0:
        desk["unseen"].remove(cid)
        desk["hand"] -= 1
        return
    _taken(f, player, cid)
    raise RuleViolation("cards in hand", f"{name} is not in {player}'s hand: the referee knows every card "
                                         f"{player} holds, and the other copies are still in the draw pile")


def from_pile(f: dict[str, Any], player: str, cid: str) -> None:
    """One of the cards drawn at setup: straight from the shuffled pile."""
    desk = f["desks"][player]
    if cid in desk["unseen"] and desk["draw"] > 0:
        desk["unseen"].remove(cid)
        desk["draw"] -= 1
        return
    _taken(f, player, cid)
    raise RuleViolation("setup draw", f"{D.name_of(f, cid)} is not in {player}'s draw pile")


def flip(f: dict[str, Any], player: str, cid: str) -> bool:
    """A Fallen Leader flips the top card of the draw pile. From a shuffled
    pile any card still in it may come up; from a pile turned over from the
    discard pile only its known top card. Returns True if the pile turned over."""
    desk = f["desks"][player]
    turned = turn_over(desk)
    if desk["order"]:
        top = desk["order"][0]
        if cid != top:
            raise RuleViolation("draw pile order", f"{player}'s draw pile was turned over from the unshuffled "
                                                   f"discard pile, so its top card is {D.name_of(f, top)}, "
                                                   f"not {D.name_of(f, cid)}")
        desk["order"].pop(0)
        return turned
    if not desk["draw"]:
        raise RuleViolation("Fallen Leader", f"{player} has no card left to flip; end the turn")
    if cid not in desk["unseen"]:
        _taken(f, player, cid)
        raise RuleViolation("draw pile", f"{D.name_of(f, cid)} is not in {player}'s draw pile")
    desk["unseen"].remove(cid)
    desk["draw"] -= 1
    return turned


def next_flip(desk: Mapping[str, Any]) -> tuple[str, list[str]]:
    """What a Fallen Leader's next flip comes from: ("known", [top card]),
    ("shuffled", the cards of the pile) or ("nothing", [])."""
    if desk["order"]:
        return "known", [desk["order"][0]]
    if desk["draw"]:
        return "shuffled", list(desk["unseen"])
    if desk["discard"]:
        return "known", [desk["discard"][0]]
    return "nothing", []
