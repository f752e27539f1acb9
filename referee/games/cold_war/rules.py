"""15 Minute Cold War rules: every action is checked and applied by one pure
function over a copy of the state (`Play`), so check and apply never disagree.

A round: each player records the nine cards of their setup (six placed,
three discarded) and draws a hand of five; `start` names who plays first,
then turns go round the table (phases.py). A turn is up to three cards: at
least one discard and at most two others (a combined attack is two; a
Propaganda challenge counts as one); regrouping is free; the mover then
draws back up to five (zones.py). A Nuclear Triad is the whole turn. A beaten
Leader flips to its Fallen Leader side and draws one card a turn at a target.
When one Leader is left the round is scored 10/6/3/2 by finishing order, plus
1 for each Leader a player beat while Fallen; after the last round the best
total wins.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from referee.rules import prompts
from referee.errors import RuleViolation
from referee.rules import ActionSpec, HouseRule, action_table
from referee.games.cold_war import actions, answer, attacks, moves, phases, visible
from referee.games.cold_war import window as W
from referee.games.cold_war import cards as carddata
from referee.games.cold_war import desk as D
from referee.games.cold_war import zones as Z
from referee.games.cold_war.hidden import PLACEHOLDER, public_args as _public_args
from referee.games.cold_war.play import Play
from referee.rules.generic import GenericRules
from referee.rules.shared import SHARED_ACTIONS
from referee.model import Action, GameSlug, Player, PlayerName, Setup, State

SWITCHES = ("on", "off")


def play_action(name: str, act: Callable[[Play], None]) -> ActionSpec:
    """A Cold War action: refused while a card's prompt waits for `resolve`,
    checked against the phase, then worked out on a `Play` (a private copy of
    the state) by `act`. Checking and applying run the same function, so they
    never disagree. The check stops where the action has been worked out:
    building the new State from it (`Play.done`) refuses nothing."""

    def worked_out(state: State, action: Action) -> Play:
        prompts.check_waiting(state, action.name)
        phases.check(state, action)
        play = Play(state, action)
        act(play)
        return play

    def run(rules: Any, state: State, action: Action, dice: Sequence[int] = ()) -> State:
        return worked_out(state, action).done()

    def check(rules: Any, state: State, action: Action) -> None:
        worked_out(state, action)

    return ActionSpec(name, check, run)


ACTIONS: tuple[ActionSpec, ...] = (
    play_action("setup", actions.act_setup),
    play_action("start", actions.act_start),
    play_action("regroup", actions.act_regroup),
    play_action("place", actions.act_place),
    play_action("discard", actions.act_discard),
    play_action("attack", attacks.act_attack),
    play_action("special", attacks.act_special),
    play_action("challenge", moves.act_challenge),
    play_action("triad", moves.act_triad),
    play_action("fallen", moves.act_fallen),
    play_action("end-turn", actions.act_end_turn),
    play_action("answer", answer.act_answer),
)
OWN = frozenset(spec.name for spec in ACTIONS)
TURN_MOVES = frozenset({"place", "discard", "attack", "special", "challenge", "triad", "fallen"})


# The args naming the mover's own face-down spots (a regroup, Rapid Deployment's --with, a challenge's loss).
OWN_SPOT_ARGS = {"regroup": ("stacks", "break"), "special": ("with",), "answer": ("their",)}


def _flat(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _flat(v)]
    return []


class ColdWarRules(GenericRules):
    slug = GameSlug.COLD_WAR
    # 6: the answer window (window.py); a cold-war-5 table answers inline.
    # 7: a face-down card is named by its spot (play.own_table_card); an older log may name it by id
    version = "cold-war-7"
    min_players, max_players = 2, 4
    faction_word = "country"
    has_hidden_cards = True  # face-down cards, Propaganda and hands
    actions = action_table(SHARED_ACTIONS, ACTIONS)
    house_rules = {
        "rounds": HouseRule("rounds", 3, "rounds played; their scores are summed (1 for a quick game)",
                            minimum=1, maximum=9),
        "first-place": HouseRule("first-place", 10, "points for the round's winner", minimum=0, maximum=100),
        "second-place": HouseRule("second-place", 6, "points for 2nd place in a round", minimum=0, maximum=100),
        "third-place": HouseRule("third-place", 3, "points for 3rd place in a round", minimum=0, maximum=100),
        "fourth-place": HouseRule("fourth-place", 2, "points for 4th place in a round", minimum=0, maximum=100),
        "fallen-bonus": HouseRule(
            "fallen-bonus", 1, "extra points for each Leader a player defeats while playing the Fallen Leader",
            minimum=0, maximum=10),
        "propaganda-defence": HouseRule(
            "propaganda-defence", None,
            "defence a Propaganda card adds to its Military stack (default: the value the cards are printed "
            "for, 100)", minimum=0, maximum=1000),
        "propaganda": HouseRule("propaganda", "on", "optional rule 1, Propaganda cards and challenges (off: a Special "
                                "is never placed at setup; with more than 3 among the nine, all are discarded and "
                                "fewer than 6 cards placed)", str,
                                choices=SWITCHES),
        "nuclear-triad": HouseRule("nuclear-triad", "on", "optional rule 2, the Nuclear Triad", str,
                                   choices=SWITCHES),
        "challenge-cost": HouseRule(
            "challenge-cost", "move",
            "a Propaganda challenge uses one of the turn's two plays (move) or the whole turn (turn)", str,
            choices=("move", "turn")),
        "leader-stack": HouseRule(
            "leader-stack", 3,
            "the most cards a Leader stack holds, the Leader included (the rulebook speaks of 2 or 3)",
            minimum=1, maximum=5),
    }

    # ---- setup -------------------------------------------------------------

    def setup(self, setup: Setup, dice: Sequence[int]) -> State:
        self._check_players(setup)
        if setup.life is not None:
            raise RuleViolation("life", "cold-war keeps no life total, so --life does not apply")
        values = self._house_rules(setup)
        for key, rule in self.house_rules.items():
            if rule.kind is int and values[key] is not None:
                rule.check_range(int(values[key]))  # (a default is in range; a table's value was checked)
        countries = carddata.countries()
        if values["propaganda-defence"] is None:
            values["propaganda-defence"] = carddata.propaganda_defence()
        chosen: dict[str, str] = {}
        players = []
        decks = {}
        for name, wanted in setup.players:
            country = _country(name, wanted, countries)
            if country in chosen:
                raise RuleViolation(
                    "one deck per country",
                    f"{chosen[country]} and {name} both chose {country}; each country deck is played by one player")
            chosen[country] = name
            deck = countries[country]
            decks[name] = {"country": country, "country_name": deck["name"], "leader": deck["leader"],
                           "cards": deck["cards"]}
            players.append(Player(PlayerName(name), country, fields={"leader": "standing", "score": 0}))
        names = [p.name for p in players]
        fields = {
            "decks": decks,
            "phase": "setup",
            "desks": {n: D.new_desk(Z.fresh_pile(decks[n])) for n in names},
            "moves": {"plays": 0, "discards": 0},
            "knocked_out": [],
            "fallen_defeats": {n: 0 for n in names},
            "scores": {n: [] for n in names},
            "first": None,
            "result": None,
            "report": [f"round 1 of {values['rounds']}: each player records the six cards of their setup"],
            "step": 0,
            "answers": W.mode_for(setup.rules),
            "face_down_by_spot": W.since(setup.rules, W.FIRST_BY_SPOT),
            "pending": None,
        }
        return State(self.slug, tuple(players), house_rules=values, fields=fields)

    # ---- check and apply -----------------------------------------------------

    def check(self, state: State, action: Action) -> None:
        """The shared actions are checked as in every game; Cold War's own go
        to the phase and their Play (the phases refuse everything once the
        game is over, in their own words)."""
        spec = self.spec(action)
        if action.name not in OWN:
            super().check(state, action)
            return
        spec.check(self, state, action)

    def game_apply(self, state: State, action: Action, dice: Sequence[int]) -> State:
        """The core checks every new action first, so a refusal here comes
        from replaying a log: most likely one recorded under an earlier
        version of these rules, which this version cannot rebuild."""
        if action.name not in OWN:
            return super().game_apply(state, action, dice)
        if _masked(action.args):
            raise RuleViolation("hidden cards", f"this {action.name!r} names {PLACEHOLDER!r} instead of a card: it "
                                                "comes from an export made for players, which leaves hidden cards "
                                                "out; replay an export made with --full")
        try:
            return super().game_apply(state, action, dice)
        except RuleViolation as err:
            raise RuleViolation(err.rule, f"{err.message}. (While replaying the table's log: a {action.name!r} "
                                          f"recorded there is refused by these rules, {self.version}; the log "
                                          "may come from an earlier version of the referee. The file is "
                                          "unchanged.)") from None

    # ---- hooks the core calls ---------------------------------------------------

    def faction_choices(self) -> tuple[str, ...]:
        return tuple(carddata.countries())

    def default_actor(self, state: State, action: Action) -> PlayerName | None:
        """A turn's move typed without --by is the move of the player whose turn
        it is; an answer, of the player it is aimed at (a timeout too: the
        answer that did not come was theirs)."""
        if state.finished or "desks" not in state.fields:
            return None
        pending = W.waiting(state.fields)
        if action.name == "answer":
            return PlayerName(pending["target"]) if pending else None
        if action.name in TURN_MOVES and pending is None and state.fields.get("phase") != "setup":
            return PlayerName(state.players[state.active].name)
        return None

    def timed_answer(self, state: State) -> Action | None:
        """The answer window's timeout (`answer --timeout`, under the target's
        name), while an action waits for its target's answer."""
        pending = None if state.finished or "desks" not in state.fields else W.waiting(state.fields)
        if pending is None:
            return None
        return Action("answer", {"timeout": True}, PlayerName(pending["target"]))

    def phase(self, state: State) -> str | None:
        return phases.phase_of(state)

    def hand_size(self, state: State, player: str) -> int | None:
        """The 9 cards drawn for the setup until it is recorded, then the hand;
        a Fallen Leader holds none (the top card of the pile is flipped)."""
        desk = state.fields["desks"][state.player(player).name]
        if desk["fallen"]:
            return None
        if state.fields.get("phase") == "setup" and not desk["set_up"]:
            return actions.SETUP_DRAW
        return int(desk["hand"])

    def known_in_hand(self, state: State, player: str) -> list[str]:
        return list(state.fields["desks"][state.player(player).name]["known"])

    def own_face_down(self, state: State, player: str, action: Action) -> list[tuple[str, list[str]]]:
        """The player's own Military spots (a stack's "M2", or "M2.1") the action's own-side args name."""
        desk = state.fields["desks"][state.player(player).name]
        spots: dict[str, list[str]] = {}
        for label, zone, cards in D.spots(desk):
            if zone == "military":
                spots[label] = list(cards)
                spots.update({f"{label}.{i + 1}": [c] for i, c in enumerate(cards)})
        named = [a for key in OWN_SPOT_ARGS.get(action.name, ()) for a in _flat(action.args.get(key))]
        return [(s.upper(), spots[s.upper()]) for s in dict.fromkeys(named) if s.upper() in spots]

    def where_is(self, state: State, card_id: str) -> list[str]:
        """Only the places a player can see: face-up cards on a table and the
        Leader stacks, the discard piles and a draw pile turned over in a
        known order. A face-down card (Military or Propaganda) is never told
        apart from one in the hand or the shuffled pile, so `card` and scan
        mode say the same whatever lies face down. Cards out of the game are
        left out too, as `status` leaves them out: a Nuclear Triad sends
        face-down cards back to the box unseen."""
        f = state.fields
        if "desks" not in f:
            return []
        out: list[str] = []
        for holder, desk in f["desks"].items():
            out += [f"on {holder}'s table"] * D.zone_cards(desk, "science").count(card_id)
            out += [f"on {holder}'s Leader stack"] * desk["assistants"].count(card_id)
        for player in f["desks"]:
            out += [p for p in Z.places(f, player, card_id)
                    if not p.startswith(("on ", "out of the game")) and "hand" not in p]
        return out

    def public_args(self, action: Action) -> dict:
        return _public_args(action.name, action.args)

    def hides_cards(self, command: str) -> bool:
        """Setups and placements lay cards face down; regroups and Specials may name them."""
        return command in ("setup", "place", "regroup", "special", "challenge")

    # rules_can_decide: every round ends when one Leader is left, and the match
    # after the last round (the default, `not state.finished`); only a tie on
    # the final total is left to the table.

    # ---- what status shows -----------------------------------------------------

    def visible_state(self, state: State, reveal: Sequence[str]) -> State:
        return visible.visible_state(state, reveal)


def _masked(value: Any) -> bool:
    """True if an action's args hold the placeholder of a hidden card."""
    if isinstance(value, str):
        return value == PLACEHOLDER
    if isinstance(value, Mapping):
        return any(_masked(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_masked(v) for v in value)
    return False


def _country(name: str, wanted: str | None, countries: Mapping[str, Any]) -> str:
    choices = ", ".join(countries)
    if not wanted:
        raise RuleViolation("country deck", f"{name} needs a country deck: --player {name}:COUNTRY ({choices})")
    key = wanted.strip().lower()
    for country, deck in countries.items():
        if key in (country, str(deck["name"]).lower()):
            return country
    raise RuleViolation("country deck", f"{wanted!r} is not a country in cold-war; choose one of: {choices}")


RULES = ColdWarRules()
