"""Rules every game shares: players, turns, life, capital, crowd, a winner.

Each game module subclasses `GenericRules`, sets what its table keeps (life,
capital, a crowd track) and adds its own actions by extending `check`,
`apply` and `dice_needed`. Actions understood here:

    life      {"player", "by" | "to", "reason"?}   only where the game keeps life
    capital   {"player", "by" | "to", "reason"?}   only where the game keeps capital
    crowd     {"by" | "to", "reason"?}             only where the game has a crowd track
    end-turn  {}                                   play passes to the next player still in
    win       {"player", "force"?}                   the table declares a winner: refused while the
                                                   rules can still decide, unless forced (an override)
    resolve   {"prompt"?, "answer"?}                 answers a card's prompt (referee/prompts.py)

While a card's prompt waits, other actions are refused (`prompts.check_waiting`).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Mapping, Sequence

from referee.errors import RefereeError, RuleViolation
from referee import prompts
from referee.games import HouseRule
from referee.wording import SHARED, Phrase
from referee.model import Action, GameSlug, Player, PlayerName, Setup, State

MAX_AMOUNT = 1_000_000


class GenericRules:
    slug: GameSlug
    title: str = ""
    version: str = "generic-1"
    min_players: int = 2
    max_players: int = 8
    has_life: bool = False
    has_capital: bool = False
    out_at_zero_life: bool = False  # a player whose life reaches 0 is eliminated
    crowd_limit: int | None = None  # a crowd track from -limit to +limit
    factions: tuple[str, ...] = ()  # when set, a faction must be one of these
    faction_word: str = "faction"
    house_rules: Mapping[str, HouseRule] = {}
    phrases: Mapping[str, Phrase] = SHARED  # the actions in words: SHARED plus the game's own PHRASES

    tally: tuple[str, ...] = ()  # each player's own scores the log reports changes of
    quiet: tuple[str, ...] = ()  # each player's bookkeeping fields: in status --json, not in the table

    def narrate(self, state: State, action: Action, dice: Sequence[int]) -> list[str]:
        """What an action did, in the game's words, replayed from the state before it
        (the first lines of its echo); the table's changes follow them."""
        return []

    def covered(self, notes: Sequence[str], line: str) -> bool:
        """Whether a change line only repeats what `notes` already say."""
        return False

    def log_outcome(self, before: State, event: object, after: State) -> list[str]:
        """The game's own account of what an action did, for its log row (e.g. a battle's dice)."""
        return []

    def pieces(self, state: State) -> list[tuple[str, str]]:
        """What a command may name on the table, for Tab completion: (what to
        type, what it is), e.g. ("ann/window-smasher", "#5 Window Smasher")."""
        return []

    def label(self, state: State, key: str, value: object) -> str | None:
        """A thing on the table named in words (a handle, a group) for a phrase, or None."""
        return None

    # ---- setup -------------------------------------------------------------

    def setup_dice(self, setup: Setup) -> tuple[int, ...]:
        return ()

    def setup(self, setup: Setup, dice: Sequence[int]) -> State:
        self._check_players(setup)
        rules = self._house_rules(setup)
        life = self.starting_life(setup, rules)
        capital = self.starting_capital(rules)
        if "starting-life" in rules:
            rules["starting-life"] = life  # record the value in force, however it was chosen
        players = tuple(
            Player(PlayerName(name), self._faction(faction), life, capital) for name, faction in setup.players
        )
        return State(self.slug, players, house_rules=rules)

    def starting_life(self, setup: Setup, rules: Mapping[str, object]) -> int | None:
        if setup.life is not None and not self.has_life:
            raise RuleViolation("life", f"{self.slug.value} keeps no life total, so --life does not apply")
        return None

    def starting_capital(self, rules: Mapping[str, object]) -> int | None:
        return None

    def _check_players(self, setup: Setup) -> None:
        count = len(setup.players)
        if not self.min_players <= count <= self.max_players:
            span = (
                f"exactly {self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise RuleViolation("player count", f"{self.slug.value} is played by {span} players, not {count}")
        seen: set[str] = set()
        for name, _ in setup.players:
            if not name.strip():
                raise RefereeError("a player needs a name: use --player NAME or --player NAME:FACTION")
            if name.casefold() in seen:
                raise RefereeError(f"two players are called {name!r}; give each player a different name")
            seen.add(name.casefold())

    def _faction(self, faction: str | None) -> str | None:
        if faction is None or not self.factions:
            return faction
        wanted = faction.strip().lower()
        if wanted not in self.factions:
            raise RuleViolation(
                self.faction_word,
                f"{faction!r} is not a {self.faction_word} in {self.slug.value}; choose one of: "
                + ", ".join(self.factions),
            )
        return wanted

    def _house_rules(self, setup: Setup) -> dict[str, object]:
        values: dict[str, object] = {key: rule.default for key, rule in self.house_rules.items()}
        for key, text in setup.house_rules.items():
            rule = self.house_rules.get(key)
            if rule is None:
                known = ", ".join(self.house_rules) or "none"
                raise RefereeError(f"{self.slug.value} has no house rule {key!r} (its house rules: {known})")
            values[key] = rule.parse(text)
        return values

    # ---- hooks the core calls (a game overrides what it needs) ----------------

    def phase(self, state: State) -> str | None:
        """The named phase of the game's turn structure now, shown by `status`
        and named in refusals; None for a game with no phases."""
        return None

    def where_is(self, state: State, card_id: str) -> list[str]:
        """Where the copies of a card are on the table now, one entry per copy,
        in words any player may read (never a hand or a face-down identity).
        Scanning a card shows it, so a copy already in play is found at once."""
        return []

    def public_args(self, action: Action) -> dict:
        """`action.args` as any player may read them. A game with hidden cards
        replaces their ids and names with a placeholder ("a face-down card").
        Used by every player-readable output: echoes, log, undo/redo, replay
        --step and exports without --full."""
        return dict(action.args)

    def rules_can_decide(self, state: State) -> bool:
        """True while the game's own rules can still decide the winner, so
        `win PLAYER` needs --force (and is logged as an override)."""
        return not state.finished

    # ---- actions -------------------------------------------------------------

    def dice_needed(self, state: State, action: Action) -> tuple[int, ...]:
        return ()

    def check(self, state: State, action: Action) -> None:
        if state.winner is not None:
            raise RuleViolation(
                "game over", f"the game is over and {state.winner} has won; undo to go back"
            )
        if action.actor is not None:
            actor = state.player(action.actor)
            if actor.eliminated:
                raise RuleViolation("elimination", f"{actor.name} is out of the game and cannot act")
        handler = getattr(self, "check_" + action.name.replace("-", "_"), None)
        if handler is None:
            raise RefereeError(f"{self.slug.value} has no action called {action.name!r}")
        prompts.check_waiting(state, action.name)
        handler(state, action)

    def apply(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return getattr(self, "apply_" + action.name.replace("-", "_"))(state, action, dice)

    # life ----------------------------------------------------------------

    def check_life(self, state: State, action: Action) -> None:
        if not self.has_life:
            raise RuleViolation("life", f"{self.slug.value} keeps no life total")
        player = self._live_player(state, action.args["player"])
        _check_change(action.args, f"{player.name}'s life")

    def apply_life(self, state: State, action: Action, dice: Sequence[int]) -> State:
        player = state.player(action.args["player"])
        life = max(0, _changed(player.life or 0, action.args))
        out = self.out_at_zero_life and life == 0
        state = state.with_player(replace(player, life=life, eliminated=player.eliminated or out))
        return self._decide_by_elimination(state)

    def _decide_by_elimination(self, state: State) -> State:
        """When elimination decides the game, the last player standing wins."""
        standing = [p for p in state.players if not p.eliminated]
        if self.out_at_zero_life and len(standing) == 1 and state.winner is None:
            return replace(state, winner=standing[0].name)
        return state

    # capital ---------------------------------------------------------------

    def check_capital(self, state: State, action: Action) -> None:
        if not self.has_capital:
            raise RuleViolation("capital", f"{self.slug.value} keeps no capital")
        player = self._live_player(state, action.args["player"])
        _check_change(action.args, f"{player.name}'s capital")
        after = _changed(player.capital or 0, action.args)
        if after < 0:
            raise RuleViolation(
                "capital cannot go below 0",
                f"{player.name} has {player.capital} capital; that change would leave {after}",
            )

    def apply_capital(self, state: State, action: Action, dice: Sequence[int]) -> State:
        player = state.player(action.args["player"])
        return state.with_player(replace(player, capital=_changed(player.capital or 0, action.args)))

    # crowd -----------------------------------------------------------------

    def check_crowd(self, state: State, action: Action) -> None:
        if self.crowd_limit is None:
            raise RuleViolation("crowd", f"{self.slug.value} has no crowd track")
        _check_change(action.args, "the crowd", allow_negative=True)
        target = action.args.get("to")
        if target is not None and abs(target) > self.crowd_limit:
            raise RuleViolation(
                "crowd track",
                f"the crowd runs from -{self.crowd_limit} to +{self.crowd_limit}; it cannot be set to {target}",
            )

    def apply_crowd(self, state: State, action: Action, dice: Sequence[int]) -> State:
        limit = self.crowd_limit or 0
        crowd = max(-limit, min(limit, _changed(state.crowd or 0, action.args)))
        return replace(state, crowd=crowd)

    # turns and the end -----------------------------------------------------

    def check_end_turn(self, state: State, action: Action) -> None:
        active = state.active_player
        if action.actor is not None and state.player(action.actor).name != active.name:
            actor = state.player(action.actor).name
            raise RuleViolation("turn order", f"it is {active.name}'s turn, so {actor} cannot end it")

    def apply_end_turn(self, state: State, action: Action, dice: Sequence[int]) -> State:
        count = len(state.players)
        nxt = state.active
        for _ in range(count):
            nxt = (nxt + 1) % count
            if not state.players[nxt].eliminated:
                break
        wrapped = nxt <= state.active
        return replace(state, active=nxt, turn=state.turn + 1, round=state.round + (1 if wrapped else 0))

    def check_win(self, state: State, action: Action) -> None:
        player = self._live_player(state, action.args["player"])
        if not action.args.get("force") and self.rules_can_decide(state):
            raise RuleViolation(
                "the rules decide the winner",
                f"the rules of {self.title or self.slug.value} can still decide this game, so {player.name} "
                f"is not declared the winner; `win {player.name} --force` declares it by hand, "
                "logged as an override",
            )

    def apply_win(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return replace(state, winner=state.player(action.args["player"]).name)

    # prompts ----------------------------------------------------------------

    def check_resolve(self, state: State, action: Action) -> None:
        prompt = prompts.find(state, action.args.get("prompt"))
        answer = prompts.check_answer(prompt, action.args.get("answer"))
        if action.actor is not None and state.player(action.actor).name != prompt.player:
            raise RuleViolation("card text", f"prompt {prompt.number} is for {prompt.player}, not {action.actor}")
        self.check_prompt_answer(state, prompt, answer)

    def apply_resolve(self, state: State, action: Action, dice: Sequence[int]) -> State:
        prompt = prompts.find(state, action.args.get("prompt"))
        answer = prompts.check_answer(prompt, action.args.get("answer"))
        return self.apply_prompt_answer(prompts.settle(state, prompt.number), prompt, answer, dice)

    def check_prompt_answer(self, state: State, prompt: "prompts.Prompt", answer: str) -> None:
        """A game refuses an answer its rules do not allow (hook)."""

    def apply_prompt_answer(self, state: State, prompt: "prompts.Prompt", answer: str,
                            dice: Sequence[int]) -> State:
        """What an answer does beyond settling the prompt (hook; by default nothing:
        the table carried the text out by hand, with the plain commands)."""
        return state

    # helpers ----------------------------------------------------------------

    def _live_player(self, state: State, name: str) -> Player:
        player = state.player(name)
        if player.eliminated:
            raise RuleViolation("elimination", f"{player.name} is out of the game")
        return player


def _check_change(args: Mapping[str, object], what: str, allow_negative: bool = False) -> None:
    """An action changes a number either `by` a signed amount or `to` a value."""
    by, to = args.get("by"), args.get("to")
    if (by is None) == (to is None):
        raise RefereeError(f"{what}: give exactly one change, like -5, +3 or =10")
    value = by if by is not None else to
    if not isinstance(value, int) or isinstance(value, bool) or abs(value) > MAX_AMOUNT:
        raise RefereeError(f"{what}: {value!r} is not a sensible amount")
    if by == 0:
        raise RefereeError(f"{what}: a change of 0 changes nothing")
    if to is not None and to < 0 and not allow_negative:
        raise RefereeError(f"{what} cannot be set below 0 (asked for {to})")


def _changed(current: int, args: Mapping[str, object]) -> int:
    to = args.get("to")
    return int(to) if to is not None else current + int(args["by"])  # type: ignore[arg-type]
