"""How a sensible debater plays (self-play's heuristic agent).

The rulebook scores a round at its end: each thread's total against the one
facing it, the overage off the weaker side's fortitude, every tactic's cost
off its own player's. Overage is a difference, so every tactic that stays
in the forum moves the fortitude gap by its strength less its cost, whoever
it faces; what a debater decides is which tactics to play, where their
abilities point, and which way to push the crowd. So the debater looks one
move ahead on a table it could be sitting at (the cards it cannot see
sampled) and scores:

- the fortitude gap as round end would leave it (`round_report`), and a
  match that round end would decide as won or lost outright;
- the crowd, which outlasts the round (rulebook, "The Crowd"): every point
  of it toward Good Faith adds a percent to each Good Faith argument and
  takes one from each Bad Faith one in every round still to come. What
  that is worth to a debater depends on the alignments of the two decks,
  read from what each has shown: the debater's own hand, discard pile and
  forum, and the opponent's discard pile and forum (never their hand);
- a little (CYCLE) for every tactic played: the hand is drawn back up to
  five at round start, so a card kept is a card not drawn, and a tactic
  that costs a point or two is still worth playing for the slot it frees.

It plays while a tactic gains it something and ends its turn when none
does. In a phase after which it has another of its own this round (the
first player's opening before its cross-examination, the second player's
answer before its last word) it keeps its devices and its POTUS ability
for that later phase, where the opponent has less time to answer them;
arguments go in at once (the second player answers only in phase one),
and so do cards that draw or take a card back, while what they bring can
still be played. Against random play over 200 games in both seat orders
it wins 77% (docs/self-play.md); the first version of this policy, the
lookahead alone, won 60%.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from referee.model import PlayerName, State
from referee.rules.choosing import Options
from referee.rules.legal import Candidate

WIN = 1e6
STRENGTH_A_ROUND = 25.0  # a debater's arguments in a round, printed strength together (about four of 4-11)
LOSS_A_ROUND = 18.0  # fortitude a round costs a debater, about (a 60-point match lasts three to four rounds)
PRIOR = 2.0  # arguments of each alignment assumed before any is seen
CYCLE = 3.0  # what a card played is worth beyond its own effect: the hand slot it frees for a fresh draw
EARLY = ("draw", "return-from-discard")  # devices and abilities played at once: what they bring can still be played
PASSES = ("end-turn", "round-end", "no-argument")


def evaluate(state: State, player: PlayerName, lean: Mapping[str, float] | None = None) -> float:
    """The fortitude gap round end would leave, a decided match as won or
    lost, and the crowd's worth in the rounds after this one (`lean`: each
    debater's Good Faith share less their Bad Faith share, -1..1)."""
    if state.winner is not None:
        return WIN if state.winner == player else -WIN
    if state.finished:
        return 0.0
    from referee.games.debate.actions import round_report  # lazy: the round-end arithmetic

    me = state.player(player).name
    report = round_report(state)
    them = next(n for n in report.fortitude if n != me)
    gap = float(report.fortitude[me] - report.fortitude[them])
    if report.winner is not None:
        return (WIN / 10 if report.winner == me else -WIN / 10) + gap
    leans = lean if lean is not None else leans_of(state, me, ())
    later = rounds_after(min(report.fortitude.values()))
    crowd = report.crowd / 100.0 * STRENGTH_A_ROUND * (leans[me] - leans[them]) * later
    return gap + crowd


def rounds_after(lowest: float) -> float:
    """About how many rounds the match has left after this one."""
    return max(0.0, min(3.0, lowest / LOSS_A_ROUND))


def leans_of(state: State, me: str, hand: Iterable[str]) -> dict[str, float]:
    """Each debater's lean, Good Faith minus Bad Faith over the arguments
    this debater can see of theirs (own hand included), with a prior."""
    from referee.games.debate.legal import card_entry  # lazy: the card index

    seen: dict[str, list[str]] = {p.name: [] for p in state.players}
    for name, slots in state.fields["forum"].items():
        for slot in slots:
            if slot:
                arg = slot["argument"]
                seen.setdefault(arg.get("owner", name), []).append(arg.get("alignment") or "")
    for name, pile in state.fields["piles"].items():
        seen[name] += [_alignment(card_entry, c) for c in pile["discard"]]
    seen[me] += [_alignment(card_entry, c) for c in hand]
    out = {}
    for name, marks in seen.items():
        gf, bf = marks.count("gf"), marks.count("bf")
        out[name] = (gf - bf) / (gf + bf + 2 * PRIOR)
    return out


def _alignment(entry, card_id: str) -> str:
    return entry(card_id).get("alignment") or ""


def _acts_again(state: State, me: str) -> bool:
    """Whether ME has another phase of their own this round after this one
    (the first player's cross-examination, the second player's last word)."""
    from referee.games.debate import phases as ph  # lazy: the round's phases

    phase = ph.current(state.fields)
    return phase in ph.PHASE_ONE and ph.acting(state, phase) == me


def _waits(state: State, me: str, c: Candidate) -> bool:
    """A device or POTUS ability that keeps for ME's later phase: played
    then, the opponent has less time to answer it (a destroyed argument
    refilled, a device destroyed). Cards that draw or take a card back are
    played early, while what they bring can still be played."""
    if c.action.name == "device":
        card = c.action.args.get("_card") or {}
    elif c.action.name == "ability":
        card = (state.fields.get("potus") or {}).get(me) or {}
    else:
        return False
    return card.get("action") not in EARLY


def choose(o: Options) -> Candidate | None:
    me = o.view.player(o.player).name
    lean = leans_of(o.view, me, o.hand)
    now = evaluate(o.view, o.player, lean)
    scored: list[tuple[float, Candidate]] = []
    passes: list[Candidate] = []
    later = _acts_again(o.view, me)
    for c in o.each():
        if c.action.name in PASSES:
            passes.append(c)
            continue
        if later and _waits(o.view, me, c):
            continue
        if not o.legal(c):
            continue
        after = o.after(c.action)
        if after is not None:
            bonus = CYCLE if c.action.name in ("argue", "device") else 0.0
            scored.append((evaluate(after, o.player, lean) + bonus, c))
    best = o.best(scored, floor=now + 0.25 if passes else float("-inf"))
    if best is not None:
        return best
    for name in PASSES:  # end the phase (or show a hand without arguments) rather than spend for nothing
        for c in passes:
            if c.action.name == name and o.legal(c):
                return c
    return o.best((s, c) for s, c in scored)
