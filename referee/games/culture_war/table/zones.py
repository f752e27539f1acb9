"""Where each player's cards are: hand, draw pile, discard pile, removed.

Each player plays their own printed faction deck, so a card can be in at
most its printed quantity of places per owner: in play, attached as a Mod,
in the discard pile, or removed from the game. Cards in hand and in the draw
pile are hidden, so the referee keeps only their counts; a card's identity
is known once it is played (scanned or named).

Kept in the state:

    player fields   hand, draw_pile, discard_pile   counts, shown by `status`
    discards        {player: [{card, name, kind}]}  each discard pile, oldest first
    removed         {player: [{card, name, kind}]}  cards out of the game (a player who is out)

A player without a faction has no known deck: no counts are kept for them.

The setup: Real Estate is taken out of the deck into its own pile (bought
from there, never drawn), the Base Unit goes into play, and everyone draws
five. From their second turn on, each player draws one card as the turn
begins; `draw N` records a card effect's draws and `discard-hand CARD` a
card discarded from the hand (which shows it).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from referee.rules.copies import check_free_copy
from referee.errors import RefereeError, RuleViolation
from referee.games.culture_war import story
from referee.model import Action, State

HAND = 5  # cards each player draws at the start of the game
TURN_DRAW = 1  # cards drawn as each turn after a player's first begins
KNOWN = "hand_known"  # a player's field: ids of the cards known to be in the hand
HAND_RULE = "cards are played from your hand"
DECK_RULE = "each player plays their own faction deck"
DRAW_RULE = "cards are drawn from your draw pile"
ESTATE_KIND = "estate"
PILE_KINDS = {"unit": "unit", "real-estate": ESTATE_KIND, "operation": "operation", "mod": "mod",
              "flash": "flash", "happening": "happening"}


# ---- counts ------------------------------------------------------------------------


def tracked(state: State, name: str) -> bool:
    return "hand" in state.player(name).fields


def counts(fields: Mapping[str, Any]) -> tuple[int, int]:
    return int(fields.get("hand", 0)), int(fields.get("draw_pile", 0))


def starting_fields(deck_size: int | None) -> dict[str, Any]:
    """A player's counts after shuffling and drawing the first hand."""
    if deck_size is None:
        return {}
    hand = min(HAND, deck_size)
    return {"hand": hand, "draw_pile": deck_size - hand, "discard_pile": 0, KNOWN: []}


def known_in_hand(state: State, owner: str) -> list[str]:
    """The cards everyone saw go back to `owner`'s hand (a unit returned by a
    card), still there as far as the table knows: the first of them the owner
    plays or discards leaves the list."""
    return list(state.player(owner).fields.get(KNOWN) or [])


def drawn(fields: Mapping[str, Any], count: int) -> tuple[dict[str, Any], int]:
    """The player's fields after drawing up to `count` cards, and how many were drawn."""
    hand, pile = counts(fields)
    n = max(0, min(count, pile))
    return {**fields, "hand": hand + n, "draw_pile": pile - n}, n


# ---- copies --------------------------------------------------------------------------


def places(state: State, owner: str, card_id: str) -> list[str]:
    """Where the owner's printed copies of a card are now, one entry per copy."""
    out: list[str] = []
    for handle, piece in sorted(state.fields.get("pieces", {}).items(), key=lambda kv: int(kv[0])):
        if (piece.get("home") or piece.get("owner")) == owner and piece.get("card") == card_id:
            out.append(f"in play as #{handle}")
        for mod in piece.get("mods", []):
            if mod.get("by") == owner and mod.get("card") == card_id:
                out.append(f"attached to #{handle} as a Mod")
    for entry in state.fields.get("discards", {}).get(owner, []):
        if entry.get("card") == card_id:
            out.append(f"in {owner}'s discard pile")
    for entry in state.fields.get("removed", {}).get(owner, []):
        if entry.get("card") == card_id:
            out.append("removed from the game")
    out += [f"in {owner}'s hand"] * known_in_hand(state, owner).count(card_id)
    return out


def check_copy(state: State, owner: str, card: Mapping[str, Any], verb: str = "play") -> None:
    """Refuse a card when all its printed copies of this owner are already somewhere."""
    quantity = card.get("quantity")
    if quantity is None or not card.get("id"):
        return  # card data logged before quantities were known
    taken = places(state, owner, card["id"])
    if f"in {owner}'s hand" in taken:
        taken.remove(f"in {owner}'s hand")  # the copy seen going back to the hand is the one played now
    try:
        check_free_copy(card["id"], card.get("name") or card["id"], int(quantity), taken)
    except RuleViolation as exc:
        raise RuleViolation(exc.rule, f"{owner} cannot {verb} {card.get('name')}: {exc.message}") from None


def check_deck(state: State, owner: str, card: Mapping[str, Any], verb: str = "play") -> None:
    """In the standard game a player's cards all come from their faction's deck."""
    faction = state.player(owner).faction
    deck = card.get("deck")
    if state.house_rules.get("decks", "faction") != "faction" or not faction or not deck or deck == faction:
        return
    raise RuleViolation(DECK_RULE, f"{owner} plays the {faction} deck, so cannot {verb} {card.get('name')} "
                                   f"({card.get('id')}), a {deck} card; mixed decks are house rule decks=mixed")


def check_hand(state: State, owner: str, card: Mapping[str, Any], verb: str = "play") -> None:
    if card.get("type") == "real-estate" or not tracked(state, owner):
        return  # Real Estate is bought from its own pile, not the hand
    hand, pile = counts(state.player(owner).fields)
    if hand < 1:
        raise RuleViolation(HAND_RULE, f"{owner} has no cards in hand, so cannot {verb} {card.get('name')} "
                                       f"({pile} in the draw pile); if a card let {owner} draw, record it "
                                       f"first with `referee draw --by {owner}`")


# ---- checks of the actions that move cards ------------------------------------------


def check(state: State, action: Action) -> None:
    """The zone part of an action's check: copies and hand counts."""
    args = action.args
    if action.name == "play":
        owner = state.player(args["player"]).name
        verb = "buy" if args["_card"].get("type") == "real-estate" else "play"
        check_deck(state, owner, args["_card"], verb)
        check_copy(state, owner, args["_card"], verb)
        check_hand(state, owner, args["_card"])
    elif action.name == "discard-hand":
        owner = state.player(args["player"]).name
        check_deck(state, owner, args["_card"], "discard")
        check_copy(state, owner, args["_card"], "discard")
        if args["_card"].get("type") == "real-estate":
            raise RuleViolation(HAND_RULE, f"{args['_card'].get('name')} is Real Estate, which is never in a "
                                           "hand: it is bought from the Real Estate pile")
        check_hand(state, owner, args["_card"], "discard")
        if not tracked(state, owner):
            raise RefereeError(f"{owner} plays without a faction deck, so the referee keeps no hand for them")
    elif action.name == "draw":
        owner = state.player(args["player"]).name
        count = args.get("count")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise RefereeError(f"draw a whole number of cards, at least 1, not {count!r}")
        if not tracked(state, owner):
            raise RefereeError(f"{owner} plays without a faction deck, so the referee keeps no draw pile for them")
        hand, pile = counts(state.player(owner).fields)
        if count > pile:
            held = f"{pile} card" + ("" if pile == 1 else "s")
            raise RuleViolation(DRAW_RULE, f"{owner}'s draw pile holds {held}, so {owner} cannot draw {count}"
                                + ("" if pile == 0 else f"; draw {pile}"))


# ---- applying ----------------------------------------------------------------------------


def entry(piece_or_card: Mapping[str, Any], kind: str) -> dict[str, Any]:
    return {"card": piece_or_card.get("card", piece_or_card.get("id")), "name": piece_or_card.get("name"),
            "kind": kind}


def settle(before: State, after: State, action: Action) -> State:
    """Move cards between zones after an action: a played card leaves the
    hand; a Flash or Happening, a piece that left play and a Mod taken off go
    to their owner's discard pile (a player who is out: removed from the game);
    a piece returned to the hand goes back to it."""
    if _nothing_moves(before, after, action):
        return after  # what `moved` would give, without rebuilding it
    return moved(before, after, action)


def _nothing_moves(before: State, after: State, action: Action) -> bool:
    """No card changes zone (most alliance moves): none played or discarded
    from a hand or returned to one, the same pieces in play with the same
    Mods, and no player's counts or elimination changed by the action."""
    if action.name in ("play", "discard-hand") or "returned" in after.fields:
        return False
    old, new = before.fields.get("pieces", {}), after.fields.get("pieces", {})
    if old.keys() != new.keys() or len(before.players) != len(after.players):
        return False
    for b, a in zip(before.players, after.players):
        if b.eliminated != a.eliminated or (b.fields is not a.fields and b.fields != a.fields):
            return False
    return _mods(old) == _mods(new)


def moved(before: State, after: State, action: Action) -> State:
    """`settle` worked out in full."""
    fields = dict(after.fields)
    discards = {k: list(v) for k, v in fields.get("discards", {}).items()}
    removed = {k: list(v) for k, v in fields.get("removed", {}).items()}
    people = {p.name: p for p in after.players}
    hands: dict[str, int] = {}
    known = {p.name: list(p.fields.get(KNOWN) or []) for p in after.players}
    returned = set(fields.pop("returned", []) or [])

    def put(owner: str, item: dict[str, Any]) -> None:
        if owner not in people:
            return
        if people[owner].eliminated:
            removed.setdefault(owner, []).append(item)
        else:
            discards.setdefault(owner, []).append(item)

    args = action.args
    old, new = dict(before.fields.get("pieces", {})), fields.get("pieces", {})
    old_mods = _mods(old)
    if action.name in ("play", "discard-hand"):
        card = args["_card"]
        owner = before.player(args["player"]).name
        kind = card.get("type")
        if kind != "real-estate":
            hands[owner] = hands.get(owner, 0) - 1
            if card.get("id") in known[owner]:
                known[owner].remove(card.get("id"))
        if action.name == "discard-hand" or kind in ("flash", "happening"):
            put(owner, entry(card, PILE_KINDS.get(kind, "card")))
        elif kind == "mod":  # attached this action: it counts as on the table before the check below
            old_mods.append((owner, card.get("id"), card.get("name")))
        else:  # a unit, Real Estate or Operation entering play under the next handle
            old.setdefault(str(before.fields.get("next")), {"owner": owner, "card": card.get("id"),
                                                            "name": card.get("name"), "kind": PILE_KINDS[kind]})
    for handle in sorted(old, key=int):
        if handle in new:
            continue
        piece = old[handle]
        if handle in returned:
            home = piece.get("home") or piece["owner"]  # a card taken over goes back to whose card it is
            hands[home] = hands.get(home, 0) + 1
            if home in known:
                known[home].append(piece.get("card"))
        else:
            put(piece.get("home") or piece["owner"], entry(piece, piece["kind"]))
    still = _mods(new)
    for by, card_id, name in old_mods:  # Mods no longer on any card go to the discard pile of who played them
        if (by, card_id, name) in still:
            still.remove((by, card_id, name))
        else:
            put(by, {"card": card_id, "name": name, "kind": "mod"})
    fields["discards"], fields["removed"] = discards, removed
    players = []
    for p in after.players:
        f = dict(p.fields)
        if "hand" in f:
            f["hand"] = max(0, int(f["hand"]) + hands.get(p.name, 0))
            f["discard_pile"] = len(discards.get(p.name, []))
            seen = [] if p.eliminated else known[p.name]
            if len(seen) > f["hand"]:  # the hand shrank without showing which cards: keep the newest known
                seen = seen[len(seen) - f["hand"]:]
            if seen or KNOWN in f:
                f[KNOWN] = seen
        players.append(replace(p, fields=f) if f != p.fields else p)
    return replace(after, players=tuple(players), fields=fields)


def _mods(pieces: Mapping[str, Any]) -> list[tuple[str, Any, Any]]:
    return [(m.get("by") or p["owner"], m.get("card"), m.get("name"))
            for _, p in sorted(pieces.items(), key=lambda kv: int(kv[0])) for m in p.get("mods", [])]


def return_to_hand(board: Any, handle: str) -> dict[str, Any]:
    """A card effect puts a piece back in its owner's hand (not the discard
    pile): call this instead of removing it. Its Mods go to the discard pile."""
    piece = board.pieces.pop(handle)
    board.f.setdefault("returned", []).append(handle)
    board.f["timed"] = [t for t in board.f["timed"] if t.get("handle") != handle]
    board.tell(story.leaves(piece["owner"], handle, piece["name"], f"goes back to {piece['owner']}'s hand"))
    return piece


def draw_on_board(board: Any, name: str, count: int, why: str) -> None:
    """Draw on a working Board (the turn's draw), with a note."""
    player = board.people[name]
    if "hand" not in player.fields or player.eliminated:
        return
    fields, n = drawn(player.fields, count)
    board.people[name] = replace(player, fields=fields)
    if n:
        board.tell(story.draws(name, n, why, fields["hand"], fields["draw_pile"]))
    else:
        board.note(f"{name}'s draw pile is empty: no card drawn ({why})")


def estates_held(state_fields: Mapping[str, Any], owner: str) -> int:
    """Real Estate a player has owned: in play now, plus what went to the
    discard pile or out of the game."""
    now = sum(1 for p in state_fields.get("pieces", {}).values() if p["owner"] == owner and p["kind"] == ESTATE_KIND)
    gone = sum(1 for pile in ("discards", "removed") for e in state_fields.get(pile, {}).get(owner, [])
               if e.get("kind") == ESTATE_KIND)
    return now + gone


def pile_lines(state: State) -> list[str]:
    """The discard piles and cards out of the game, for `status` (hand and
    draw pile counts are the players' own columns)."""
    out = []
    for key, word in (("discards", "discard pile"), ("removed", "out of the game")):
        for name, entries in state.fields.get(key, {}).items():
            if entries:
                out.append(f"{name}'s {word}: " + ", ".join(e.get("name") or e.get("card") or "?" for e in entries))
    return out
