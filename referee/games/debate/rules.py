"""The debate game at the table: two players, a POTUS each, fortitude, the
forum of 2 x 7 threads and the crowd track from -30 to +30.

State:
- each player's `fields`: fortitude, potus (name), gf_bonus, bf_bonus;
- `fields.potus`: name -> the POTUS card's stats (or null);
- `fields.forum`, `fields.columns`, `fields.protected`: see forum.py;
- `fields.opener`: who goes first this round (alternates every round);
- `fields.used`: name -> {"round": n} or {"match": true}, POTUS abilities used;
- `fields.tiebreaker`: the next round end breaks a tie;
- `fields.crowd_at_round_end`: the crowd once the pending crowd work lands;
- `state.crowd`: the crowd now, with every instant shift already in it;
  the 1-point crowd work of devices (and round-end argument shifts) waits in
  the forum and lands at round end, so removing a device simply takes it away.
"""
from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any, Mapping, Sequence

from referee.errors import RefereeError, RuleViolation
from referee.games import HouseRule
from referee.games.debate import forum as fm
from referee.games.debate import text
from referee.games.debate.abilities import Play, resolve
from referee.games.generic import GenericRules, _changed, _check_change
from referee.model import Action, GameSlug, Player, Setup, State

CROWD_LIMIT = fm.CROWD_LIMIT
# House rule default: the rulebook names no starting fortitude but says
# matches usually last 3-4 rounds. Seeded matches between the two starter
# decks, each debater playing 3 arguments a round or everything in hand,
# lose about 15-20 fortitude a round per debater (own costs plus overage
# taken), so 60 ends 9 in 10 of them after round 3 or 4
# (tests/referee/test_rules_debate.py plays those matches to check it).
STARTING_FORTITUDE = 60


class DebateRules(GenericRules):
    slug = GameSlug.DEBATE
    title = "Debate"
    version = "debate-2"
    min_players, max_players = 2, 2
    crowd_limit = CROWD_LIMIT
    faction_word = "POTUS"
    house_rules = {
        "starting-fortitude": HouseRule(
            "starting-fortitude", STARTING_FORTITUDE,
            "fortitude each debater starts with; the rulebook gives none, and 60 makes the 3-4 round "
            "matches it describes when the starter decks are played",
        ),
        "crowd-spread": HouseRule(
            "crowd-spread", 10, "the crowd starts at a random value from -N to +N"
        ),
        "starting-crowd": HouseRule(
            "starting-crowd", None, "a crowd to start at instead of a random one (-30 to 30); default: random",
        ),
    }

    # ---- setup -------------------------------------------------------------

    def _spread(self, setup: Setup) -> int:
        rules = self._house_rules(setup)
        if rules.get("starting-crowd") is not None:
            return 0
        spread = int(rules["crowd-spread"])  # type: ignore[arg-type]
        if not 0 <= spread <= CROWD_LIMIT:
            raise RuleViolation("crowd-spread", f"crowd-spread must be 0 to {CROWD_LIMIT}, not {spread}")
        return spread

    def setup_dice(self, setup: Setup) -> tuple[int, ...]:
        spread = self._spread(setup)
        return (2 * spread + 1,) if spread else ()

    def setup(self, setup: Setup, dice: Sequence[int]) -> State:
        spread = self._spread(setup)
        state = super().setup(setup, dice)
        rules = dict(state.house_rules)
        fortitude = int(rules["starting-fortitude"])  # type: ignore[arg-type]
        if fortitude < 1:
            raise RuleViolation("starting-fortitude", f"debaters must start with at least 1 fortitude, not {fortitude}")
        chosen = rules.get("starting-crowd")
        if chosen is not None:
            try:
                crowd = int(str(chosen).replace("\u2212", "-"))
            except ValueError:
                raise RefereeError(f"house rule 'starting-crowd' takes a whole number, not {chosen!r}") from None
            if abs(crowd) > CROWD_LIMIT:
                raise RuleViolation("crowd track", f"the crowd runs from -30 to +30; it cannot start at {crowd}")
            rules["starting-crowd"] = crowd
        else:
            crowd = dice[0] - spread - 1 if spread else 0
        potus: dict[str, Any] = {}
        players = []
        for player in state.players:
            card = None
            if player.faction:
                from referee.games.debate.cards import find_potus  # reads the card index, at setup only

                card = find_potus(player.faction)
            potus[player.name] = card
            players.append(replace(player, fields=_player_fields(fortitude, card)))
        names = [p.name for p in players]
        return _with_projection(replace(state, players=tuple(players), crowd=crowd, house_rules=rules, fields={
            "potus": potus, "forum": fm.empty_forum(names), "columns": {n: [0] * fm.THREADS for n in names},
            "protected": [], "opener": names[0], "used": {}, "tiebreaker": False,
        }))

    # ---- checking and applying -----------------------------------------------

    def check(self, state: State, action: Action) -> None:
        super().check(state, action)

    def apply(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return _with_projection(getattr(self, "apply_" + action.name.replace("-", "_"))(state, action, dice))

    # turns: the round only moves on at round end
    def apply_end_turn(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return replace(state, active=1 - state.active, turn=state.turn + 1)

    # arguments and devices -------------------------------------------------

    def _play(self, state: State, action: Action) -> State:
        args = action.args
        player = state.player(args["player"])
        if player.name != state.active_player.name:
            raise RuleViolation("turn order", f"it is {state.active_player.name}'s turn, so {player.name} "
                                "cannot play a tactic now (use `next` to pass the turn)")
        card = args.get("_card") or {}
        thread = _thread(args.get("thread"))
        names = [p.name for p in state.players]
        fields = copy.deepcopy(dict(state.fields))
        slots = fields["forum"][player.name]
        card = {**card, "owner": player.name}
        if action.name == "argue":
            if card.get("kind") != "argument":
                raise RuleViolation("arguments open threads",
                                    f"{player.name} cannot open thread {thread} with {card.get('name', '?')}: "
                                    "only arguments go into a thread")
            if slots[thread - 1]:
                raise RuleViolation("one argument per thread", f"{player.name} already has "
                                    f"{slots[thread - 1]['argument']['name']} in thread {thread}")
            slots[thread - 1] = {"argument": card, "devices": [], "mods": []}
        else:
            if card.get("kind") != "device":
                raise RuleViolation("devices go on arguments",
                                    f"{player.name} cannot play {card.get('name', '?')} as a device: it is not a "
                                    "rhetorical device")
            if not slots[thread - 1]:
                raise RuleViolation("devices go on arguments", f"{player.name} has no argument in thread "
                                    f"{thread} to put {card['name']} on")
            slots[thread - 1]["devices"].append(card)
        crowd = state.crowd or 0
        if card.get("timing", "instant") == "instant":
            fields, crowd = resolve(Play(fields, crowd, names, player.name, card, thread, args))
        return replace(state, fields=fields, crowd=crowd)

    def check_argue(self, state: State, action: Action) -> None:
        self._play(state, action)

    def apply_argue(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._play(state, action)

    check_device = check_argue
    apply_device = apply_argue

    # taking tactics out of the forum -----------------------------------------

    def _remove(self, state: State, action: Action) -> State:
        args = action.args
        side = state.player(args["player"]).name
        thread = _thread(args.get("thread"))
        names = [p.name for p in state.players]
        actor = state.player(action.actor).name if action.actor else None
        fields = copy.deepcopy(dict(state.fields))
        from referee.games.debate.abilities import remove_tactic

        fields = remove_tactic(fields, names, side, thread, args.get("device"), actor,
                               verb="destroy" if action.name == "destroy" else "return")
        return replace(state, fields=fields)

    def check_destroy(self, state: State, action: Action) -> None:
        self._remove(state, action)

    def apply_destroy(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._remove(state, action)

    check_return = check_destroy
    apply_return = apply_destroy

    # POTUS ---------------------------------------------------------------------

    def _ability(self, state: State, action: Action) -> State:
        args = action.args
        player = state.player(args["player"])
        card = (state.fields.get("potus") or {}).get(player.name)
        if not card:
            raise RuleViolation("POTUS", f"{player.name} has no POTUS; set one with `potus {player.name} CARD`")
        uses = card.get("uses")
        used = (state.fields.get("used") or {}).get(player.name) or {}
        if uses == "passive":
            raise RuleViolation("passive abilities", f"{card['ability']} ({card['name']}) is passive: the referee "
                                "applies it by itself")
        if uses == "once-per-match" and used.get("match"):
            raise RuleViolation("once per match", f"{player.name} has already used {card['ability']} this match")
        if uses == "once-per-round" and used.get("round") == state.round:
            raise RuleViolation("once per round", f"{player.name} has already used {card['ability']} this round")
        fields = copy.deepcopy(dict(state.fields))
        names = [p.name for p in state.players]
        fields, crowd = resolve(Play(fields, state.crowd or 0, names, player.name, card, None, args))
        mark = {"match": True} if uses == "once-per-match" else {"round": state.round}
        fields["used"] = {**fields.get("used", {}), player.name: {**used, **mark}}
        return replace(state, fields=fields, crowd=crowd)

    def check_ability(self, state: State, action: Action) -> None:
        self._ability(state, action)

    def apply_ability(self, state: State, action: Action, dice: Sequence[int]) -> State:
        return self._ability(state, action)

    def check_potus(self, state: State, action: Action) -> None:
        player = state.player(action.args["player"])
        card = action.args.get("_card") or {}
        if card.get("kind") != "potus":
            raise RuleViolation("POTUS", f"{player.name} cannot take {card.get('name', '?')}: it is not a POTUS card")
        if state.round > 1 or any(s for slots in state.fields["forum"].values() for s in slots):
            raise RuleViolation("POTUS", f"{player.name} can only choose a POTUS before the first tactic is played")

    def apply_potus(self, state: State, action: Action, dice: Sequence[int]) -> State:
        player = state.player(action.args["player"])
        card = dict(action.args["_card"])
        fortitude = int(player.fields.get("fortitude", 0))
        state = state.with_player(replace(player, faction=card["name"], fields=_player_fields(fortitude, card)))
        return replace(state, fields={**state.fields, "potus": {**state.fields["potus"], player.name: card}})

    # fortitude by hand -----------------------------------------------------

    def check_fortitude(self, state: State, action: Action) -> None:
        player = state.player(action.args["player"])
        _check_change(action.args, f"{player.name}'s fortitude", allow_negative=True)

    def apply_fortitude(self, state: State, action: Action, dice: Sequence[int]) -> State:
        player = state.player(action.args["player"])
        value = _changed(int(player.fields["fortitude"]), action.args)
        return state.with_player(replace(player, fields={**player.fields, "fortitude": value}))

    # round end -------------------------------------------------------------

    def report(self, state: State) -> fm.Report:
        """What round end would do to the table now."""
        names = [p.name for p in state.players]
        fortitude = {p.name: int(p.fields["fortitude"]) for p in state.players}
        return fm.round_end(state.fields, names, state.crowd or 0, fortitude, state.round,
                            bool(state.fields.get("tiebreaker")))

    def check_round_end(self, state: State, action: Action) -> None:
        pass

    def apply_round_end(self, state: State, action: Action, dice: Sequence[int]) -> State:
        report = self.report(state)
        names = [p.name for p in state.players]
        players = tuple(replace(p, fields={**p.fields, "fortitude": report.fortitude[p.name]}) for p in state.players)
        opener = fm.opponent(names, state.fields["opener"])
        fields = {
            **state.fields, "forum": fm.empty_forum(names), "columns": {n: [0] * fm.THREADS for n in names},
            "protected": [], "opener": opener, "tiebreaker": report.tiebreaker,
        }
        return replace(state, players=players, crowd=report.crowd, fields=fields, round=state.round + 1,
                       turn=state.turn + 1, active=names.index(opener), winner=report.winner)

    # text ------------------------------------------------------------------

    def render_lines(self, state: State) -> list[str]:
        return text.status_lines(state, self.report(state))

    def change_lines(self, before: State, after: State) -> list[str]:
        return text.change_lines(before, after)


def _with_projection(state: State) -> State:
    """Keep `crowd_at_round_end`: the crowd once the pending crowd work lands."""
    projected = fm.projected_crowd(state.crowd or 0, state.fields["forum"], state.fields.get("potus") or {})
    return replace(state, fields={**state.fields, "crowd_at_round_end": projected})


def _player_fields(fortitude: int, card: Mapping[str, Any] | None) -> dict[str, Any]:
    return {"fortitude": fortitude, "potus": card["name"] if card else None,
            "gf_bonus": card["gf_bonus"] if card else 0, "bf_bonus": card["bf_bonus"] if card else 0}


def _thread(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= fm.THREADS:
        raise RuleViolation("threads 1-7", f"the forum has threads 1 to {fm.THREADS}, not {value!r}")
    return value


RULES = DebateRules()
