"""A phone's move, named as data, turned into the Action the rules judge.

A phone never sends a command line for the server to parse: it names one of
the moves `GET /p/TOKEN/moves` listed for its player, and the server plays
the Action the rules' own move generator made for it (`referee.rules.legal`),
never one built from what the phone sent. There is no parser here and no
click: what is not among the player's moves now is refused, cheaply, before
the rules are asked.

Three ways to name a move (docs/play-api.md):

- `{"action": {"name": ..., "args": {...}}}`: a listed move's `action`, as
  listed (its `_`-args, data the rules derive themselves, may be left out);
- `{"command": "..."}`: a listed move's `command`, word for word (scripts);
- `{"command": "..."}` for a `<CARD>` move: its command with a card's code
  (an id or a scanned QR text) in each `<CARD>` place, an optional place left
  out, a flag place written `--propaganda CODE`. The codes are read as cards
  of the table's game; the generator then lists the player's moves with
  those cards in hand (as self-play does) and the one whose words are the
  sent words is played, the cards in the order the phone gave them.

Either way the Action then goes through `table.operations.perform`, the same
`check` and `ledger.perform` as a typed command.
"""
from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, replace
from typing import Any, Mapping, Sequence

from referee.errors import RefereeError
from referee.model import Action, CardUse, PlayerName, State
from referee.rules import legal
from referee.table.printnotes import is_shown

OPTION = re.compile(r"\((--[a-z][a-z-]*): [^)]+\)")  # a move's words offering one flag (as the page reads them)
MAX_LINE = 2000  # characters of a sent command
FORBIDDEN = ("--db", "--project", "--help", "-h", "--preview")  # another table, or output instead of a move
# Commands that read the table, start one, or are the scorekeeper's (corrections, undo, dice for the table).
NOT_MOVES = legal.CORRECTIONS | {"odds", "legal", "board", "perft", "hand", "fortitude", "status", "log", "new",
                                 "undo", "redo", "roll", "moves", "export", "import", "serve", "links"}


class NotListed(RefereeError):
    """The move sent is not among the player's moves now (422, or 409 when stale)."""


class BadMove(RefereeError):
    """What was sent cannot name a move at all (400)."""


class OthersMove(RefereeError):
    """The move sent is another player's (403)."""


@dataclass(frozen=True)
class Chosen:
    """The Action to play and what the table needs to play it."""

    action: Action
    drawn: bool = False  # it draws its dice as it rolls them (a Culture War battle)
    warnings: tuple[str, ...] = ()  # about each scanned copy (an old printing), for the player who scanned it
    uses: tuple[CardUse, ...] = ()   # the cards it names, to say aloud only what others may hear


def choose(rules: Any, state: State, player: str, sent: Mapping[str, Any],
           hand: list[str] | None = None) -> Chosen:
    """The Action of the move `sent` names for `player` (the table's spelling)
    in `state`, their hand unknown or (`hand`) kept on their phone;
    NotListed, BadMove or OthersMove otherwise."""
    hands = {PlayerName(player): list(hand)} if hand is not None else None
    if "action" in sent:
        action = _by_action(rules, state, player, sent["action"], hands)
        return Chosen(action, _draws(state, action))
    return _by_command(rules, state, player, sent.get("command"), hands)


# ---- by action ------------------------------------------------------------------------------


def _by_action(rules: Any, state: State, player: str, data: Any, hands: Any = None) -> Action:
    if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
        raise BadMove('"action" must be an object with a "name" and "args", as the moves list gives it')
    args = data.get("args", {})
    if not isinstance(args, Mapping):
        raise BadMove('"action"\'s "args" must be an object')
    actor = data.get("actor")
    if actor is not None and (not isinstance(actor, str) or _name(state, actor) != player):
        raise OthersMove(f"{player}'s link can only make {player}'s moves")
    wanted = (data["name"], _public(args))
    for group in legal.candidates(rules, state, PlayerName(player), hands):
        for candidate in group.each():
            act = candidate.action
            if act is not None and (act.name, _public(act.args)) == wanted:
                return act
    raise NotListed(f"that is not a move {player} can make now")


def _public(args: Mapping[str, Any]) -> Any:
    """Args as a phone names them: without the `_`-data the rules derive, lists and tuples alike."""
    return _frozen({k: v for k, v in args.items() if not str(k).startswith("_")})


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    return value


# ---- by command words -------------------------------------------------------------------------


def words_of(line: Any) -> list[str]:
    """The words of a sent command (split as a shell would; `referee` in front dropped)."""
    if not isinstance(line, str) or not line.strip():
        raise BadMove('the request names no move: send {"action": ...} or {"command": ...} as the moves list gives it')
    if len(line) > MAX_LINE:
        raise BadMove(f"the command is longer than {MAX_LINE} characters")
    try:
        argv = shlex.split(line)
    except ValueError as exc:
        raise BadMove(f"cannot read the command {line[:80]!r}: {exc}") from None
    if argv and argv[0] == "referee":
        argv = argv[1:]
    if not argv:
        raise BadMove("the command is empty")
    for word in argv[1:]:
        if word.split("=", 1)[0] in FORBIDDEN:
            raise BadMove(f"{word.split('=', 1)[0]} cannot be sent from a page")
    if legal.CARD_PLACEHOLDER in argv:
        raise BadMove(f"the command still holds {legal.CARD_PLACEHOLDER}: choose the card first")
    return argv


def _without_by(words: Sequence[str], state: State, player: str) -> list[str]:
    """The words less `--by PLAYER` (a listed move may carry it or not); OthersMove for another's."""
    out: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--by" or word.startswith("--by="):
            who = word[5:] if word.startswith("--by=") else (words[i + 1] if i + 1 < len(words) else "")
            if _name(state, who) != player:
                raise OthersMove(f"{player}'s link can only make {player}'s moves, not {who}'s")
            i += 1 if word.startswith("--by=") else 2
            continue
        out.append(word)
        i += 1
    return out


def _by_command(rules: Any, state: State, player: str, line: Any, hands: Any = None) -> Chosen:
    sent = _without_by(words_of(line), state, player)
    found = legal.candidates(rules, state, PlayerName(player), hands)
    templates: list[legal.Move] = []
    kinds: set[str] = set()
    for group in found:
        for candidate in group.each():
            move = candidate.make()
            listed = _without_by(shlex.split(move.command), state, player) if move.command else []
            if listed:
                kinds.add(listed[0])
            if move.action is None:
                templates.append(move)
            elif listed == sent and candidate.legal(rules, state):
                return Chosen(move.action, _draws(state, move.action))
    if sent[0] in NOT_MOVES or (sent[0] not in kinds and sent[0] not in _commands(rules)):
        raise BadMove(f"`{sent[0]}` is not a move a player sends at this table")
    for template in templates:
        slots = template.details.get("slots")
        words = _without_by(template.command.split(), state, player)
        option = OPTION.search(template.text)  # "(--propaganda: face down in Military)": the move may add the flag
        codes = _fill(words, slots, sent)
        if codes is None and option is not None:
            codes = _fill([*words, option[1]], slots, sent)
        if codes is not None:
            flags = {str(s["flag"]) for s in slots or () if isinstance(s, Mapping) and s.get("flag")}
            return _concrete(rules, state, player, sent, codes, flags)
    raise NotListed(f"`{' '.join(sent)}` is not a move {player} can make now")


def _commands(rules: Any) -> set[str]:
    return set(rules.actions) | {"end-turn", "next", "resolve"}


def _fill(template: Sequence[str], slots: Any, sent: Sequence[str]) -> list[tuple[str, int]] | None:
    """The card codes `sent` puts in `template`'s `<CARD>` places (each with its
    place's number), or None when `sent` is not that template filled in."""
    slots = list(slots) if isinstance(slots, (list, tuple)) else []
    holes = [i for i, w in enumerate(template) if w == legal.CARD_PLACEHOLDER]

    def slot(n: int) -> Mapping[str, Any]:
        return slots[n] if n < len(slots) and isinstance(slots[n], Mapping) else {}

    def walk(t: int, s: int) -> list[tuple[str, int]] | None:
        if t == len(template):
            return [] if s == len(sent) else None
        word = template[t]
        if word != legal.CARD_PLACEHOLDER:
            if s < len(sent) and sent[s] == word:
                return walk(t + 1, s + 1)
            return None
        n = holes.index(t)
        if s < len(sent) and not sent[s].startswith("--"):
            rest = walk(t + 1, s + 1)
            if rest is not None:
                return [(sent[s], n), *rest]
        flag = slot(n).get("flag")
        if flag and s + 1 < len(sent) and sent[s] == flag and not sent[s + 1].startswith("--"):
            rest = walk(t + 1, s + 2)
            if rest is not None:
                return [(sent[s + 1], n), *rest]
        if slot(n).get("optional"):
            return walk(t + 1, s)
        return None

    return walk(0, 0)


def _concrete(rules: Any, state: State, player: str, sent: Sequence[str], codes: Sequence[tuple[str, int]],
              flags: set[str]) -> Chosen:
    """The move `sent` plays with the cards at its `<CARD>` places known to be in the hand."""
    from referee.cards import resolve  # lazy: the card index, only when a card is named
    from referee.rules import copy_register  # lazy: only a card named by its QR code

    uses = []
    for code, _ in codes:
        try:
            uses.append(resolve(code, state.game.value))
        except RefereeError:
            raise NotListed(f"`{code}` is not a card {player} can play now") from None
    by_code = {code: use.card_id for (code, _), use in zip(codes, uses)}
    cards = set(by_code.values())
    wanted = _shape([by_code.get(w, w) for w in sent], cards)
    hand = {PlayerName(player): [u.card_id for u in uses]}
    order = [u.card_id for u in uses]
    best: list[tuple[int, bool, Action]] = []
    for move in legal.legal_moves(rules, state, PlayerName(player), hand):
        if move.action is None:
            continue
        words = _without_by(shlex.split(move.command), state, player)
        score = _differs(wanted, _shape(words, cards), flags)
        if score is not None:  # fewest cards flagged unasked first, then the cards in the phone's order
            best.append((score, [w for w in words if w in cards] != order, move.action))
    if not best:
        raise NotListed(f"that is not a move {player} can make now with those cards")
    chosen = min(best, key=lambda found: found[:2])[2]
    args = {k: _in_order(v, order) for k, v in chosen.args.items()}
    # a copy is followed only where every player sees it: a face-down card's copy number would name it in the log
    shown = rules.public_args(replace(chosen, args=args))
    numbered = [entry for entry in copy_register.args_for(uses) if is_shown(entry[0], shown)]
    if numbered:
        args[copy_register.ARG] = numbered
    action = replace(chosen, args=args)
    return Chosen(action, _draws(state, action), tuple(u.warning for u in uses if u.warning), tuple(uses))


def _shape(words: Sequence[str], cards: set[str]) -> tuple:
    """Command words as a move: the command, its other words in order, its
    options with their values (in any order) and each card from the hand
    with the option it follows ("" for none), in any order."""
    plain: list[str] = []
    options: list[tuple[str, str]] = []
    roles: list[tuple[str, str]] = []
    i = 1
    while i < len(words):
        word = words[i]
        value = words[i + 1] if i + 1 < len(words) and not words[i + 1].startswith("--") else None
        if word.startswith("--") and value is not None and value in cards:
            roles.append((value, word))
            i += 2
        elif word.startswith("--"):
            options.append((word, value or ""))
            i += 2 if value is not None else 1
        else:
            (roles.append((word, "")) if word in cards else plain.append(word))
            i += 1
    return (words[0] if words else "", tuple(plain), tuple(sorted(options)), tuple(sorted(roles)))


def _differs(sent: tuple, listed: tuple, flags: set[str]) -> int | None:
    """How many of `sent`'s cards the listed move puts behind one of the
    template's `flags` where `sent` gave none (a Cold War setup's Special goes
    face down as Propaganda unasked), or None when it is another move."""
    if sent[:3] != listed[:3]:
        return None
    left = list(listed[3])
    added = 0
    for card, role in sent[3]:
        if (card, role) in left:
            left.remove((card, role))
            continue
        flagged = next((r for c, r in left if c == card and r in flags), None) if role == "" else None
        if flagged is None:
            return None
        left.remove((card, flagged))
        added += 1
    return added if not left else None


def _in_order(value: Any, order: Sequence[str]) -> Any:
    """A list of cards put in the order the phone named them (setup's discards go on the pile so)."""
    if isinstance(value, list) and value and all(isinstance(v, str) and v in order for v in value):
        return sorted(value, key=order.index)
    return value


def _draws(state: State, action: Action) -> bool:
    return action.name in legal.drawing(state.game) and "rolls" not in action.args


def _name(state: State, text: str) -> str | None:
    try:
        return state.player(text).name
    except RefereeError:
        return None
