"""The debate game at the table: two players, a POTUS each, fortitude, the
forum of 2 x 7 threads, the crowd track from -30 to +30, each player's
15-card tactic deck with its draw pile, hand and discard pile, and the
phases of a round.

State:
- each player's `fields`: fortitude, potus (name), gf_bonus, bf_bonus;
- `fields.potus`: name -> the POTUS card's stats (or null);
- `fields.forum`, `fields.columns`, `fields.protected`: see forum.py;
- `fields.piles`: each player's deck, draw pile, hand and discard pile (piles.py);
- `fields.phase`, `opener`, `opened`, `held`, `argued`, `waived`, `begun`:
  the round's phase and what it has seen so far (phases.py);
- `fields.used`: name -> {"round": n} or {"match": true}, POTUS abilities used;
- `fields.tiebreaker`: the next round end breaks a tie;
- `fields.crowd_at_round_end`: the crowd once the pending crowd work lands;
- `state.crowd`: the crowd now, with every instant shift already in it;
  the 1-point crowd work of devices (and round-end argument shifts) waits in
  the forum and lands at round end, so removing a device simply takes it away.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Sequence

from referee.rules.copies import check_free_copy
from referee.errors import RuleViolation
from referee.rules import ActionSpec, HouseRule, action_table
from referee.games.debate import actions, piles
from referee.games.debate import forum as fm
from referee.games.debate import phases as ph
from referee.games.debate.cards import find_potus
from referee.rules.generic import GenericRules, check_by_applying
from referee.rules.shared import SHARED_ACTIONS
from referee.model import Action, GameSlug, Setup, State

CROWD_LIMIT = fm.CROWD_LIMIT
# House rule default: the rulebook names no starting fortitude but says
# matches usually last 3-4 rounds. Seeded matches between the two starter
# decks (the first player opening 4 or more threads a round, the second
# answering them) lose about 15-20 fortitude a round per debater (own costs
# plus overage taken), so 60 ends nearly 9 in 10 of them after round 3 or 4;
# opening only 3 threads a round, 8 in 10
# (tests/referee/test_rules_debate.py plays those matches to check it).
STARTING_FORTITUDE = 60


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("end-turn", actions.check_end_turn, actions.apply_end_turn),  # the next phase
    ActionSpec("no-argument", actions.check_no_argument, actions.apply_no_argument),
    ActionSpec("deck", actions.check_deck, actions.apply_deck, narrate=actions.narrate_deck),
    ActionSpec("potus", actions.check_potus, actions.apply_potus),
    ActionSpec("argue", check_by_applying(actions.apply_tactic), actions.apply_tactic),
    ActionSpec("device", check_by_applying(actions.apply_tactic), actions.apply_tactic),
    ActionSpec("destroy", check_by_applying(actions.apply_remove), actions.apply_remove),
    ActionSpec("return", check_by_applying(actions.apply_remove), actions.apply_remove),
    ActionSpec("ability", check_by_applying(actions.apply_ability), actions.apply_ability),
    ActionSpec("fortitude", actions.check_fortitude, actions.apply_fortitude),
    ActionSpec("round-end", actions.check_round_end, actions.apply_round_end),
)


class DebateRules(GenericRules):
    slug = GameSlug.DEBATE
    version = "debate-4"
    min_players, max_players = 2, 2
    crowd_limit = CROWD_LIMIT
    faction_word = "POTUS"
    has_hidden_cards = True  # hands, draw piles and the deck lists
    actions = action_table(SHARED_ACTIONS, ACTIONS)
    house_rules = {
        "starting-fortitude": HouseRule(
            "starting-fortitude", STARTING_FORTITUDE,
            "fortitude each debater starts with; 60 gives matches of 3-4 rounds with the starter decks",
            minimum=1, maximum=500,
        ),
        "first-player-bonus": HouseRule(
            "first-player-bonus", 0, "more fortitude for the first player (who opens round one) at the start, "
            "for a table that finds the opener loses more often; referee tune --target seat=fair measures it",
            minimum=0, maximum=100,
        ),
        "crowd-spread": HouseRule(
            "crowd-spread", 10, "the crowd starts at a random value from -N to +N", minimum=0, maximum=CROWD_LIMIT,
        ),
        "starting-crowd": HouseRule(
            "starting-crowd", None, "a crowd to start at instead of a random one; default: random",
            minimum=-CROWD_LIMIT, maximum=CROWD_LIMIT,
        ),
        "open-threads": HouseRule(
            "open-threads", "opener",
            "who opens threads in phase one: opener = only the round's first player, the other answers "
            "them; both = the second player may also open threads in empty columns",
            kind=str, choices=ph.THREADS_CHOICES,
        ),
    }

    # ---- setup -------------------------------------------------------------

    def faction_choices(self) -> tuple[str, ...]:
        from referee.cards.index import load_index, project_root  # lazy: the card index, only for self-play's seats

        index = load_index(project_root())
        return tuple(sorted(c.id for c in index.cards.values() if c.game == "debate" and c.type == "potus"))

    def _spread(self, setup: Setup) -> int:
        rules = self._house_rules(setup)
        if rules.get("starting-crowd") is not None:
            return 0
        return int(rules["crowd-spread"])  # type: ignore[arg-type]

    def setup_dice(self, setup: Setup) -> tuple[int, ...]:
        spread = self._spread(setup)
        return (2 * spread + 1,) if spread else ()

    def setup(self, setup: Setup, dice: Sequence[int]) -> State:
        spread = self._spread(setup)
        state = super().setup(setup, dice)
        rules = dict(state.house_rules)
        fortitude = int(rules["starting-fortitude"])  # type: ignore[arg-type]
        chosen = rules.get("starting-crowd")
        crowd = int(chosen) if chosen is not None else (dice[0] - spread - 1 if spread else 0)  # type: ignore[arg-type]
        bonus = int(rules["first-player-bonus"])  # type: ignore[arg-type]
        potus: dict[str, Any] = {}
        players = []
        for seat, player in enumerate(state.players):
            card = find_potus(player.faction) if player.faction else None
            if card is not None:
                taken = [f"{n}'s POTUS" for n, c in potus.items() if c and c["id"] == card["id"]]
                check_free_copy(card["id"], card["name"], card.get("quantity", 1), taken)
            potus[player.name] = card
            start = fortitude + (bonus if seat == 0 else 0)  # seat 1 opens round one (round_fields below)
            players.append(replace(player, fields=actions.player_fields(start, card)))
        names = [p.name for p in players]
        stacks = {n: piles.new_pile() for n in names}
        for pile in stacks.values():
            piles.draw_up(pile)
        return _with_projection(replace(state, players=tuple(players), crowd=crowd, house_rules=rules, fields={
            "potus": potus, "forum": fm.empty_forum(names), "columns": {n: [0] * fm.THREADS for n in names},
            "protected": [], "used": {}, "tiebreaker": False, "piles": stacks, "begun": False,
            **ph.round_fields(names[0], names),
        }))

    # ---- hooks the core calls ------------------------------------------------

    def phase(self, state: State) -> str | None:
        """The phase now, e.g. "cross-examination (Ana)"."""
        return ph.describe(state)

    def known_in_hand(self, state: State, player: str) -> list[str]:
        pile = (state.fields.get("piles") or {}).get(state.player(player).name)
        return list(pile["seen"]) if pile else []

    def hand_size(self, state: State, player: str) -> int | None:
        pile = (state.fields.get("piles") or {}).get(state.player(player).name)
        return int(pile["hand"]) if pile else 0

    def where_is(self, state: State, card_id: str) -> list[str]:
        """Every copy whose place every player knows: the forum, the face-up
        discard piles, and a hand the card was seen going back to (from the
        forum or a discard pile, in front of both players: the referee's
        `seen`, which only public moves change). A card drawn unseen is never listed."""
        return piles.copy_places(state.fields, card_id)

    def public_args(self, action: Action) -> dict:
        """A `deck` action names the 15 cards of a hidden deck: players read only the count."""
        args = dict(action.args)
        if action.name == "deck":
            deck = args.pop("_deck", None) or ()
            args["deck"] = f"{len(deck)} tactics (hidden)"
        return args

    def hides_cards(self, command: str) -> bool:
        """The cards of a `deck` are the hidden deck list."""
        return command == "deck"

    # rules_can_decide: round end always decides a debate (the higher fortitude
    # once one is at 0 or below, or a tiebreaker round), so only a finished
    # match may be decided by hand without --force (the default).

    def visible_state(self, state: State, reveal: Sequence[str]) -> State:
        """Counts for hands and draw piles; known cards in hand and the deck
        lists only for the players in `reveal` ("all" for both)."""
        stacks = state.fields.get("piles") or {}
        if not stacks or not all(piles.is_private(p) for p in stacks.values()):
            return state
        names = [p.name for p in state.players]
        shown = set(names) if any(r.strip().lower() == "all" for r in reveal) else {state.player(r).name for r in reveal}
        masked = {n: piles.public(stacks[n], n in shown) for n in names}
        return replace(state, fields={**state.fields, "piles": masked})

    # ---- checking and applying -----------------------------------------------

    def check(self, state: State, action: Action) -> None:
        """Every refusal names the rule and the phase the round is in."""
        try:
            super().check(state, action)
        except (KeyError, TypeError, AttributeError, ValueError) as exc:
            # an action no command writes (a command always gives its arguments, of their types)
            raise RuleViolation("command", f"{action.name} with arguments it cannot take "
                                f"({type(exc).__name__}: {exc})") from None
        except RuleViolation as refusal:
            now = ph.describe(state)
            if state.finished or now in refusal.message:
                raise
            raise RuleViolation(refusal.rule, f"{refusal.message} (now: {now})") from None

    def game_apply(self, state: State, action: Action, dice: Sequence[int]) -> State:
        after = super().game_apply(state, action, dice)
        if action.name not in ("crowd", "fortitude", "win", "round-end", "potus", "deck"):
            after = replace(after, fields={**after.fields, "begun": True})
        return _with_projection(after)

    def report(self, state: State) -> fm.Report:
        """What round end would do to the table now."""
        return actions.round_report(state)

    # ---- text ------------------------------------------------------------------


def _with_projection(state: State) -> State:
    """Keep `crowd_at_round_end`: the crowd once the pending crowd work lands."""
    projected = fm.projected_crowd(state.crowd or 0, state.fields["forum"], state.fields.get("potus") or {})
    return replace(state, fields={**state.fields, "crowd_at_round_end": projected})


RULES = DebateRules()
