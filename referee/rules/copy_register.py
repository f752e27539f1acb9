"""Which printed copy is where: the copy numbers read from QR codes (pure).

A card's QR code names one printed copy (`PNP:CARD-ID:REVISION:COPY`), and a
copy is one physical card: it cannot be in two places. An action that names
copies carries them in `args["_copies"]` ([[card_id, copy, position], ...],
put there by `table.act` from the codes it was given). The table remembers where each
named copy is, in `state.fields["printed_copies"]`:

    {card_id: {"2": "on Prestige Media (g1) in Ann's base", ...}, ...}

in the words of the game's `copy_places` hook (its `where_is`: one entry
per copy, words any player may read), so the register only ever holds what
every player saw. Where each player owns a printed deck (Culture War), the
key is "OWNER/CARD-ID" and the places are that owner's copies only.

After each action `track` follows the copies: a copy whose place is gone
goes where the card's copies arrived, when that is certain (one new place,
or the one new place that still names its group or piece: "(g2)", "#5");
when it is not (two copies of a card shared a place and one left), the
register forgets that copy's place rather than guess. A copy named in the
action is recorded where it arrived: the one new place, or the one the
game's `copy_hints` names (a D&C team laying two copies on two groups).

`refuse_twice` is the rule: an action that puts a copy of a card down (the
card's places grow) may not name a copy that is already somewhere, nor one
copy twice. The core (ledger.perform) asks it after applying a new action;
replaying a logged action never asks, so an old log still loads.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import Any, Iterable, Mapping, Sequence

from referee.rules.copies import RULE
from referee.errors import CardError, RuleViolation
from referee.model import Action, State

KEY = "printed_copies"  # in state.fields
ARG = "_copies"  # in action.args


def args_for(uses: Iterable[Any]) -> list[list[Any]]:
    """`[[card_id, copy, position], ...]` for the cards a command named by a
    numbered QR code; `position` is the code's place among the command's cards."""
    return [[u.card_id, int(u.copy), i] for i, u in enumerate(uses) if getattr(u, "copy", None)]


def named(action: Action) -> list[tuple[str, int]]:
    return [(str(entry[0]), int(entry[1])) for entry in action.args.get(ARG) or ()]


def named_at(action: Action) -> list[tuple[str, int, int | None]]:
    """(card id, copy, the code's position among the command's cards, or None)."""
    return [(str(e[0]), int(e[1]), int(e[2]) if len(e) > 2 else None) for e in action.args.get(ARG) or ()]


_REF = re.compile(r"\(g\d+\)|#\d+")  # a group's (g3), a piece's #5: what names one place among many


def _refs(place: str) -> set[str]:
    return set(_REF.findall(place))


def known(state: State) -> dict[str, dict[str, str]]:
    """The register: where each named copy is, by card id and copy number."""
    return {cid: dict(copies) for cid, copies in (state.fields.get(KEY) or {}).items()}


def place_of(state: State, key: str, copy: int) -> str | None:
    """Where copy `copy` of a card (its register key) is, or None when the table does not know."""
    return (state.fields.get(KEY) or {}).get(key, {}).get(str(copy))


def places_of_copy(state: State, card_id: str, copy: int) -> list[str]:
    """Where copy `copy` of `card_id` is, for every owner's printing of it
    ("ann: in play as #4" when each player owns a deck)."""
    out = []
    for key in keys_for(state, card_id):
        at = place_of(state, key, copy)
        if at is not None:
            owner = key.rpartition("/")[0]
            out.append(f"{owner}'s copy: {at}" if owner else at)
    return out


def key_of(rules: Any, state: State, action: Action, card_id: str) -> str:
    """The register's key for a copy an action names: the card id when the
    game's cards are one shared printing, "OWNER/CARD-ID" when each player
    owns a printed deck (`copy_owner`: then every owner has a copy 1)."""
    owner = rules.copy_owner(state, action)
    return f"{owner}/{card_id}" if owner else card_id


def _places(rules: Any, state: State, key: str) -> list[str]:
    owner, _, card_id = key.rpartition("/")
    return rules.copy_places(state, card_id, owner or None)


def keys_for(state: State, card_id: str) -> list[str]:
    """Every register key of a card: its own, and each owner's."""
    return [k for k in (state.fields.get(KEY) or {}) if k == card_id or k.endswith("/" + card_id)]


def track(rules: Any, before: State, action: Action, after: State) -> State:
    """`after` with the register brought up to date (unchanged when no copy was ever named)."""
    register = known(before)
    names = [(key_of(rules, before, action, cid), n) for cid, n in named(action)]
    if not register and not names and KEY not in after.fields:
        return after
    hints = list(rules.copy_hints(before, action)) if names else []
    ids = sorted(set(register) | {key for key, _ in names})
    out: dict[str, dict[str, str]] = {}
    for cid in ids:
        entering = [n for c, n in names if c == cid]
        hint = {str(n): h for (c, n), h in zip(names, hints) if c == cid and h}
        copies = _follow(_places(rules, before, cid), _places(rules, after, cid), register.get(cid, {}), entering,
                         hint)
        if copies:
            out[cid] = dict(sorted(copies.items(), key=lambda kv: int(kv[0])))
    fields = {k: v for k, v in after.fields.items() if k != KEY}
    if out:
        fields[KEY] = out
    return replace(after, fields=fields)


def _follow(was: Sequence[str], now: Sequence[str], copies: Mapping[str, str], named_now: Sequence[int],
            hints: Mapping[str, str] | None = None) -> dict[str, str]:
    """One card's copies after an action: `was` and `now` are its places
    (one entry per copy), `copies` the register before, `named_now` the copy
    numbers the action named, `hints` where the game says a named copy went
    (a reference such as "(g3)" its place contains)."""
    c0, c1 = Counter(was), Counter(now)
    arrived = c1 - c0
    kept: dict[str, str] = {}
    moved: list[str] = []
    by_place: dict[str, list[str]] = {}
    for n, place in copies.items():
        by_place.setdefault(place, []).append(n)
    named = {str(n) for n in named_now}
    for place, numbers in by_place.items():
        numbers = sorted(numbers, key=lambda n: (n not in named, int(n)))  # a named copy is the one that moved
        left = c0[place] - c1[place]
        if left <= 0:
            kept.update({n: place for n in numbers})
            continue
        unnamed_here = c0[place] - len(numbers)
        movers = [n for n in numbers if n in named][:left]
        if not movers and unnamed_here == 0 and left >= len(numbers):
            movers = list(numbers)  # every copy there left
        elif not movers:
            continue  # a copy left, but which one is not known: forget these copies' place
        moved += movers
        stay = [n for n in numbers if n not in movers]
        if len(stay) <= c1[place]:
            kept.update({n: place for n in stay})
    # a copy that left goes where the card arrived when that is certain: the one new place, or the one new
    # place that still names its group or piece ("(g2)" from the attack team to the base); otherwise it left
    # for a place the players cannot see, or it is not certain where: forgotten
    kept.update(_assign(moved, arrived, {n: _refs(copies[n]) for n in moved}))
    fresh = [str(n) for n in named_now if str(n) not in copies and str(n) not in kept]
    kept.update(_assign(fresh, arrived, {n: {(hints or {})[n]} for n in fresh if (hints or {}).get(n)}))
    return kept


def _assign(numbers: Sequence[str], arrived: Counter, refs: Mapping[str, set[str]]) -> dict[str, str]:
    """Copies to the places their card arrived at (taken from `arrived`)."""
    if not numbers:
        return {}
    if len(+arrived) == 1 and sum(arrived.values()) >= len(numbers):
        (place,) = +arrived
        arrived[place] -= len(numbers)
        return {n: place for n in numbers}
    out = {}
    for n in numbers:
        fits = [p for p in arrived if arrived[p] > 0 and refs.get(n) and _refs(p) & refs[n]]
        if len(fits) == 1:
            out[n] = fits[0]
            arrived[fits[0]] -= 1
    return out


def refuse_twice(rules: Any, before: State, action: Action, after: State) -> None:
    """Raise RuleViolation when the action names one copy twice, or puts
    down a copy the table already holds somewhere."""
    names = named(action)
    seen: set[tuple[str, int]] = set()
    for cid, n in names:
        if (cid, n) in seen:
            raise RuleViolation(RULE, f"copy {n} of {_name(action, cid)} is named twice in one command: a printed "
                                      "copy is one card")
        seen.add((cid, n))
        key = key_of(rules, before, action, cid)
        place = place_of(before, key, n)
        if place is None:
            continue
        if len(_places(rules, after, key)) > len(_places(rules, before, key)):
            owner = key.rpartition("/")[0]
            whose = f"{owner}'s " if owner else ""
            raise RuleViolation(RULE, f"{whose}copy {n} of {_name(action, cid)} is already {_words(place)}: a "
                                      "printed copy is one card and cannot be in two places (scan the copy you "
                                      "are putting down)")


def _words(place: str) -> str:
    """"in play as #4" stays; a bare place reads "in ..."."""
    first = place.split(" ", 1)[0]
    return place if first in ("in", "on", "at", "out", "attached", "removed") else f"in {place}"


def _name(action: Action, cid: str) -> str:
    """"Viral Hashtag (dc-asset-viral-hashtag)" when the action carries the
    card's data, else the card index's name, else the id."""
    for value in action.args.values():
        for card in (value if isinstance(value, list) else [value]):
            if isinstance(card, Mapping) and card.get("id") == cid and card.get("name"):
                return f"{card['name']} ({cid})"
    from referee.cards.index import load_index, project_root  # lazy: only a refusal needs the card's name

    try:
        info = load_index(project_root()).cards.get(cid)
    except (CardError, OSError):  # no card index here: the id names the card
        info = None
    return f"{info.name} ({cid})" if info is not None else cid


def explained(rules: Any, before: State, action: Action, refusal: RuleViolation) -> RuleViolation:
    """A game's printed-copies refusal (its count of a card's copies), with
    the place of each copy the action named by number that the table holds."""
    if refusal.rule != RULE or not action.args.get(ARG):
        return refusal
    notes = []
    for cid, n in named(action):
        key = key_of(rules, before, action, cid)
        place = place_of(before, key, n)
        if place is not None:
            whose = f"{key.rpartition('/')[0]}'s " if "/" in key else ""
            notes.append(f"{whose}copy {n} of {_name(action, cid)} is the one {_words(place)}")
    if not notes:
        return refusal
    return RuleViolation(refusal.rule, f"{refusal.message}; {'; '.join(notes)}")
