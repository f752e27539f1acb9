"""GenericRules: the base every game's rules object subclasses.

It holds what every game shares: players and factions at setup, house
rules, the dispatch of actions through the game's table (`actions`, built
from the shared actions in shared.py and the game's own ACTIONS), and every
hook the core calls, each with a default a game overrides only when it needs
to (phase, where_is, public_args, rules_can_decide, visible_state, narrate
and the prompt hooks). What people read of a game (status lines, change
lines, phrases, labels) is its view's, in referee/words/view.py and the
game's words.py, never the rules'.

While a card's prompt waits, other actions are refused (`prompts.check_waiting`).
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

from referee.rules import copy_register
from referee.rules import prompts
from referee.errors import RefereeError, RuleViolation
from referee.rules.facts import Fact
from referee.rules import ActionSpec, Apply, Check, HouseRule, action_table
from referee.rules.shared import SHARED_ACTIONS
from referee.model import Action, GameSlug, Player, PlayerName, Setup, State

# Characters that would steer the text around a name rather than be part of it:
# the bidirectional embeddings, overrides and isolates and the direction marks
# (a right-to-left override in a name reverses everything printed after it).
_STEERING = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _check_name_characters(name: str) -> None:
    for i, ch in enumerate(name, start=1):
        if ch in _STEERING or ord(ch) < 32 or 0x7f <= ord(ch) < 0xa0:
            raise RefereeError(
                f"the player name {name.encode('unicode_escape').decode()!r} holds U+{ord(ch):04X} at "
                f"character {i}, a control or text-direction character, which would garble every "
                f"line the name is printed in; type the name without it")


def check_by_applying(apply: Apply, dice: Sequence[int] = ()) -> Check:
    """The check of an action whose rule is "it must apply": run `apply` on
    the state with `dice` (the check's dice: any dice the action may roll are
    legal, so what they are does not matter) and drop the result. It raises
    exactly what applying raises, so check and apply cannot disagree. The one
    place a game checks by doing (Cold War's actions do the same in their own
`play_action`, stopping before the new State is built): Debate's tactics,
    removals and abilities, Divide & Conquer's steps (a game's pre-checks, a
    phase or a window, stay in its own `check`)."""

    def check(rules: object, state: State, action: Action) -> None:
        apply(rules, state, action, dice)

    check.__qualname__ = check.__name__ = f"check_by_applying({getattr(apply, '__name__', 'apply')})"
    return check


class GenericRules:
    slug: GameSlug
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
    has_hidden_cards: bool = False  # True: visible_state masks cards and `status --reveal` applies
    actions: Mapping[str, ActionSpec] = action_table(SHARED_ACTIONS)  # a game: action_table(SHARED_ACTIONS, ACTIONS)

    @property
    def title(self) -> str:
        """The game's title, from the registry."""
        return self.slug.game_title

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
            _check_name_characters(name)
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

    def default_actor(self, state: State, action: Action) -> PlayerName | None:
        """Who makes `action` when it was typed without --by, recorded in the
        log as its actor; None (the default): nobody is named, and the log
        shows the scorekeeper."""
        return None

    def timed_answer(self, state: State) -> Action | None:
        """The action a player's answer is waited for with now, as it is
        recorded when no answer comes in time (`serve --answer-timeout`), its
        actor the player who did not answer; None (the default): nothing waits
        for one player's answer. Decided from public facts only."""
        return None

    def phase(self, state: State) -> str | None:
        """The named phase of the game's turn structure now, shown by `status`
        and named in refusals; None for a game with no phases."""
        return None

    def hand_size(self, state: State, player: str) -> int | None:
        """How many cards the table counts in `player`'s hand now, a number
        every player may see; None when they hold no hand now (a game without
        hands). A hand kept on a phone (referee.serve.hands) is held to it."""
        return None

    def known_in_hand(self, state: State, player: str) -> list[str]:
        """The cards every player saw go into `player`'s hand and that are
        still there as far as the table knows (one id per copy)."""
        return []

    def cards_from_hand(self, state: State, action: Action) -> list[str] | None:
        """The card ids `action` takes from its actor's hand, when the game
        says; None: every card id among the action's public args (a hand kept
        on a phone drops those it holds)."""
        return None

    def own_face_down(self, state: State, player: str, action: Action) -> list[tuple[str, list[str]]]:
        """The face-down places of `player`'s own that `action` (theirs) names
        ("M2"), each with the card ids lying there: for that player's eyes
        only (their own phone shows them beside the move). None in most games."""
        return []

    def where_is(self, state: State, card_id: str) -> list[str]:
        """Where the copies of a card are on the table now, one entry per copy,
        in words any player may read (never a hand or a face-down identity).
        Scanning a card shows it, so a copy already in play is found at once."""
        return []

    def copy_owner(self, state: State, action: Action) -> str | None:
        """Whose printed deck the copies an action names by number come from:
        None when the game's cards are one shared printing (a copy number
        then names one card at the whole table)."""
        return None

    def copy_hints(self, state: State, action: Action) -> list[str | None]:
        """For each copy the action names by number (in order), a reference
        its new place will contain ("(g3)"), when one command puts several
        copies of a card in several places; None: no hint."""
        return [None for _ in action.args.get(copy_register.ARG) or ()]

    def copy_places(self, state: State, card_id: str, owner: str | None = None) -> list[str]:
        """Where `owner`'s copies of a card are (every copy when None), one
        entry per copy, in words any player may read: by default `where_is`."""
        return self.where_is(state, card_id)

    def public_args(self, action: Action) -> dict:
        """`action.args` as any player may read them. A game with hidden cards
        replaces their ids and names with a placeholder ("a face-down card").
        Used by every player-readable output: echoes, log, undo/redo, replay
        --step and exports without --full."""
        return dict(action.args)

    def hides_cards(self, command: str) -> bool:
        """True if `command` may name cards no other player may see: scan mode
        then echoes each card of it as "a card", never by name (the command's
        own echo names those a player may see). Games without hidden cards:
        never."""
        return False

    def rules_can_decide(self, state: State) -> bool:
        """True while the game's own rules can still decide the winner, so
        `win PLAYER` needs --force (and is logged as an override)."""
        return not state.finished

    def visible_state(self, state: State, reveal: Sequence[str]) -> State:
        """The state as `status` may show it: a game with hidden cards (it sets
        `has_hidden_cards`) masks them, showing only the hidden cards of the
        players in `reveal`. Call it through referee.rules.visible_state."""
        return state

    def narrate(self, state: State, action: Action, dice: Sequence[int]) -> list[Fact]:
        """What an action did, as facts, beyond the changes: its `narrate` in
        the actions table (Culture War tells each battle), else nothing."""
        spec = self.actions.get(action.name)
        return spec.narrate(self, state, action, dice) if spec is not None and spec.narrate else []

    def faction_choices(self) -> tuple[str, ...]:
        """Every faction (country, POTUS, colour) a seat may take, as `--player
        NAME:FACTION` accepts it; () for a game without them. Self-play rotates
        its seats through these."""
        return tuple(self.factions)

    def check_prompt_answer(self, state: State, prompt: prompts.Prompt, answer: str) -> None:
        """A game refuses an answer its rules do not allow (hook)."""

    def apply_prompt_answer(self, state: State, prompt: prompts.Prompt, answer: str,
                            dice: Sequence[int]) -> State:
        """What an answer does beyond settling the prompt (hook; by default nothing:
        the table carried the text out by hand, with the plain commands)."""
        return state

    # ---- actions, through the table ----------------------------------------------

    def spec(self, action: Action) -> ActionSpec:
        """The table entry for `action`; refused when the game has no such action."""
        spec = self.actions.get(action.name)
        if spec is None:
            raise RefereeError(f"{self.slug.value} has no action called {action.name!r}")
        return spec

    def dice_needed(self, state: State, action: Action) -> tuple[int, ...]:
        spec = self.actions.get(action.name)
        return spec.dice(self, state, action) if spec is not None and spec.dice else ()

    def check(self, state: State, action: Action) -> None:
        if state.winner is not None:  # won: a game ended without a winner (a draw) says what it allows
            raise RuleViolation(
                "game over", f"the game is over and {state.winner} has won; undo to go back"
            )
        if action.actor is not None:
            actor = state.player(action.actor)
            if actor.eliminated:
                raise RuleViolation("elimination", f"{actor.name} is out of the game and cannot act")
        spec = self.spec(action)
        prompts.check_waiting(state, action.name)
        spec.check(self, state, action)

    def apply(self, state: State, action: Action, dice: Sequence[int]) -> State:
        """The state after `action`: the game's own rules (`game_apply`), then
        the printed copies named by number followed to where they went."""
        return self._tracked(state, action, self.game_apply(state, action, dice))

    def play(self, state: State, action: Action, dice: Sequence[int]) -> tuple[State, list[Fact]]:
        """`apply`, and what the action did as facts (what `narrate` tells),
        from one run of the rules where the game can (`game_play`): the
        ledger plays a new action with it, so an echo never runs it again."""
        after, facts = self.game_play(state, action, dice)
        return self._tracked(state, action, after), facts

    def play_drawing(self, state: State, action: Action, dice: Callable[[], int]) -> tuple[Action, State, list[Fact]]:
        """Check and play an action that takes as many dice as it rolls, with
        `dice` handing them out (dice.Drawn): the action as the log records it
        (its dice counted), the state after it and its facts. Only a game with
        such actions has it (Culture War's battles and roll-off)."""
        self.spec(action)  # a game without the action says so
        raise RefereeError(f"{self.slug.value}'s {action.name!r} takes a fixed number of dice")

    def _tracked(self, state: State, action: Action, after: State) -> State:
        if copy_register.KEY not in state.fields and not action.args.get(copy_register.ARG):
            return after
        return copy_register.track(self, state, action, after)

    def game_play(self, state: State, action: Action, dice: Sequence[int]) -> tuple[State, list[Fact]]:
        """The game's own rules for `action` and its facts: the action's
        `play` when its table entry has one, else `game_apply` then `narrate`."""
        spec = self.spec(action)
        if spec.play is not None:
            return spec.play(self, state, action, dice)
        return self.game_apply(state, action, dice), self.narrate(state, action, dice)

    def game_apply(self, state: State, action: Action, dice: Sequence[int]) -> State:
        """The game's own rules for `action` (a game overrides this, not `apply`)."""
        return self.spec(action).apply(self, state, action, dice)
