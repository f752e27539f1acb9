"""A match report: what happened at a table, read from its event log.

`build(path)` replays the actions in effect (undone ones are left out) from
the setup, keeping the state before and after each, and returns a
`MatchReport`: the players, the winner and the final standings; a series per
player of what the game keeps score with (life, net influence, score,
fortitude and the crowd, prime areas), one point per turn; every battle or
attack with its chance before the dice and its result, and each player's luck
(wins expected from those chances against wins got); the key moments
(eliminations, Heroes lost, Nuclear Triads, Leaders falling, take-overs,
captures, round ends); and the house rules in force.

Only what every player may see goes into it: figures come from public
fields, action arguments as `public_args` shows them and Cold War's public
view (`visible_state`), so face-down cards and hands never appear.

`write_report(path, out)` draws the report (referee/report_pdf.py) into a
temporary file beside `out` and renames it into place. Nothing here prints.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from referee.errors import RefereeError
from referee.model import Event, GameSlug, Setup, State
from referee.public import public_event
from referee.store import db
from referee.store import events as log
from referee.table import opened

# ---- what a report holds ------------------------------------------------------


@dataclass(frozen=True)
class Series:
    """One line of a chart: (turn, value) points; turn 0 is the table as set up,
    turn T the last state while turn T was being played (for the turn under
    way: now)."""

    label: str
    points: tuple[tuple[int, int], ...]

    def as_dict(self) -> dict[int, int]:
        return dict(self.points)


@dataclass(frozen=True)
class Chart:
    title: str
    measure: str  # "life", "net influence", "score", "fortitude", "crowd" ...
    series: tuple[Series, ...]

    def get(self, label: str) -> Series:
        return next(s for s in self.series if s.label == label)


@dataclass(frozen=True)
class Fight:
    """A battle or attack. `chance` is the attacker's chance to win worked out
    before the dice (None when no dice decide it); `sides` are the luck
    entries it gives: (player, chance to win, won)."""

    seq: int
    turn: int
    attacker: str
    defender: str | None
    what: str
    chance: Fraction | None
    won: bool | None
    result: str
    dice: tuple[int, ...] = ()
    sides: tuple[tuple[str, Fraction, bool], ...] = ()


@dataclass(frozen=True)
class Luck:
    """A player's dice contests: the sum of their chances to win, and their wins."""

    player: str
    contests: int
    expected: Fraction
    actual: int

    @property
    def difference(self) -> Fraction:
        return self.actual - self.expected

    def text(self) -> str:
        if not self.contests:
            return f"{self.player}: no dice contests"
        diff = float(self.difference)
        verdict = "as expected" if abs(diff) < 0.005 else ("luckier than expected" if diff > 0
                                                             else "unluckier than expected")
        plural = "" if self.contests == 1 else "s"
        return (f"{self.player}: {self.contests} contest{plural}, expected {float(self.expected):.2f} "
                f"win(s), got {self.actual} ({diff:+.2f}, {verdict})")


@dataclass(frozen=True)
class Moment:
    seq: int
    turn: int
    text: str


@dataclass(frozen=True)
class Standing:
    place: int
    player: str
    faction: str | None
    value: str
    eliminated: bool


@dataclass(frozen=True)
class RuleInForce:
    key: str
    value: Any
    set_for_table: bool
    help: str


@dataclass(frozen=True)
class MatchReport:
    game: GameSlug
    title: str
    path: Path
    players: tuple[tuple[str, str | None], ...]
    faction_word: str
    winner: str | None
    result: str  # "Ann wins", a draw's wording, or "no winner yet"
    standings: tuple[Standing, ...]
    charts: tuple[Chart, ...]
    fights: tuple[Fight, ...]
    luck: tuple[Luck, ...]
    moments: tuple[Moment, ...]
    house_rules: tuple[RuleInForce, ...]
    turn: int
    round: int
    events: int
    actions: int
    undone: int
    started: str
    last: str
    notes: tuple[str, ...] = ()

    def chart(self, measure: str) -> Chart:
        return next(c for c in self.charts if c.measure == measure)


def default_out(path: Path) -> Path:
    """`table.db` -> `table-report.pdf` beside it."""
    return path.with_name(f"{path.stem}-report.pdf")


# ---- replaying the log -----------------------------------------------------------


@dataclass(frozen=True)
class Step:
    event: Event  # as players may read it (public_args)
    before: State
    after: State


def _replay(path: Path) -> tuple[Any, Setup, State, list[Step], list[Event]]:
    with opened(path) as (conn, rules), db.read(conn):
        events = log.all_events(conn)
        live = log.in_effect(conn, events[-1].head)
    chain = [e for e in events if e.seq in live]
    setup = Setup.from_dict(chain[0].args)
    start = state = rules.setup(setup, chain[0].dice)
    steps = []
    for event in chain[1:]:
        after = rules.apply(state, log.action_of(event), event.dice)
        steps.append(Step(public_event(rules, event), state, after))
        state = after
    return rules, setup, start, steps, events


def build(path: Path) -> MatchReport:
    """The report of the table at `path` (see the module's docstring)."""
    rules, setup, start, steps, events = _replay(path)
    game = _GAMES.get(rules.slug, Game)(rules)
    final = steps[-1].after if steps else start
    charts = tuple(_chart(spec, start, steps) for spec in game.charts())
    fights = tuple(f for step in steps for f in game.fights(step))
    moments = tuple(m for step in steps for m in [*game.moments(step), *_common_moments(step)])
    names = [p.name for p in final.players]
    luck = tuple(_luck(name, fights) for name in names)
    undone = sum(1 for e in events if e.kind.value == "undo") - sum(1 for e in events if e.kind.value == "redo")
    return MatchReport(
        game=rules.slug, title=rules.title, path=path,
        players=tuple((p.name, p.faction) for p in final.players),
        faction_word=getattr(rules, "faction_word", "faction"),
        winner=final.winner, result=_result(final),
        standings=game.standings(final, steps),
        charts=charts, fights=fights, luck=luck, moments=moments,
        house_rules=_house_rules(rules, setup, final),
        turn=final.turn, round=final.round, events=len(events), actions=len(steps), undone=max(0, undone),
        started=events[0].time, last=events[-1].time, notes=tuple(game.notes(final, fights)),
    )


# ---- the parts every game shares ----------------------------------------------------


ChartSpec = tuple[str, str, Callable[[State], Mapping[str, int]]]


def _chart(spec: ChartSpec, start: State, steps: Sequence[Step]) -> Chart:
    title, measure, values = spec
    points: dict[str, dict[int, int]] = {}

    def record(turn: int, state: State) -> None:
        for label, value in values(state).items():
            if value is not None:
                points.setdefault(label, {})[turn] = int(value)

    record(0, start)
    for step in steps:
        record(step.after.turn, step.after)
    return Chart(title, measure, tuple(Series(label, tuple(sorted(p.items()))) for label, p in points.items()))


def _luck(name: str, fights: Sequence[Fight]) -> Luck:
    sides = [(chance, won) for f in fights for who, chance, won in f.sides if who == name]
    return Luck(name, len(sides), sum((c for c, _ in sides), Fraction(0)), sum(1 for _, w in sides if w))


def _common_moments(step: Step) -> list[Moment]:
    """Eliminations, a winner, a game ended another way (a draw)."""
    b, a, e = step.before, step.after, step.event
    out = []
    for old, new in zip(b.players, a.players):
        if new.eliminated and not old.eliminated:
            out.append(f"{new.name} is eliminated")
    result = a.fields.get("result")
    new_result = isinstance(result, str) and result and result != b.fields.get("result")
    if a.winner and not b.winner:
        how = " (declared by the table, an override)" if e.action == "win" and e.args.get("force") else (
            " (declared by the table)" if e.action == "win" else "")
        if not (new_result and a.winner in result and not how):
            out.append(f"{a.winner} wins{how}")
    if new_result:
        out.append(result)
    return [Moment(e.seq, b.turn, text) for text in out]


def _result(state: State) -> str:
    result = state.fields.get("result")
    if state.winner:
        if isinstance(result, str) and result.startswith(state.winner):
            return result
        return f"{state.winner} wins" + (f": {result}" if isinstance(result, str) and result else "")
    if isinstance(result, str) and result:
        return result
    return "no winner yet"


def _house_rules(rules: Any, setup: Setup, final: State) -> tuple[RuleInForce, ...]:
    out = []
    for key, rule in rules.house_rules.items():
        value = final.house_rules.get(key, rule.default)
        out.append(RuleInForce(key, value, key in setup.house_rules, rule.help))
    return tuple(out)


def _fraction(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def chance_text(p: Fraction | None) -> str:
    if p is None:
        return "no dice"
    return f"{_fraction(p)} ({float(p) * 100:.1f}%)"


# ---- each game ------------------------------------------------------------------------


class Game:
    """A game's reading of its own log; the base reads only what every game has."""

    measure = "life"

    def __init__(self, rules: Any):
        self.rules = rules

    def values(self, state: State) -> dict[str, int]:
        if any(p.life is not None for p in state.players):
            return {p.name: p.life for p in state.players}
        return {p.name: p.capital for p in state.players}

    def charts(self) -> list[ChartSpec]:
        return [(f"{self.measure.capitalize()} per turn", self.measure, self.values)]

    def fights(self, step: Step) -> list[Fight]:
        return []

    def moments(self, step: Step) -> list[Moment]:
        return []

    def notes(self, final: State, fights: Sequence[Fight]) -> list[str]:
        return []

    def sort_key(self, state: State, name: str) -> tuple:
        return (self.values(state).get(name) or 0,)

    def value_text(self, state: State, name: str) -> str:
        return f"{self.measure} {self.values(state).get(name)}"

    def standings(self, final: State, steps: Sequence[Step]) -> tuple[Standing, ...]:
        """The winner first, then players still in by the game's measure, then
        the eliminated, the last one out first."""
        out_order = [p.name for step in steps for old, p in zip(step.before.players, step.after.players)
                     if p.eliminated and not old.eliminated]

        def key(p):
            return (p.name == final.winner, not p.eliminated,
                    out_order.index(p.name) if p.name in out_order else -1, self.sort_key(final, p.name))

        ranked = sorted(final.players, key=key, reverse=True)
        return tuple(Standing(i, p.name, p.faction, self.value_text(final, p.name), p.eliminated)
                     for i, p in enumerate(ranked, start=1))


class CultureWar(Game):
    measure = "life"

    def values(self, state: State) -> dict[str, int]:
        return {p.name: p.life for p in state.players}

    def fights(self, step: Step) -> list[Fight]:
        if step.event.action != "battle":
            return []
        from referee.games.culture_war import odds as cw_odds
        from referee.games.culture_war.board import Board

        b, a, e = step.before, step.after, step.event
        board = Board(b)
        try:
            attacker, defender, direct = self.rules.target_of(board, e.args)
        except RefereeError:
            return []
        unit = board.pieces[attacker]
        owner = unit["owner"]
        life = {p.name: (p.life or 0) for p in b.players}
        lost = ", ".join(f"{p.name} {int(p.life or 0) - life[p.name]:+d}" for p in a.players
                         if (p.life or 0) != life[p.name])
        life_text = f" (life: {lost})" if lost else ""
        if direct:
            return [Fight(e.seq, b.turn, owner, defender, f"{board.label(attacker)} attacks {defender}'s LIFE",
                          None, True, f"direct attack, no dice{life_text}")]
        foe = board.pieces[defender]
        odds = cw_odds.odds(b, attacker, defender, bool(e.args.get("counter", True)))
        pieces = a.fields.get("pieces") or {}
        won = defender not in pieces
        result = f"kills {foe['name']}" if won else "the attack fails"
        if attacker not in pieces:
            result += f"; {unit['name']} dies in the counter-attack"
        what = f"{board.label(attacker)} (ATK {odds.atk}) against {board.label(defender)} (DEF {odds.dfn})"
        sides = ((owner, odds.kill, won), (foe["owner"], 1 - odds.kill, not won))
        return [Fight(e.seq, b.turn, owner, foe["owner"], what, odds.kill, won, result + life_text,
                      tuple(e.dice), sides)]

    def moments(self, step: Step) -> list[Moment]:
        from referee.games.culture_war.board import hero

        b, a, e = step.before, step.after, step.event
        after = a.fields.get("pieces") or {}
        out = []
        for handle, piece in sorted((b.fields.get("pieces") or {}).items(), key=lambda kv: int(kv[0])):
            if hero(piece) and handle not in after:
                out.append(Moment(e.seq, b.turn, f"{piece['owner']} loses the Hero {piece['name']} (#{handle})"
                                  + (" in battle" if e.action == "battle" else f" ({e.action})")))
        return out


class DivideAndConquer(Game):
    measure = "net influence"

    def values(self, state: State) -> dict[str, int]:
        return {p.name: int(p.fields.get("net", 0)) for p in state.players}

    def sort_key(self, state: State, name: str) -> tuple:
        p = state.player(name)
        return (int(p.fields.get("net", 0)), int(p.fields.get("cards", 0)))

    def value_text(self, state: State, name: str) -> str:
        f = state.player(name).fields
        return (f"net influence {f.get('net', 0)} (left {f.get('left', 0)}, right {f.get('right', 0)}; "
                f"{f.get('cards', 0)} cards in base)")

    def fights(self, step: Step) -> list[Fight]:
        if step.event.action != "fight":
            return []
        from referee.games.divide_and_conquer import battle

        b, a, e = step.before, step.after, step.event
        attack, last = b.fields.get("attack"), a.fields.get("last_attack")
        if not attack or not last:
            return []
        a_inf, _, d_inf, _ = battle.totals(b.fields)
        chance = battle.odds(a_inf, d_inf)
        won = bool(last["won"])
        whose = {"player": f"{attack['defender']}'s", "unaffiliated": "the unaffiliated",
                 "own": "their own"}.get(attack["kind"], "")
        what = (f"{attack['attacker']} attacks {whose} {last['target']} to {attack['intent']}: "
                f"influence {a_inf} against {d_inf}")
        done = ("taken over" if attack["intent"] == "take-over" else "destroyed") if won else "the attack fails"
        result = f"{last['attack']} against {last['defence']}: {done}"
        sides = [(attack["attacker"], chance, won)]
        if attack.get("defender"):
            sides.append((attack["defender"], 1 - chance, not won))
        return [Fight(e.seq, b.turn, attack["attacker"], attack.get("defender"), what, chance, won, result,
                      tuple(e.dice), tuple(sides))]

    def moments(self, step: Step) -> list[Moment]:
        b, a, e = step.before, step.after, step.event
        last = a.fields.get("last_attack")
        if e.action == "fight" and last and last.get("won"):
            verb = "takes over" if last["intent"] == "take-over" else "destroys"
            return [Moment(e.seq, b.turn, f"{last['attacker']} {verb} {last['target']}")]
        return []


class ColdWar(Game):
    measure = "score"

    def values(self, state: State) -> dict[str, int]:
        return {p.name: int(p.fields.get("score", 0)) for p in state.players}

    def value_text(self, state: State, name: str) -> str:
        rounds = (state.fields.get("scores") or {}).get(name) or []
        return f"score {self.values(state)[name]}" + (f" (rounds: {' + '.join(map(str, rounds))})" if rounds else "")

    @staticmethod
    def _report(state: State) -> list[str]:
        from referee.games import visible_state

        return list(visible_state(state, ()).fields.get("report") or [])

    def fights(self, step: Step) -> list[Fight]:
        from referee.games import visible_state
        from referee.games.cold_war import desk as D
        from referee.games.cold_war.view import odds as flip_odds

        b, a, e = step.before, step.after, step.event
        if e.action not in ("attack", "fallen", "special"):
            return []
        lines = self._report(a) if a.fields.get("step") != b.fields.get("step") else []
        mover = b.active_player.name
        try:
            target = b.player(str(e.args.get("target"))).name
        except RefereeError:
            target = None
        won = any((" beats " in ln or " takes " in ln) for ln in lines)
        blocked = any(" blocks " in ln for ln in lines)
        outcome = "blocked" if blocked else ("the attack wins" if won else "the attack fails")
        if e.action == "attack":
            cards = e.args.get("cards") or []
            value = sum(int(D.card(b.fields, c).get("attack", 0)) for c in cards)
            spot = str(e.args.get("at") or "").upper()
            defence = _public_defence(visible_state(b, ()), target, spot)
            against = f"defence {defence}" if defence is not None else "a defence not seen (face down)"
            what = f"{mover} attacks {target}'s {spot} with {value} against {against}"
            return [Fight(e.seq, b.turn, mover, target, what, None, won and not blocked, outcome)]
        if e.action == "special":
            if not any("to attack" in ln for ln in lines):
                return []
            return [Fight(e.seq, b.turn, mover, target, f"{mover} redeploys Military cards against {target}",
                          None, won and not blocked, outcome)]
        odds = flip_odds(b, mover)
        card = D.card(b.fields, str(e.args.get("card")))
        kind = card.get("fallen_draw")
        got = {"attack": f"attacks with {card.get('attack')}", "lend": "is lent to the target",
               "nothing": "does nothing"}.get(kind, str(kind))
        result = f"{card.get('name')} {got}" + (f": {outcome}" if kind == "attack" else "")
        chance = odds.chance("attack")
        what = f"{mover}'s Fallen Leader flips a card at {target} (chance it attacks)"
        return [Fight(e.seq, b.turn, mover, target, what, chance, kind == "attack", result,
                      sides=((mover, chance, kind == "attack"),))]

    def moments(self, step: Step) -> list[Moment]:
        b, a, e = step.before, step.after, step.event
        if a.fields.get("step") == b.fields.get("step"):
            return []
        keys = ("falls and becomes", "Nuclear Triad", "is won by", "while Fallen")
        return [Moment(e.seq, b.turn, line) for line in self._report(a) if any(k in line for k in keys)]

    def notes(self, final: State, fights: Sequence[Fight]) -> list[str]:
        return ["Cold War attacks roll no dice: an attack wins when its value reaches the defence. A defence "
                "that was face down is not shown. The only chance is a Fallen Leader's flip: its odds (the "
                "chance the flipped card attacks) make the luck lines."]


def _public_defence(view: State, target: str | None, spot: str) -> int | None:
    """The defence of `spot` on `target`'s table as every player sees it (None if any of it is face down)."""
    if target is None:
        return None
    table = (view.fields.get("tables") or {}).get(target) or {}
    if spot.startswith("S"):
        return (table.get("science") or {}).get(spot, {}).get("defence")
    if spot.startswith("M"):
        return (table.get("military") or {}).get(spot, {}).get("defence")
    if spot == "L":
        if any(m.get("defence") is None for m in (table.get("military") or {}).values()):
            return None
        stack = (table.get("leader_stack") or {}).get("defence")
        if stack is None:
            return None
        return int(stack) + sum(int(s.get("defence") or 0) for s in (table.get("science") or {}).values()) + \
            sum(int(m.get("defence") or 0) for m in (table.get("military") or {}).values())
    return None


class Debate(Game):
    measure = "fortitude"

    def values(self, state: State) -> dict[str, int]:
        return {p.name: int(p.fields.get("fortitude", 0)) for p in state.players}

    def charts(self) -> list[ChartSpec]:
        return [("Fortitude per turn", "fortitude", self.values),
                ("The crowd per turn (-30 mob .. +30 enlightened)", "crowd", lambda s: {"crowd": s.crowd or 0})]

    def value_text(self, state: State, name: str) -> str:
        p = state.player(name)
        return f"fortitude {p.fields.get('fortitude', 0)}" + (f" (POTUS {p.faction})" if p.faction else "")

    def moments(self, step: Step) -> list[Moment]:
        b, a, e = step.before, step.after, step.event
        if e.action != "round-end":
            return []
        parts = ", ".join(f"{p.name} fortitude {p.fields.get('fortitude')}" for p in a.players)
        return [Moment(e.seq, b.turn, f"round {b.round} ends: {parts}; the crowd at {a.crowd:+d}")]

    def notes(self, final: State, fights: Sequence[Fight]) -> list[str]:
        return ["Debate rolls no dice in play: no battles, so no luck lines."]


class PetriDish(Game):
    measure = "prime areas"

    def values(self, state: State) -> dict[str, int]:
        return areas_held(state)

    def charts(self) -> list[ChartSpec]:
        return [("Prime areas held alone, per turn", "prime areas", areas_held),
                ("Germ tokens on the dish, per turn", "tokens", tokens_on_dish)]

    def sort_key(self, state: State, name: str) -> tuple:
        return (areas_held(state)[name], tokens_on_dish(state)[name])

    def value_text(self, state: State, name: str) -> str:
        p = state.player(name)
        return (f"{p.faction}: {areas_held(state)[name]} prime area(s) held alone, "
                f"{tokens_on_dish(state)[name]} token(s) on the dish, {p.fields.get('reserve')} in reserve")

    def moments(self, step: Step) -> list[Moment]:
        from referee.games.petri_dish import engine
        from referee.games.petri_dish.geometry import POINTS
        from referee.games.petri_dish.rules import BOARD_ACTIONS, action_of, position_of

        b, a, e = step.before, step.after, step.event
        if e.action not in BOARD_ACTIONS:
            return []
        mover = b.active_player
        outcome = engine.play(position_of(b), action_of(log.action_of(e)))
        out = []
        for point, germ in outcome.captured:
            colour = "white" if germ > 0 else "black"
            owner = next(p.name for p in b.players if p.faction == colour)
            whose = "its own" if owner == mover.name else f"{owner}'s"
            out.append(f"{mover.name} ({mover.faction}) captures {whose} {colour} germ of {abs(germ)} at {POINTS[point]}")
        old, new = areas_held(b), areas_held(a)
        for name in new:
            if new[name] != old[name]:
                out.append(f"{name} now holds {new[name]} prime area(s) alone (was {old[name]})")
        return [Moment(e.seq, b.turn, text) for text in out]

    def notes(self, final: State, fights: Sequence[Fight]) -> list[str]:
        return ["Battle for the Petri Dish has no dice: no battles with odds, so no luck lines; "
                "captures and prime areas are the key moments."]


def areas_held(state: State) -> dict[str, int]:
    """Prime areas each player holds alone (the win condition)."""
    from referee.games.petri_dish.geometry import PRIME_AREAS

    board = state.fields.get("board") or {}
    held = {p.faction: 0 for p in state.players}
    for points in PRIME_AREAS.values():
        owners = {cell["owner"] for cell in (board.get(pt) for pt in points) if cell}
        if len(owners) == 1:
            held[owners.pop()] += 1
    return {p.name: held[p.faction] for p in state.players}


def tokens_on_dish(state: State) -> dict[str, int]:
    board = state.fields.get("board") or {}
    total = {p.faction: 0 for p in state.players}
    for cell in board.values():
        if cell:
            total[cell["owner"]] += int(cell["size"])
    return {p.name: total[p.faction] for p in state.players}


_GAMES: dict[GameSlug, type[Game]] = {
    GameSlug.CULTURE_WAR: CultureWar,
    GameSlug.DIVIDE_AND_CONQUER: DivideAndConquer,
    GameSlug.COLD_WAR: ColdWar,
    GameSlug.DEBATE: Debate,
    GameSlug.PETRI_DISH: PetriDish,
}
