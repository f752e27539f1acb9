"""The debate's legal moves for one debater (referee/legal.py has the contract).

Listed, each only when the rules' `check` accepts it (legality stays in the
rules; this module proposes what the rulebook lets a debater try now):
- `argue CARD THREAD` and `device CARD THREAD` from the hand, with every
  pick the card's ability asks for (--target, --device, --to, --toward,
  --back); the concrete cards are the hand's when `hands` is given, else
  the cards the referee saw go back into the hand, and a `<CARD>` move per
  thread an unseen card may go to;
- `ability PLAYER` with the POTUS's picks;
- `no-argument`, `end-turn` (the next phase), `round-end` (in the POTUS
  window, either debater), `resolve` (a card's prompt);
- before the first tactic: `potus PLAYER CARD` (every POTUS card with a
  free copy) and `deck PLAYER a|b` (the starter decks).
Not listed: the scorekeeper's corrections `fortitude`, `crowd`, `destroy`,
`return` (for abilities the referee does not resolve by itself) and `win`.

Two picks that leave the same table (a pick the card ignores) are one move:
the first, fewest-picks one is kept.
"""
from __future__ import annotations

import itertools
from typing import Any, Iterable, Mapping, Sequence

from referee.games.debate import phases as ph
from referee.games.debate.abilities import FORUM_ACTIONS
from referee.games.debate.forum import THREADS, opponent
from referee.rules.legal import (CARD_PLACEHOLDER, Hands, Move, accepts, action, command_line, move, placeholder,
                                 shared_moves)
from referee.model import Action, PlayerName, State

TOWARD = ("mob", "citizen")
FLAGS_OF = {"argue": ("back",), "device": ("target", "device", "to", "toward", "back"),
            "ability": ("target", "device", "to", "toward", "back")}  # what each command can say (cli.py)
OPTION_FLAGS = {"target": "--target", "device": "--device", "to": "--to", "toward": "--toward", "back": "--back"}


def legal_moves(rules: Any, state: State, player: PlayerName, hands: Hands | None = None) -> list[Move]:
    if state.finished:
        return []
    name = state.player(player).name
    out: list[Move] = []
    tactics = _tactics(rules, state, name, hands)
    out += tactics
    out += _ability(rules, state, name)
    # With the hand known, a hand that holds a playable argument has one to play:
    # `no-argument` is then refused here (the rules cannot see the hand, so `check` accepts it).
    arguable = hands is not None and any(m.kind == "argue" for m in tactics)
    for act, words in ((action("no-argument", {"player": name}, name), ["no-argument", "--by", name]),
                       (action("round-end", {}, None), ["round-end"])):
        if act.name == "no-argument" and arguable:
            continue
        if accepts(rules, state, act):
            out.append(move(rules, state, act, words))
    out += shared_moves(rules, state, name)
    if not state.fields.get("begun"):
        out += _before_play(rules, state, name, hands)
    return out


# ---- tactics from the hand ---------------------------------------------------------


def _tactics(rules: Any, state: State, name: str, hands: Hands | None) -> list[Move]:
    phase = ph.current(state.fields)
    if phase is ph.Phase.POTUS or ph.acting(state, phase) != name:
        return []
    pile = state.fields["piles"][name]
    if pile["hand"] <= 0:
        return []
    out: list[Move] = []
    if hands is not None:
        held: Iterable[str] = hands.get(PlayerName(name), ())
    else:
        held = pile["seen"]
    for card_id in dict.fromkeys(held):
        card = card_entry(card_id)
        verb = "argue" if card.get("kind") == "argument" else "device" if card.get("kind") == "device" else None
        if verb is None:
            continue
        for thread in range(1, THREADS + 1):
            out += _picks(rules, state, name, verb, card, thread)
    if hands is None and pile["hand"] > len(pile["seen"]):
        out += _unseen(state, name)
    return out


def _unseen(state: State, name: str) -> list[Move]:
    """A card of the hand the referee has not seen: where an argument or a device may go."""
    slots = state.fields["forum"][name]
    out: list[Move] = []
    for thread in range(1, THREADS + 1):
        if slots[thread - 1]:
            out.append(placeholder(["device", CARD_PLACEHOLDER, thread, "--by", name], "device",
                                   f"{name} plays a rhetorical device from the hand on their argument in thread "
                                   f"{thread} (with the picks its ability asks for)", thread=thread))
            continue
        try:
            ph.check_argument_slot(state, name, thread, "an argument")
        except Exception:  # the slot is closed in this phase
            continue
        out.append(placeholder(["argue", CARD_PLACEHOLDER, thread, "--by", name], "argue",
                               f"{name} argues an argument from the hand in thread {thread}", thread=thread))
    return out


def _picks(rules: Any, state: State, name: str, verb: str, card: Mapping[str, Any], thread: int) -> list[Move]:
    """Every accepted play of CARD in THREAD, one per different outcome."""
    base = {"player": name, "thread": thread, "card": card["id"], "_card": dict(card)}
    words = [verb, card["id"], thread, "--by", name]
    first = action(verb, base, name)
    if verb == "argue" and not _opens(state, name, thread):
        return []
    if verb == "device" and not state.fields["forum"][name][thread - 1]:
        return []
    return _variants(rules, state, verb, base, words, name, card, host=thread, first=first)


def _opens(state: State, name: str, thread: int) -> bool:
    if state.fields["forum"][name][thread - 1]:
        return False
    try:
        ph.check_argument_slot(state, name, thread, "an argument")
    except Exception:  # the slot is closed in this phase
        return False
    return True


# ---- the POTUS ability ----------------------------------------------------------------


def _ability(rules: Any, state: State, name: str) -> list[Move]:
    card = (state.fields.get("potus") or {}).get(name)
    if not card or card.get("uses") == "passive":
        return []
    base = {"player": name}
    return _variants(rules, state, "ability", base, ["ability", name], name, card, host=None,
                     first=action("ability", base, name))


# ---- picks ----------------------------------------------------------------------------


def needs(card: Mapping[str, Any], host: int | None) -> tuple[str, ...]:
    """The picks a card's ability asks for (abilities.py reads them)."""
    act, kind = card.get("action"), card.get("target")
    effects = card.get("effects") or ()
    hits_forum = act in FORUM_ACTIONS or any(e.get("target") in ("target-unit", "target-group") for e in effects)
    out: list[str] = []
    if hits_forum and kind not in ("facing-argument", "self", "host-thread"):
        out.append("target")
    rd = kind in ("own-rd", "opposing-rd")
    if act == "move-rd" or (act == "destroy-tactic" and rd):
        out.append("device")
    if act == "move-rd" or (act == "take-control" and not rd):
        out.append("to")
    if card.get("crowd_shift") and card.get("crowd_toward") == "either":
        out.append("toward")
    if act == "return-from-discard":
        out.append("back")
    return tuple(out)


def _values(state: State, name: str, key: str) -> list[Any]:
    if key in ("target", "to"):
        return list(range(1, THREADS + 1))
    if key == "toward":
        return list(TOWARD)
    if key == "device":
        return sorted({d["id"] for slots in state.fields["forum"].values() for slot in slots if slot
                       for d in slot["devices"]})
    return sorted(set(state.fields["piles"][name]["discard"]))  # back


def _variants(rules: Any, state: State, verb: str, base: Mapping[str, Any], words: Sequence[Any], name: str,
              card: Mapping[str, Any], host: int | None, first: Action) -> list[Move]:
    keys = tuple(k for k in needs(card, host) if k in FLAGS_OF[verb])
    choices = [[None, *_values(state, name, k)] for k in keys]
    out: list[Move] = []
    outcomes: list[State] = []
    combos = list(itertools.product(*choices))
    for combo in combos:
        picks = {k: v for k, v in zip(keys, combo) if v is not None}
        act = action(verb, {**base, **picks}, name) if picks else first
        if not accepts(rules, state, act):
            continue
        if len(combos) > 1:  # picks the card ignores leave the same table: one move (a lone play has no twin)
            after = rules.apply(state, act, ())
            if any(after == seen for seen in outcomes):
                continue
            outcomes.append(after)
        extra = [w for k, v in picks.items() for w in (OPTION_FLAGS[k], v)]
        out.append(move(rules, state, act, [*words, *extra]))
    return out


# ---- before the first tactic: POTUS and decks -------------------------------------------


def _before_play(rules: Any, state: State, name: str, hands: Hands | None = None) -> list[Move]:
    from referee.games.debate import cards  # lazy: the card index, only before the first tactic
    from referee.games.debate.piles import DECK_SIZE  # lazy: as above

    out: list[Move] = []
    for card in potus_cards():
        act = action("potus", {"player": name, "card": card["id"], "_card": card}, None)
        if accepts(rules, state, act):
            out.append(move(rules, state, act, ["potus", name, card["id"]], kind="setup"))
    other = opponent([p.name for p in state.players], name)
    for letter in cards.STARTERS:
        act = action("deck", {"player": name, "_deck": starter(letter)}, None)
        if accepts(rules, state, act):
            out.append(Move(act, f"deck {name} {letter}", "setup",
                            f"{name} plays starter deck {letter.upper()} (hidden from {other})"))
    if not any(m.action is not None and m.action.name == "deck" for m in out):
        return out  # the deck is chosen already
    chosen = list(hands.get(PlayerName(name), ())) if hands is not None else []
    if len(chosen) == DECK_SIZE:  # a deck of the player's own choosing, its cards known (a phone's)
        act = action("deck", {"player": name, "_deck": [card_entry(c) for c in chosen]}, None)
        if accepts(rules, state, act):
            out.append(Move(act, command_line(["deck", name, *chosen]), "setup",
                            f"{name} plays a tactic deck of their own choosing (hidden from {other})"))
    elif hands is None:
        out.append(placeholder(["deck", name, *[CARD_PLACEHOLDER] * DECK_SIZE], "setup",
                               f"{name} plays a tactic deck of {DECK_SIZE} cards of their own choosing "
                               f"(hidden from {other})", type=["argument", "rhetorical-device"]))
    return out


# ---- cards from the index, as the commands record them -----------------------------------

_ENTRIES: dict[str, dict[str, Any]] = {}


def card_entry(card_id: str) -> dict[str, Any]:
    """A card's stats as `argue`/`device` record them (commands.py: cards.from_lookup)."""
    if card_id not in _ENTRIES:
        from referee.cards.index import load_index, project_root  # lazy: the card index, only for card moves
        from referee.games.debate.cards import entry  # lazy: as above

        info = load_index(project_root()).cards[card_id]
        _ENTRIES[card_id] = entry(info.id, info.name, info.type, info.fields, info.quantity)
    return dict(_ENTRIES[card_id])


_POTUS: list[dict[str, Any]] = []
_STARTER: dict[str, list[dict[str, Any]]] = {}


def potus_cards() -> list[dict[str, Any]]:
    """Every POTUS card's stats (read once a process, as card_entry reads a card)."""
    if not _POTUS:
        from referee.cards.index import load_index, project_root  # lazy: the card index, only before play
        from referee.games.debate.cards import GAME, entry  # lazy: as above

        index = load_index(project_root())
        _POTUS.extend(entry(c.id, c.name, c.type, c.fields, c.quantity)
                      for c in sorted(index.cards.values(), key=lambda c: c.id) if c.game == GAME and c.type == "potus")
    return [dict(c) for c in _POTUS]


def starter(letter: str) -> list[dict[str, Any]]:
    """Starter deck A or B as `deck` records it (read once a process)."""
    if letter not in _STARTER:
        from referee.games.debate.cards import starter_deck  # lazy: the card index, only before play

        _STARTER[letter] = starter_deck(letter)
    return [dict(c) for c in _STARTER[letter]]
