"""Culture War's card plays, for the move generator (legal.py): each card
of a known hand on every target it may take (`targets`, as the play step
reads `--on`), Real Estate from its face-up pile, and, for a hand the
referee cannot see, one `<CARD>` move per kind and target offering the
printed cards the rules accept played there (`placeholder`). Mixed into
`legal._Gen`, whose `ok`, `add`, `known` and `out` these methods use.
"""
from __future__ import annotations

from typing import Any, Mapping

from referee.games.culture_war.actions import MOD_KINDS, NOW_OF, targets_of, unit_side
from referee.games.culture_war.battle.attacks import WINDOW
from referee.games.culture_war.effects import static as effects
from referee.games.culture_war.table.board import PLAIN
from referee.games.culture_war.table.cards import card, deck_cards, estate_cards
from referee.model import Action, PlayerName
from referee.rules.legal import CARD_PLACEHOLDER, Candidate, CandidateRun, Move, accepts

TIMED = ("unit", "real-estate", "mod", "happening", "operation")  # own turn, before the first attack
VERB = {"unit": "deploy", "real-estate": "buy"}  # the command that plays a card of a type (else `play`)
TYPE_WORDS = {"unit": "a unit", "mod": "a Mod", "flash": "a Flash", "happening": "a Happening",
              "operation": "an Operation", "real-estate": "Real Estate"}


class CardMoves:
    """The card plays of `legal._Gen` (see the module docstring)."""

    def cards(self, flash_only: bool) -> None:
        """Cards from the hand, and Real Estate from its pile."""
        state, board, name = self.state, self.board, self.name
        timed = not flash_only and name == board.active and not board.f.get("attacks")
        kinds = ("flash", *TIMED) if timed else ("flash",)
        me = state.player(name)
        held = int(me.fields.get("hand", 1)) if "hand" in me.fields else None
        if "real-estate" in kinds:
            self.estates()
            self.flush_plays()
        if held is not None and held < 1:
            return
        if self.hand is None:
            for kind in kinds:
                if kind != "real-estate":
                    self.placeholder(kind)
            return
        for card_id in dict.fromkeys(self.hand):
            c = card(card_id)
            if c["type"] in kinds and c["type"] != "real-estate":
                self.play(c)
        self.flush_plays()

    def flush_plays(self) -> None:
        """Lazy: the plays `play` has found so far, as one run (in the same order)."""
        plays, self._plays = self._plays, []
        if plays:
            self.out.append(CandidateRun(len(plays), lambda i: self.played(*plays[i], checked=True)))

    def capital(self, deck: str | None) -> tuple[int, int]:
        """(own coins, coins of other factions) for a card of faction `deck`."""
        if deck not in self._capital:
            self._capital[deck] = self._count_capital(deck)
        return self._capital[deck]

    def _count_capital(self, deck: str | None) -> tuple[int, int]:
        mine = foreign = 0
        for _, coins in self.board.sources(self.name):
            for f, n in coins.items():
                if f == PLAIN or deck is None or f == deck:
                    mine += n
                else:
                    foreign += n
        return mine, foreign

    def affords(self, cost: int, deck: str | None) -> bool:
        mine, foreign = self.capital(deck)
        return cost <= 0 or mine + min(foreign, cost // 2) >= cost

    def estates(self) -> None:
        name = self.name
        faction = self.state.player(name).faction
        mixed = self.state.house_rules.get("decks", "faction") != "faction" or not faction
        cost = effects.estate_cost(self.board, name)
        for c in estate_cards(None if mixed else faction):
            if self.affords(cost, c.get("deck")):
                self.play(c)

    def play(self, c: Mapping[str, Any]) -> None:
        """Every target a card may take, each checked by the rules."""
        board, name, kind = self.board, self.name, c["type"]
        if kind != "real-estate":
            cost = effects.cost_parts(board, name, kind, int(c.get("cost") or 0))[0]
            if not self.affords(cost, c.get("deck")):
                return
        ons = self.targets(c, _played_now(c))
        if self.lazy:  # made only when drawn, each its own check (`flush_plays`)
            self._plays += [(c, on) for on in ons]
            return
        for on in ons:
            action = _play_action(name, c, on)
            if self.ok(action):
                self.out.append(self.played(c, on, action))

    def played(self, c: Mapping[str, Any], on: str | None, action: Action | None = None,
               checked: bool = False) -> Candidate:
        """Card `c` played `--on` the target: its candidate (`checked`: the
        action is its own check, else it is known to be legal)."""
        name = self.name
        action = action or _play_action(name, c, on)
        by = "" if name == self.board.active else f" --by {name}"
        command = f"{VERB.get(c['type'], 'play')} {c['id']}" + (f" --on {on}" if on is not None else "") + by
        return Candidate(action, action if checked else None,
                         lambda: Move(action, command, action.name, self.words(action), {}))

    def targets(self, c: Mapping[str, Any], now: list[dict[str, Any]]) -> list[str | None]:
        """What `--on` may name for this card (None: nothing), as the play step reads it."""
        board = self.board
        wanted = targets_of(now)
        kinds: set[str] = set()
        if c["type"] == "mod":
            kinds |= set(MOD_KINDS.get(c.get("target") or "any", MOD_KINDS["any"]))
        if "player" in wanted:
            if kinds:  # a Mod naming a player too: one --on cannot be both
                return []
            return [n for n in board.live()]
        if "unit" in wanted:
            kinds.add("unit")
        if "estate" in wanted:
            kinds.add("estate")
        if not kinds:
            return [None]
        handles = [h for h, p in effects.pieces(board) if p["kind"] in kinds]
        if kinds == {"unit"} and not any(p["kind"] == "unit" for p in board.pieces.values()):
            return [None]  # a unit target with no unit in play: played for nothing
        if any(effects.when_of(e) == "before-battle" for e in now):
            return self.in_battle(now)
        return handles

    def in_battle(self, now: list[dict[str, Any]]) -> list[str | None]:
        """A battle Flash's targets: without --on it finds the unit of the
        waiting battle that its card names (the player's own, or the enemy's:
        `battle_flash_target`), and naming that unit is the same move; only a
        card naming neither side may be aimed at the other unit of the battle."""
        if unit_side(now) is not None:
            return [None]
        window = self.board.f.get(WINDOW) or {}
        sides = [window.get("attacker"), window.get("defender")]
        return [None, *(str(h) for h in sides if h in self.board.pieces and self.board.pieces[h]["owner"] != self.name)]

    def placeholder(self, kind: str) -> None:
        """The cards of `kind` the hand may hold, by what they may cost: one
        `<CARD>` move for each target such a card may take (`--on` a piece
        or a player, or none), each offering the printed cards of the
        player's deck that the rules accept played so (`details["cards"]`).
        Only public facts are read: the deck's printed list, the board."""
        name = self.name
        faction = self.state.player(name).faction
        top = 0
        for printed in range(0, 31):
            if self.affords(effects.cost_parts(self.board, name, kind, printed)[0], faction):
                top = printed
        fits: dict[str | None, list[str]] = {}
        for c in self.printed(kind):
            if not self.affords(effects.cost_parts(self.board, name, kind, int(c.get("cost") or 0))[0], c.get("deck")):
                continue
            for on in self.targets(c, _played_now(c)):
                if accepts(self.rules, self.state, _play_action(name, c, on)):  # the rules' word, not a guess
                    fits.setdefault(on, []).append(c["id"])
        order = {on: i for i, on in enumerate([None, *(h for h, _ in effects.pieces(self.board)), *self.board.live()])}
        verb = VERB.get(kind, "play")
        by = "" if name == self.board.active else f" --by {name}"
        doing = "deploy" if kind == "unit" else "play"
        for on in sorted(fits, key=lambda o: order.get(o, len(order))):
            where = "" if on is None else f" --on {on}"
            aimed = "" if on is None else f" on {self.aimed(on)}"
            text = f"{name}: {doing} {TYPE_WORDS[kind]} costing up to {top} from the hand{aimed}"
            self.known(Move(None, f"{verb} {CARD_PLACEHOLDER}{where}{by}", "play", text,
                            {"type": kind, "max_cost": top, "placeholder": "card in hand", "on": on,
                             "cards": fits[on]}))

    def printed(self, kind: str) -> list[Mapping[str, Any]]:
        """The printed cards of `kind` a hand of this player's may hold, once each:
        their faction deck's (every deck's with mixed decks)."""
        faction = self.state.player(self.name).faction
        mixed = self.state.house_rules.get("decks", "faction") != "faction" or not faction
        ids = dict.fromkeys(deck_cards(None if mixed else faction))
        return [c for c in map(card, ids) if c["type"] == kind]

    def aimed(self, on: str) -> str:
        """A target in words: a piece by its label, a player by name."""
        return self.board.label(on) if on in self.board.pieces else on


# A card's effects as it is played, by the card's id(): the printed card
# does not change while it is held here (the entry keeps it alive).
_NOW: dict[int, tuple[Mapping[str, Any], list[dict[str, Any]]]] = {}


def _played_now(c: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The effects of card `c` that act as it is played (NOW_OF), read once per card."""
    found = _NOW.get(id(c))
    if found is None or found[0] is not c:
        found = _NOW[id(c)] = (c, [e for e in effects.read(c.get("effects"))
                                   if effects.when_of(e) in NOW_OF.get(c["type"], ())])
    return found[1]


def _play_action(name: str, c: Mapping[str, Any], on: str | None) -> Action:
    args: dict[str, Any] = {"player": name, "card": c["id"], "_card": c}
    if on is not None:
        args["on"] = on
    return Action("play", args, PlayerName(name))
