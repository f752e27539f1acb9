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

`write_report(path, out)` in referee/report_pdf.py draws it as a PDF.
Nothing here prints.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from referee.model import Event, GameSlug, Setup, State
from referee.rules.game import Part, game_of
from referee.table.public import public_event
from referee.table.store import db
from referee.table.store import events as log
from referee.table.operations import opened

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
        after = rules.apply(state, event.to_action(), event.dice)
        steps.append(Step(public_event(rules, event), state, after))
        state = after
    return rules, setup, start, steps, events


def build(path: Path) -> MatchReport:
    """The report of the table at `path` (see the module's docstring)."""
    rules, setup, start, steps, events = _replay(path)
    game = game_report(rules)
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
        faction_word=rules.faction_word,
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
    for step in steps:  # under the turn it was played in, as the battle table lists it; a turn's end
        # (end-turn: the next turn's draw, income and start-of-turn effects) under the turn it starts
        record(step.after.turn if step.event.action == "end-turn" else step.before.turn, step.after)
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
    result = a.result
    new_result = isinstance(result, str) and result and result != b.result
    if a.winner and not b.winner:
        how = " (declared by the table, an override)" if e.action == "win" and e.args.get("force") else (
            " (declared by the table)" if e.action == "win" else "")
        if not (new_result and a.winner in result and not how):
            out.append(f"{a.winner} wins{how}")
    if new_result:
        out.append(result)
    return [Moment(e.seq, b.turn, text) for text in out]


def _result(state: State) -> str:
    result = state.result
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


def game_report(rules: Any) -> "Game":
    """The game's own reading of its log: `REPORT` in its package's `report`
    module (loaded only now, for the game being reported), else the base."""
    return game_of(rules.slug).attribute(Part.REPORT, "REPORT", Game)(rules)


class Game:
    """A game's reading of its own log; the base reads only what every game has.
    Each game subclasses it in its package's report.py (REPORT)."""

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
