"""Table-level functions behind the Cold War commands (one per command).

Each turns what was typed into an action's arguments (cards by id or QR
payload become card ids; spots like M1 or S2.1 stay as they are) and hands
it to referee.table.operations.act, or reads the table for `odds`. Nothing here prints.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from referee.cards import looks_like_payload
from referee.table import operations as table
from referee.errors import RefereeError
from referee.games.cold_war import desk as D
from referee.games.cold_war.cards import resolve_id
from referee.games.cold_war.hidden import FACE_UP_WHEN_PLACED, card_type
from referee.games.cold_war.odds import Odds, odds as odds_of
from referee.model import GameSlug
from referee.table.results import ActResult


class _Args:
    """Collects card codes so the log records each card's revision."""

    def __init__(self) -> None:
        self.codes: list[str] = []
        self.hidden: list[str] = []  # codes of cards that may lie face down (not checked aloud)

    def card(self, code: str | None, hidden: bool = False) -> str | None:
        """The card id a code names. A card that may lie face down (`hidden`)
        is not recorded among the action's card revisions, which the log
        prints for everyone; its args are masked by hidden.public_args."""
        if code is None:
            return None
        code = code.strip()
        if not code:
            raise RefereeError("an empty card name was given")
        cid = resolve_id(code)
        (self.hidden if hidden else self.codes).append(code)
        return cid

    def cards(self, codes: Sequence[str], hidden: bool = False) -> list[str]:
        return [c for c in (self.card(code, hidden) for code in _split(codes)) if c is not None]

    def token(self, text: str, hidden: bool = False) -> str:
        """A spot (S1, M2.3, A1, L) or a card."""
        text = text.strip()
        return text.upper() if D.is_spot(text) else str(self.card(text, hidden))

    def tokens(self, texts: Sequence[str], hidden: bool = False) -> list[str]:
        return [self.token(t, hidden) for t in _split(texts)]


def _split(values: Sequence[str]) -> list[str]:
    out: list[str] = []
    for value in values:
        out += [v for v in (part.strip() for part in value.split(",")) if v]
    return out


def _act(path: Path, name: str, args: dict[str, Any], actor: str | None, collected: _Args) -> ActResult:
    unchecked = any(looks_like_payload(code) for code in collected.hidden if code not in collected.codes)
    return table.act(path, name, {k: v for k, v in args.items() if v not in (None, [], False)}, actor,
                     collected.codes, unchecked=unchecked)


def _onto(text: str | None) -> tuple[str | None, str | None]:
    if text is None:
        return None, None
    name, sep, spot = text.partition(":")
    if not sep or not name.strip() or not spot.strip():
        raise RefereeError(f"--onto {text!r}: write PLAYER:SPOT, e.g. --onto Cy:M1")
    return name.strip(), spot.strip().upper() if D.is_spot(spot) else spot.strip()


def _answers(a: _Args, block: str | None, redirect: str | None, onto: str | None) -> dict[str, Any]:
    who, at = _onto(onto)
    out: dict[str, Any] = {"block": a.card(block), "redirect": a.card(redirect), "onto": who}
    if at is not None:
        out["onto_at"] = a.token(at)
    return out


def setup(path: Path, player: str, cards: Sequence[str], propaganda: Sequence[str] = (),
          discard: Sequence[str] = ()) -> ActResult:
    a = _Args()
    placed = a.cards(cards, hidden=True)
    a.codes += [code for code, cid in zip(_split(cards), placed) if not _face_down(cid)]
    args = {"player": player, "cards": placed, "propaganda": a.cards(propaganda, hidden=True),
            "discard": a.cards(discard)}
    return _act(path, "setup", args, player, a)


def _face_down(cid: str) -> bool:
    return card_type(cid) not in FACE_UP_WHEN_PLACED


def start(path: Path, first: str | None = None) -> ActResult:
    return _act(path, "start", {"first": first}, None, _Args())


def regroup(path: Path, player: str, stacks: Sequence[str] = (), breaks: Sequence[str] = ()) -> ActResult:
    a = _Args()
    groups = [a.tokens([s], hidden=True) for s in stacks]
    args = {"player": player, "stacks": groups, "break": [b.strip().upper() for b in _split(breaks)]}
    return _act(path, "regroup", args, player, a)


def place(path: Path, card: str, propaganda: bool = False, actor: str | None = None) -> ActResult:
    a = _Args()
    cid = a.card(card, hidden=True)
    if cid is not None and not propaganda and not _face_down(cid):
        a.codes.append(card.strip())
    return _act(path, "place", {"card": cid, "propaganda": propaganda}, actor, a)


def discard(path: Path, cards: Sequence[str], actor: str | None = None) -> ActResult:
    a = _Args()
    return _act(path, "discard", {"cards": a.cards(cards)}, actor, a)


def attack(path: Path, target: str, at: str, cards: Sequence[str], block: str | None = None,
           redirect: str | None = None, onto: str | None = None, actor: str | None = None) -> ActResult:
    a = _Args()
    args = {"target": target, "at": a.token(at), "cards": a.cards(cards), **_answers(a, block, redirect, onto)}
    return _act(path, "attack", args, actor, a)


def special(path: Path, card: str, target: str, at: str | None = None, using: Sequence[str] = (),
            block: str | None = None, redirect: str | None = None, onto: str | None = None,
            actor: str | None = None) -> ActResult:
    a = _Args()
    args = {"card": a.card(card), "target": target, "at": a.token(at, hidden=True) if at else None,
            "with": a.tokens(using), **_answers(a, block, redirect, onto)}
    return _act(path, "special", args, actor, a)


def challenge(path: Path, target: str, count: int, theirs: Sequence[str] = (), own: Sequence[str] = (),
              actor: str | None = None) -> ActResult:
    a = _Args()
    args = {"target": target, "count": count, "their": a.tokens(theirs), "own": a.tokens(own)}
    return _act(path, "challenge", args, actor, a)


def triad(path: Path, target: str, cards: Sequence[str], shields: Sequence[str] = (),
          actor: str | None = None) -> ActResult:
    a = _Args()
    args = {"target": target, "cards": a.cards(cards), "shields": a.cards(shields)}
    return _act(path, "triad", args, actor, a)


def fallen(path: Path, target: str, card: str, at: str | None = None, block: str | None = None,
           redirect: str | None = None, onto: str | None = None, actor: str | None = None) -> ActResult:
    a = _Args()
    args = {"target": target, "card": a.card(card), "at": a.token(at) if at else None,
            **_answers(a, block, redirect, onto)}
    return _act(path, "fallen", args, actor, a)


ANSWER_WAYS = ("none", "block", "redirect", "shield", "give")


def answer(path: Path, how: str, cards: Sequence[str] = (), onto: str | None = None, timeout: bool = False,
           actor: str | None = None) -> ActResult:
    """The target's answer to the action waiting for it (none, block, redirect, shield)."""
    a = _Args()
    how = how.strip().lower()
    if how not in ANSWER_WAYS:
        raise RefereeError(f"answer {how!r}: say none, block CARD, redirect CARD --onto PLAYER:SPOT, "
                           "shield CARD CARD or give SPOT...")
    if how == "give":  # the face-down cards a challenge takes, by spot (their choice, in order of preference)
        return _act(path, "answer", {"their": a.tokens(cards, hidden=True), "timeout": timeout}, actor, a)
    ids = a.cards(cards)
    wanted = {"none": 0, "block": 1, "redirect": 1}.get(how)
    if (wanted is not None and len(ids) != wanted) or (how == "shield" and not ids):
        what = {0: "no card", 1: "one card"}.get(wanted, "both Shield cards")  # (the rules count the Shields)
        raise RefereeError(f"answer {how} names {what}, not {len(ids)}")
    if onto is not None and how != "redirect":
        raise RefereeError("--onto goes with `answer redirect CARD`")
    args: dict[str, Any] = {"timeout": timeout}
    if how == "block":
        args["block"] = ids[0]
    elif how == "redirect":
        who, at = _onto(onto)
        args.update(redirect=ids[0], onto=who, onto_at=a.token(at) if at is not None else None)
    elif how == "shield":
        args["shields"] = ids
    return _act(path, "answer", args, actor, a)


def odds(path: Path, player: str | None = None) -> list[tuple[Odds, bool]]:
    """The Fallen Leader odds of one player, or of every player."""
    state = table.status(path).state
    if state.game is not GameSlug.COLD_WAR:
        raise RefereeError(f"{path} is a {state.game.value} table, not a cold-war one")
    names = [state.player(player).name] if player else [p.name for p in state.players]
    return [(odds_of(state, n), bool(state.fields["desks"][n]["fallen"])) for n in names]
