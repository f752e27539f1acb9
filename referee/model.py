"""Typed values the referee works with: games, players, table state, actions.

All of them are frozen. Mappings inside them (`fields`, `house_rules`,
`args`) are plain dicts by convention never mutated after construction:
rules build a new value with `dataclasses.replace` instead.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Mapping, NewType

from referee.errors import RefereeError, UnknownPlayer

PlayerName = NewType("PlayerName", str)
CardId = NewType("CardId", str)
Revision = NewType("Revision", str)
Seq = NewType("Seq", int)

SCOREKEEPER = "scorekeeper"  # how the log shows an event no player was named for


class GameSlug(str, Enum):
    """The registry of games: the one list of the games the referee knows.

    Each member is the slug people type, the package under `referee/games/`
    that holds the game, and its title. Everything else that lists the games
    derives from this: `rules_for` (the rules module), the CLI (each game's
    `cli` module, offered only at its tables) and the match report (each
    game's `report` module). A sixth game is one line here plus its package
    (docs/adding-a-game.md). Only the package of the game being played is
    ever imported.
    """

    #                    slug                  package               title
    CULTURE_WAR = ("culture-war", "culture_war", "Culture War")
    DIVIDE_AND_CONQUER = ("divide-and-conquer", "divide_and_conquer", "Political Divide & Conquer")
    PETRI_DISH = ("petri-dish", "petri_dish", "Battle for the Petri Dish")
    DEBATE = ("debate", "debate", "Debate")
    COLD_WAR = ("cold-war", "cold_war", "15 Minute Cold War")

    package: str
    game_title: str  # (`title` would hide str.title)

    def __new__(cls, slug: str, package: str, game_title: str) -> "GameSlug":
        member = str.__new__(cls, slug)
        member._value_ = slug
        member.package = package
        member.game_title = game_title
        return member

    def module(self, part: str = "") -> str:
        """The game's package, or one module of it: `module("cli")` is
        "referee.games.debate.cli"."""
        return f"referee.games.{self.package}" + (f".{part}" if part else "")

    @classmethod
    def parse(cls, text: str) -> "GameSlug":
        try:
            return cls(text.strip().lower())
        except ValueError:
            known = ", ".join(g.value for g in cls)
            raise RefereeError(f"unknown game {text!r}; choose one of: {known}") from None


class EventKind(str, Enum):
    """What a row of the log is. Only SETUP and ACTION rows are state nodes."""

    SETUP = "setup"
    ACTION = "action"
    UNDO = "undo"
    REDO = "redo"
    ROLL = "roll"


@dataclass(frozen=True)
class Player:
    name: PlayerName
    faction: str | None = None
    life: int | None = None
    capital: int | None = None
    eliminated: bool = False
    fields: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "faction": self.faction,
            "life": self.life,
            "capital": self.capital,
            "eliminated": self.eliminated,
            "fields": dict(self.fields),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Player":
        return cls(
            PlayerName(data["name"]),
            data.get("faction"),
            data.get("life"),
            data.get("capital"),
            bool(data.get("eliminated", False)),
            dict(data.get("fields") or {}),
        )


@dataclass(frozen=True)
class State:
    """Everything on the table at one moment.

    `turn` counts turns from 1 across the whole game; `round` counts passes
    around the table; `active` indexes `players`. `fields` holds a game's own
    values (board, scores ...), each player's own values live in Player.fields.
    """

    game: GameSlug
    players: tuple[Player, ...]
    turn: int = 1
    round: int = 1
    active: int = 0
    winner: PlayerName | None = None
    crowd: int | None = None
    house_rules: Mapping[str, Any] = field(default_factory=dict)
    fields: Mapping[str, Any] = field(default_factory=dict)

    @property
    def active_player(self) -> Player:
        return self.players[self.active]

    @property
    def finished(self) -> bool:
        """The one test for "the game is over": won (`winner`), or ended by its
        rules another way (`result`: a draw, a tie on points)."""
        return self.winner is not None or self.result is not None

    @property
    def result(self) -> Any:
        """How the rules ended the game, in their words ("a draw: a pass was
        answered by a pass", "Ann wins with 31 points"), kept as a game's
        `fields["result"]`; None while play goes on, and in a game whose rules
        only ever name a winner."""
        return self.fields.get("result") or None

    def index_of(self, name: str) -> int:
        """The index of a player, matched case-insensitively; UnknownPlayer otherwise."""
        for i, player in enumerate(self.players):  # the name as the table spells it: most lookups
            if player.name == name:
                return i
        wanted = name.strip().casefold()
        for i, player in enumerate(self.players):
            if player.name.casefold() == wanted:
                return i
        raise UnknownPlayer(name, [p.name for p in self.players])

    def player(self, name: str) -> Player:
        return self.players[self.index_of(name)]

    def with_player(self, player: Player) -> "State":
        i = self.index_of(player.name)
        return replace(self, players=self.players[:i] + (player,) + self.players[i + 1:])

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game.value,
            "players": [p.to_dict() for p in self.players],
            "turn": self.turn,
            "round": self.round,
            "active": self.active,
            "winner": self.winner,
            "crowd": self.crowd,
            "house_rules": dict(self.house_rules),
            "fields": dict(self.fields),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "State":
        return cls(
            GameSlug(data["game"]),
            tuple(Player.from_dict(p) for p in data["players"]),
            int(data["turn"]),
            int(data["round"]),
            int(data["active"]),
            data.get("winner"),
            data.get("crowd"),
            dict(data.get("house_rules") or {}),
            dict(data.get("fields") or {}),
        )


# The key of an event's args that says how the action reached the referee
# ("phone": from a player's private page under `referee serve --play`). It is
# the log's data, not the rules': the ledger takes it off before the rules
# see the action (`rules_args`) and stores it with the event's args.
VIA = "_via"
VIA_PHONE = "phone"
VIA_TIMER = "timer"  # an answer window's timeout, recorded by the server (serve/timer.py)


def rules_args(args: Mapping[str, Any]) -> dict[str, Any]:
    """An event's args as the rules see them: without the `VIA` marker."""
    return {k: v for k, v in args.items() if k != VIA}


def actor_label(event: Event) -> str | None:
    """The actor as the log shows it: "Ann", or "Ann (phone)" for a move sent from Ann's phone."""
    if event.actor is None:
        return None
    via = event.args.get(VIA) if isinstance(event.args, Mapping) else None
    return f"{event.actor} ({via})" if via else event.actor


@dataclass(frozen=True)
class Action:
    """One thing a scorekeeper asks the rules to do.

    `name` is the command ("life", "end-turn" ...), `args` its arguments as
    JSON-ready values, `actor` the player doing it when one was named, and
    `cards` the revision of every card it refers to.
    """

    name: str
    args: Mapping[str, Any] = field(default_factory=dict)
    actor: PlayerName | None = None
    cards: Mapping[CardId, Revision] = field(default_factory=dict)


PRE_VERSIONS = ""  # Setup.rules of a log written before the rules version was recorded


@dataclass(frozen=True)
class Setup:
    """How a table was started; the first event of every log stores it.

    `rules`: the rules version the table was started under (`GameRules.version`,
    written by `referee new`), so an old table replays under its own rules;
    None for a setup made in code (tests, self-play): the current rules. A log
    written before versions were recorded reads back as PRE_VERSIONS."""

    game: GameSlug
    players: tuple[tuple[str, str | None], ...]
    seed: int | None  # None: the table's dice come from the OS's randomness as they are rolled
    life: int | None = None
    house_rules: Mapping[str, str] = field(default_factory=dict)
    rules: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game.value,
            "players": [[n, f] for n, f in self.players],
            "seed": self.seed,
            "life": self.life,
            "house_rules": dict(self.house_rules),
            "rules": self.rules,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Setup":
        return cls(
            GameSlug(data["game"]),
            tuple((str(n), f) for n, f in data["players"]),
            None if data.get("seed") is None else int(data["seed"]),
            data.get("life"),
            dict(data.get("house_rules") or {}),
            data["rules"] if "rules" in data else PRE_VERSIONS,
        )


@dataclass(frozen=True)
class Event:
    """One row of the append-only log.

    head: the state node in effect after this row (a SETUP or ACTION seq).
    parent: for ACTION rows, the node the action was applied to.
    target: for UNDO/REDO rows, the ACTION row undone or redone.
    redo: the UNDO row on top of the redo stack after this row, if any;
    redo_below: for UNDO rows, the redo top before this row.
    depth: distance of `head` from the setup node.
    rng: how many dice the table's seeded generator has drawn so far.
    """

    seq: Seq
    time: str
    actor: str | None
    kind: EventKind
    action: str
    args: Mapping[str, Any]
    dice: tuple[int, ...]
    cards: Mapping[str, str]
    parent: Seq | None
    head: Seq
    target: Seq | None
    redo: Seq | None
    redo_below: Seq | None
    depth: int
    rng: int
    turn: int
    active: str

    def to_action(self) -> Action:
        """The action this row recorded, as the rules take it: its args without
        the `VIA` marker (how it reached the referee is the log's, not the rules')."""
        actor = PlayerName(self.actor) if self.actor is not None else None
        return Action(self.action, rules_args(self.args), actor, dict(self.cards))

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "time": self.time,
            "actor": self.actor,
            "kind": self.kind.value,
            "action": self.action,
            "args": dict(self.args),
            "dice": list(self.dice),
            "cards": dict(self.cards),
            "parent": self.parent,
            "head": self.head,
            "target": self.target,
            "redo": self.redo,
            "redo_below": self.redo_below,
            "depth": self.depth,
            "rng": self.rng,
            "turn": self.turn,
            "active": self.active,
        }


@dataclass(frozen=True)
class CardUse:
    """A card an action referred to, and any warning about the printed copy."""

    card_id: str
    revision: str
    warning: str | None = None
    copy: int | None = None  # the printed copy a scan named
    scanned: bool = False  # named by its QR text (so its printed revision was checked)
