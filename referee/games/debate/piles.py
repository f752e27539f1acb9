"""Each debater's 15-card tactic deck and where its cards are.

`fields["piles"]` maps each player's name to
    {"deck": [card, ...], "named": bool, "draw": n, "hand": n, "seen": [id, ...], "discard": [id, ...]}
- `deck`: the cards of the player's 15-card deck the referee knows (small
  card dicts: id, name, kind, quantity, alignment). A deck named with
  `deck` is known in full. Otherwise the referee learns it as its cards
  are played, and refuses a sixteenth different card; hidden from the
  opponent either way;
- `draw`, `hand`: how many cards lie in the draw pile and in the hand;
- `seen`: the cards in hand whose identity the referee knows (a card that
  went back to the hand from the forum or the discard pile); hidden;
- `discard`: the discard pile, face up (ids, oldest first).
Every other card of the deck is in the forum (a forum card keeps its
`owner`), so draw + hand + discard + forum is always 15. The referee learns
which card a player held only when it is played. Two decks together never
hold more copies of a card than are printed, as far as the referee can see:
a list named with `deck` is hidden, so another list is never checked against
it (that refusal would tell one hidden list from another); each played copy
is still checked against every copy in sight.

Functions here work on a deep copy of `State.fields` and raise
RuleViolation naming the player, the card and the rule.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Mapping, Sequence

from referee.rules.copies import check_free_copy
from referee.errors import RuleViolation

HAND = 5  # round start: draw until the hand holds this many
DECK_SIZE = 15
DECK_KEYS = ("id", "name", "kind", "quantity", "alignment")


def deck_card(card: Mapping[str, Any]) -> dict[str, Any]:
    return {k: card[k] for k in DECK_KEYS if k in card}


def new_pile(deck: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """A shuffled 15-card deck before round start: everything in the draw
    pile. `deck` names its cards (all 15), or none (learned as played)."""
    return {"deck": [deck_card(c) for c in deck], "named": bool(deck), "draw": DECK_SIZE, "hand": 0, "seen": [],
            "discard": []}


def draw(pile: dict[str, Any], count: int) -> int:
    """Draw `count` cards (fewer if deck and discard pile run out). When the
    draw pile is short, the discard pile is shuffled into it first. Returns
    how many were drawn."""
    if count <= 0:
        return 0
    if pile["draw"] < count and pile["discard"]:
        pile["draw"] += len(pile["discard"])
        pile["discard"] = []
    got = min(count, pile["draw"])
    pile["draw"] -= got
    pile["hand"] += got
    return got


def draw_up(pile: dict[str, Any]) -> int:
    """Round start: draw until the hand holds five cards."""
    return draw(pile, HAND - pile["hand"])


def check_deck(name: str, deck: Sequence[Mapping[str, Any]], other: Sequence[Mapping[str, Any]],
               other_name: str, other_hidden: bool = False) -> None:
    """A tactic deck is 15 arguments and devices, within the printed copies
    of each card once the opponent's deck is counted too. An opponent's deck
    named with `deck` (`other_hidden`) is a hidden list, so it is not counted:
    refusing a clash with it, even without naming the card, would tell that
    list apart from another (issue 36: a twin table whose list does not hold
    the card accepts the same line). The new list is taken as its player's
    word; a copy played later is still judged against every copy in sight."""
    for card in deck:
        if card.get("kind") not in ("argument", "device"):
            raise RuleViolation("tactic deck", f"{name}'s deck can hold only arguments and rhetorical devices; "
                                f"{card.get('name')} ({card.get('id')}) is a {card.get('kind')}")
    if len(deck) != DECK_SIZE:
        raise RuleViolation("tactic deck", f"{name}'s tactic deck must hold {DECK_SIZE} cards, not {len(deck)}")
    mine = Counter(c["id"] for c in deck)
    theirs = Counter() if other_hidden else Counter(c["id"] for c in other)
    for card in {c["id"]: c for c in deck}.values():
        printed = int(card.get("quantity") or 1)
        places = [f"{other_name}'s deck"] * theirs[card["id"]]
        check_free_copy(card["id"], card["name"], printed, places, wanted=mine[card["id"]])


def copy_places(fields: Mapping[str, Any], card_id: str, owner: str | None = None) -> list[str]:
    """Where the copies of a card are on the table, one entry per copy
    (only `owner`'s copies when given). A copy in a hand shows as "a hand"."""
    out: list[str] = []
    for side, slots in fields["forum"].items():
        for thread, slot in enumerate(slots, start=1):
            if not slot:
                continue
            for card in (slot["argument"], *slot["devices"]):
                if card["id"] == card_id and (owner is None or card.get("owner", side) == owner):
                    out.append(f"{side}'s thread {thread}")
    for name, pile in fields["piles"].items():
        if owner is not None and name != owner:
            continue
        out += [f"{name}'s discard pile"] * pile["discard"].count(card_id)
        out += [f"{name}'s hand"] * pile["seen"].count(card_id)
    return out


def take_from_hand(fields: dict[str, Any], player: str, card: Mapping[str, Any]) -> None:
    """PLAYER plays CARD from their hand: a copy of their deck that is not
    already in the forum, a discard pile or known in a hand. A card of a
    deck not named in full is learned here, within its 15 cards and the
    printed copies left over by the other deck."""
    pile = fields["piles"][player]
    card_id, name = card["id"], card.get("name", card["id"])
    if card_id in pile["seen"]:
        pile["seen"].remove(card_id)
        pile["hand"] -= 1
        return
    if pile["hand"] <= 0:
        raise RuleViolation("hand", f"{player} has no cards in hand, so {player} cannot play {name}")
    if pile["hand"] <= len(pile["seen"]):
        raise RuleViolation("hand", f"every card in {player}'s hand is one the referee has seen, and {name} "
                            "is not one of them")
    quantity = int(card.get("quantity") or 1)
    check_free_copy(card_id, name, quantity, copy_places(fields, card_id))
    held = sum(1 for c in pile["deck"] if c["id"] == card_id)
    used = copy_places(fields, card_id, player)
    if len(used) < held:
        pile["hand"] -= 1
        return
    if pile["named"]:
        stand_in = _unplayed(fields, player)
        if stand_in is None:  # (never: a hand card the referee has not seen is an unplayed entry)
            raise RuleViolation("tactic deck", f"{name} ({card_id}) is not a card {player} can play now")
        _take_the_claim(pile, stand_in, card)
        return
    if len(pile["deck"]) >= DECK_SIZE:
        raise RuleViolation("tactic deck", f"all {DECK_SIZE} cards of {player}'s deck have been played this "
                            f"match, and no free copy of {name} ({card_id}) is among them")
    # (another deck named in full is a hidden list, never counted here: only the cards it has shown are,
    # in copy_places above; a deck learned as played holds only cards everyone saw played)
    others = [f"{n}'s deck" for n, p in fields["piles"].items() if n != player and not p["named"]
              for c in p["deck"] if c["id"] == card_id]
    check_free_copy(card_id, name, quantity, [*others, *[f"{player}'s deck"] * held])
    pile["deck"].append(deck_card(card))
    pile["hand"] -= 1


def _unplayed(fields: Mapping[str, Any], player: str) -> int | None:
    """The index of the first entry (by id) of PLAYER's deck list whose copy
    is not in sight: in the hand unseen, or in the draw pile."""
    pile = fields["piles"][player]
    left = Counter(c["id"] for c in pile["deck"])
    for card_id in list(left):
        left[card_id] -= len(copy_places(fields, card_id, player))
    free = sorted((c["id"], i) for i, c in enumerate(pile["deck"]) if left[c["id"]] > 0)
    return free[0][1] if free else None


def _take_the_claim(pile: dict[str, Any], index: int, card: Mapping[str, Any]) -> None:
    """PLAYER plays a card their hidden deck list does not hold (or holds only
    in sight). Refusing would read the hidden list out to anyone at the table
    (the twin table, whose list holds it, accepts the same line), so the newest
    word is taken: an entry of the list whose copy nobody has seen (first by
    id) becomes this card, and it is played from the hand. Nothing anyone else
    sees changes; if the line was not PLAYER's, PLAYER sees it in the log and
    undoes it."""
    pile["deck"][index] = deck_card(card)
    pile["hand"] -= 1


def to_hand(fields: dict[str, Any], cards: Iterable[Mapping[str, Any]], default_owner: str) -> None:
    """Cards leave the forum for their owners' hands (known from now on)."""
    for card in cards:
        pile = fields["piles"][card.get("owner", default_owner)]
        pile["hand"] += 1
        pile["seen"].append(card["id"])


def to_discard(fields: dict[str, Any], cards: Iterable[Mapping[str, Any]], default_owner: str) -> None:
    """Cards leave the forum for their owners' discard piles."""
    for card in cards:
        fields["piles"][card.get("owner", default_owner)]["discard"].append(card["id"])


TAKE_BACK = {"own-gf-argument": "Good Faith argument", "own-argument": "argument", "own-tactic": "tactic"}


def _fits(card: Mapping[str, Any], target: str | None) -> bool:
    if target == "own-gf-argument":
        return card.get("kind") == "argument" and card.get("alignment") == "gf"
    if target == "own-argument":
        return card.get("kind") == "argument"
    return True


def from_discard(fields: dict[str, Any], player: str, code: str | None, who: str, target: str | None) -> bool:
    """Take the card named by `code` (id or name) from PLAYER's discard pile
    into their hand; `target` (the card's ability target) says what kind of
    card it may be. Returns False when the pile holds nothing that fits (the
    ability then does nothing); refuses a missing or wrong choice."""
    pile = fields["piles"][player]
    kinds = {c["id"]: c for c in pile["deck"]}
    fits = [i for i in pile["discard"] if _fits(kinds.get(i, {}), target)]
    if not fits:
        return False
    what = TAKE_BACK.get(target or "", "tactic")
    listed = ", ".join(dict.fromkeys(fits))
    if code is None:
        article = "an" if what[0] in "aeiou" else "a"
        raise RuleViolation("ability target", f"{who} takes {article} {what} back from {player}'s discard pile: "
                            f"give --back CARD (there: {listed})")
    wanted = str(code).strip().casefold()
    for card_id in fits:
        if wanted in (card_id, kinds.get(card_id, {}).get("name", "").casefold()):
            pile["discard"].remove(card_id)
            pile["hand"] += 1
            pile["seen"].append(card_id)
            return True
    raise RuleViolation("ability target", f"{who}: {player}'s discard pile holds no {what} {code!r} "
                        f"(there: {listed})")


def public(pile: Mapping[str, Any], shown: bool) -> dict[str, Any]:
    """What a player may read of a pile: counts and the face-up discard pile;
    the hand's known cards and the deck list (as far as known) only when `shown`."""
    out: dict[str, Any] = {"deck": DECK_SIZE, "draw": pile["draw"], "hand": pile["hand"],
                           "discard": list(pile["discard"])}
    if shown:
        out["hand_known"] = list(pile["seen"])
        out["deck_list"] = [c["id"] for c in pile["deck"]]
        out["deck_named"] = bool(pile["named"])
    return out


def is_private(pile: Mapping[str, Any]) -> bool:
    return isinstance(pile.get("deck"), list)


def clear_forum(fields: dict[str, Any], names: Sequence[str]) -> None:
    """Round end: every tactic in the forum goes to its owner's discard pile,
    or back to the hand when its own text says so."""
    for side in names:
        for slot in fields["forum"][side]:
            if not slot:
                continue
            for card in (slot["argument"], *slot["devices"]):
                back = card.get("action") == "return-to-hand" and card.get("target") == "self"
                (to_hand if back else to_discard)(fields, [card], side)
