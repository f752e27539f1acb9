"""Text for people: tables, log lines and change summaries.

Pure functions from results to strings; cli.py prints them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from referee.rules import prompts
from referee.rules.copies import where_text
from referee.rules.facts import Fact, Kind, change, player_line
from referee.rules import rules_for, visible_state
from referee.words.fields import value_text as _value
from referee.words.view import view_for
from referee.model import SCOREKEEPER, Event, EventKind, State, actor_label

if TYPE_CHECKING:  # only for annotations: keeps startup light
    from referee.table.history import LogView
    from referee.table.transfer import ReplayResult
    from referee.table.results import ActResult, RollResult
    from referee.table.views import StatusView

CROWD_SIDES = ("Irrational Mob", "Enlightened Citizen")


def table(rows: Sequence[Sequence[str]], right: Iterable[int] = ()) -> list[str]:
    """Rows aligned in columns; columns in `right` are right-aligned (numbers)."""
    right = set(right)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = []
    for row in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return lines


def crowd(value: int) -> str:
    if value == 0:
        return "0 (even)"
    side = CROWD_SIDES[0] if value < 0 else CROWD_SIDES[1]
    return f"{value:+d} ({side})"


def status(view: StatusView, reveal: Sequence[str] = ()) -> str:
    s = visible_state(view.state, reveal)  # hidden cards stay hidden unless revealed
    head = f"{view.title} - turn {s.turn}, round {s.round}, " + (
        f"won by {s.winner}" if s.winner else f"{s.active_player.name} to play"
    )

    words = view_for(s.game)
    columns: list[tuple[str, Any]] = [("player", None)]
    if any(p.faction for p in s.players):
        columns.append(("faction", "faction"))
    if any(p.life is not None for p in s.players):
        columns.append(("life", "life"))
    if any(p.capital is not None for p in s.players):
        columns.append(("capital", "capital"))
    extra = [k for k in dict.fromkeys(k for p in s.players for k in p.fields) if k not in words.quiet]
    rows = [["", *(name for name, _ in columns), *extra, ""]]
    numeric = {i + 1 for i, (_, key) in enumerate(columns) if key in ("life", "capital")}
    for i, p in enumerate(s.players):
        row = [">" if i == s.active and s.winner is None else "", p.name]
        row += [_value(getattr(p, key)) for _, key in columns[1:]]
        row += [_value(p.fields.get(k)) for k in extra]
        row.append("out" if p.eliminated else ("winner" if p.name == s.winner else ""))
        rows.append(row)
    lines = [head, *("  " + line for line in table(rows, numeric))]
    if s.crowd is not None:
        lines.append(f"crowd: {crowd(s.crowd)}")
    own = words.render_lines(s)  # the game draws its own part
    phase = rules_for(s.game).phase(view.state)
    if phase and s.winner is None and not any(line.startswith("phase:") for line in own):
        lines.append(f"phase: {phase}")
    lines.extend(own)
    lines.extend(prompt_lines(s))
    if s.winner is not None:
        lines.append(f"winner: {s.winner}")
    events = f"{view.log_length} event" + ("" if view.log_length == 1 else "s")
    dice = "dice unpredictable (the OS's randomness)" if view.seed is None else f"seed {view.seed}"
    lines.append(f"{view.path} - {events} - {dice}")
    if view.archived is not None:
        lines.append(f"the table that was at {view.path} is kept as {view.archived}")
    return "\n".join(lines)


def prompt_lines(state: State) -> list[str]:
    """A line per card prompt the table must answer before play goes on."""
    return [p.describe() for p in prompts.pending(state)]


def _change_text(args: Mapping[str, Any]) -> str:
    if args.get("to") is not None:
        return f"={args['to']}"
    if args.get("by") is not None:
        return f"{args['by']:+d}"
    return ""


def describe(event: Event, target: Event | None = None, rules: Any = None, before: State | None = None) -> str:
    """One line saying what an event did, in words: the game's phrase for the
    action (referee/wording.py) when `rules` are given, naming the things on
    the table `before` it when known; otherwise the command's own words."""
    return _words(event, target, rules, before).text


@dataclass(frozen=True)
class _Described:
    text: str  # the whole line
    said: str  # what it says, without the dice (an echo drops a change line repeating it)


def _words(event: Event, target: Event | None, rules: Any, before: State | None) -> _Described:
    args = event.args
    if event.kind is EventKind.SETUP:
        players = ", ".join(f"{n} ({f})" if f else n for n, f in args["players"])
        text = f"new {args['game']}: {players}"
        return _whole(text + (f"; dice {_dice(event.dice)}" if event.dice else ""))
    if event.kind is EventKind.ROLL:
        return _whole(f"roll {roll_line(event)}" + (f" - {args['reason']}" if args.get("reason") else ""))
    if event.kind in (EventKind.UNDO, EventKind.REDO):
        what = f" ({describe(target, None, rules)})" if target is not None else ""
        return _whole(f"{event.kind.value} #{event.target}{what}")
    named = _card_names(event.cards)
    hidden = {"reason", "force", *INTERNAL_ARGS}
    said = _phrased(event, rules, before, named)
    if said is not None:
        parts, used = [said[0]], said[1] | hidden
    else:
        parts, used = [event.action], {"player", "by", "to", *hidden}
        if "player" in args:
            parts.append(str(args["player"]))
        change = _change_text(args)
        if change:
            parts.append(change)
    if event.action == "win" and args.get("force"):
        parts.append("(override: declared by hand while the rules could still decide)")
    for key, value in args.items():
        if key in used or key.startswith("_"):  # _x: data for the rules
            continue
        if key in ("card", "cards") and value and all(str(v) in named for v in (value if isinstance(value, list) else [value])):
            parts.append(", ".join(named[str(v)] for v in (value if isinstance(value, list) else [value])))
            continue
        parts.append(f"{key}={_value(value)}")
    shown = " ".join(parts)
    extra = [named[c] for c in event.cards if named.get(c) and named[c] not in shown and not _mentioned(args, c)]
    if extra:
        parts.append("card " + ", ".join(extra))
    reason = f" - {args['reason']}" if args.get("reason") else ""
    if event.dice and said is not None:
        words = " ".join(parts)
        return _Described(f"{words} (dice {_dice(event.dice)}){reason}", words)
    if event.dice:
        parts.append(f"dice {_dice(event.dice)}")
    return _whole(" ".join(parts) + reason)


def _whole(text: str) -> _Described:
    return _Described(text, text)


def _phrased(event: Event, rules: Any, before: State | None, named: Mapping[str, str]) -> tuple[str, set[str]] | None:
    if rules is None:
        return None
    args = event.args
    # the one acting: the recorded actor (`destroy Bo 1 --by Ann`: Ann), else the player the action is about
    who = str(event.actor or args.get("player") or (before.active_player.name if before is not None else ""))
    from referee.words.wording import Words, phrase  # lazy: status never words an action

    values = {v for value in args.values() for v in (value if isinstance(value, list) else [value])
              if isinstance(v, str) and "-" in v and v not in named}  # card ids look like deb-cheap-laugh
    more = {v: n for v, n in _card_names(dict.fromkeys(values)).items() if n != v}
    view = view_for(rules.slug)
    words = Words(args, who, {**named, **more}, before, view.label)
    return phrase(view.phrases, event.action, words)


INTERNAL_ARGS = {"rolls"}  # how many dice an action took: the dice themselves are shown


def _card_names(cards: Mapping[str, str] | None) -> dict[str, str]:
    """Card id -> its name as printed, for the cards an event names (the id when unknown)."""
    if not cards:
        return {}
    try:
        from referee.cards import load_index, project_root  # lazy: the card index, only when an event names a card

        index = load_index(project_root())
    except Exception:  # no project at hand: the ids must do
        return {c: c for c in cards}
    return {c: (index.cards[c].name if c in index.cards else c) for c in cards}


def _mentioned(args: Mapping[str, Any], card_id: str) -> bool:
    return any(v == card_id or (isinstance(v, list) and card_id in v) for k, v in args.items() if k in ("card", "cards"))


def _dice(values: Sequence[int]) -> str:
    return ",".join(str(v) for v in values)


def roll_line(event: Event) -> str:
    args = event.args
    dice, kept, total = list(event.dice), list(args["kept"]), args["total"]
    text = f"{args['expr']}: {', '.join(map(str, dice))}"
    if kept != dice:
        text += f" -> keep {', '.join(map(str, kept))}"
    modifier = total - sum(kept)
    if modifier:
        text += f" {'+' if modifier > 0 else '-'} {abs(modifier)}"
    return text + f" = {total}"


def roll(result: RollResult) -> str:
    return roll_line(result.event)


def changes(before: State, after: State) -> list[str]:
    """What differs between two states, a line each (see change_facts)."""
    return [f.text for f in change_facts(before, after)]


def change_facts(before: State, after: State) -> list[Fact]:
    """What differs between two states: one line per player (every number of
    theirs that moved, each kept by its key in `items`), then the game's own
    lines, the crowd, prompts, the turn and the winner."""

    words = view_for(after.game)
    quiet = words.quiet
    out: list[Fact] = []
    for old, new in zip(before.players, after.players):
        moved: list[tuple[str, str]] = []
        for key in ("life", "capital", "faction"):
            a, b = getattr(old, key), getattr(new, key)
            if a != b:
                moved.append((key, f"{key} {_value(a)} -> {_value(b)}"))
        for key in dict.fromkeys([*old.fields, *new.fields]):
            if key not in quiet and old.fields.get(key) != new.fields.get(key):
                moved.append((key, f"{key} {_value(old.fields.get(key))} -> {_value(new.fields.get(key))}"))
        if moved:
            out.append(Fact(player_line(new.name, tuple(moved)), Kind.CHANGE, new.name, items=tuple(moved)))
        if old.eliminated != new.eliminated:
            out.append(change(f"{new.name} is out of the game" if new.eliminated else f"{new.name} is back in the game"))
    if before.crowd != after.crowd:
        out.append(change(f"crowd {crowd(before.crowd or 0)} -> {crowd(after.crowd or 0)}"))
    out.extend(words.change_facts(before, after))  # the game words its own changes
    asked = {p.number for p in prompts.pending(before)}
    answered = [p for p in prompts.pending(before) if p.number not in {q.number for q in prompts.pending(after)}]
    out.extend(change(f"prompt {p.number} ({p.card}) answered") for p in answered)
    out.extend(change(p.describe()) for p in prompts.pending(after) if p.number not in asked)
    if after.winner is None and (before.turn, before.active) != (after.turn, after.active):
        out.append(change(f"turn {after.turn} (round {after.round}): {after.active_player.name} to play"))
    if before.winner != after.winner:
        out.append(change(f"{after.winner} wins the game" if after.winner else f"{before.winner} no longer has won"))
    return out


def merged(facts: Sequence[Fact], lines: Sequence[Fact], before: State, after: State) -> list[str]:
    """A game's story of an action (`facts`) and the table's changes (`lines`),
    each fact said once: a fact that tells a player's life, payment or draw
    (its kind) gets the new total, and those numbers leave the player's
    change line. Decided by the facts' fields, never by their words."""
    said: dict[str, set[str]] = {}
    story = [f.text for f in facts]
    last: dict[tuple[str, str], int] = {}  # the last line about a player's total gets it
    for i, fact in enumerate(facts):
        player = _find(after, fact.who) if fact.covers else None
        if player is None:
            continue
        said.setdefault(player.name, set()).update(fact.covers)
        if fact.total is not None and getattr(player, fact.total) is not None:
            last[(player.name, fact.total)] = i
    for (name, total), i in last.items():
        value = getattr(_find(after, name), total)
        story[i] += f", capital now {value}" if total == "capital" else f", now {value}"
    rest = []
    for line in lines:
        kept = line.without(said[line.who]) if line.who in said else line
        if kept is not None:
            rest.append(kept.text)
    return story + rest


def _find(state: State, name: str | None) -> Any:
    return next((p for p in state.players if p.name == name), None)


def act(result: ActResult, facts: Sequence[Fact] | None = None) -> str:
    """An action's echo: what happened in words, then each thing it changed
    once. `facts` is the game's own story of it (Culture War's battle and
    production lines): those the action was played with (`result.facts`),
    else told by the rules again."""
    e = result.event
    rules = rules_for(result.after.game)
    if facts is None:
        facts = result.facts
    if facts is None:
        facts = rules.narrate(result.before, e.to_action(), e.dice) if e.kind is EventKind.ACTION else []
    if e.kind in (EventKind.UNDO, EventKind.REDO):
        verb = "undid" if e.kind is EventKind.UNDO else "redid"
        table_then = result.after if e.kind is EventKind.UNDO else result.before  # the table the undone action met
        head = f"#{e.seq} {verb} #{e.target} ({describe(result.undone, None, rules, table_then) if result.undone else ''})"
        said = None
    else:
        words = _words(e, None, rules, result.before)
        head = f"#{e.seq} {words.text}"
        said = words.said  # a line repeating the first one says nothing new
    table_lines = [line for line in change_facts(result.before, result.after) if not view_for(result.after.game).covered(facts, line)]
    told = merged(facts, table_lines, result.before, result.after)
    lines = [line for line in told if line != said] if told else ["no change to the table"]
    return "\n".join([head, *("  " + line for line in lines)])


def log(view: LogView) -> str:
    """The log as rows under turn headings. A row sits under the turn it was
    entered in (an end-turn under the player whose turn it ends) and says what
    the action did: `#12  bo  bo's #8 Security Robot attacks ann's #5 Window
    Smasher (dice 1,4,6,2): 1+3=4 v 4+0=4 tie; 6+3=9 v 2+0=2, kill; ann life -5 (93)`."""
    if not view.entries:
        return f"(no events shown; the log has {view.total})"

    game = _game_of(view)
    rules = rules_for(game) if game is not None else None
    rows, heading = [], None
    lines: list[str] = []
    previous: Event | None = None
    for entry in view.entries:
        e = entry.event
        if entry.before is not None:
            now = (entry.before.turn, entry.before.active_player.name)
        elif previous is not None:
            now = (previous.turn, previous.active)
        else:
            now = (e.turn, e.active)
        if now != heading:
            if rows:
                lines += table(rows, {0})
                rows = []
            lines.append(f"-- turn {now[0]}: {now[1]} --")
            heading = now
        text = log_line(e, entry.target, rules, entry.before, entry.after)
        rows.append([f"#{e.seq}", e.time[11:19], actor_label(e) or SCOREKEEPER, text, "undone" if entry.undone else ""])
        previous = e
    lines += table(rows, {0})
    return "\n".join(lines)


def _game_of(view: LogView) -> Any:
    for entry in view.entries:
        if entry.after is not None:
            return entry.after.game
        if entry.event.kind is EventKind.SETUP:
            return entry.event.args["game"]
    return None


def log_line(event: Event, target: Event | None, rules: Any, before: State | None, after: State | None) -> str:
    """A row of the log in words: the action's phrase and what it changed.
    The one wording of a row: `log` and the live page's "Latest" list both
    print it. `before` and `after` are the table as players see it."""
    text = describe(event, target, rules, before)
    if rules is not None and before is not None and after is not None:
        result = outcome(rules, before, event, after)
        if result:
            text += ": " + result
    return text


def outcome(rules: Any, before: State, event: Event, after: State) -> str:
    """What an action changed that the log keeps: the game's own account (a
    battle's dice) and each player's life, capital and scores, the crowd, who
    is out and who won."""
    words = view_for(after.game)
    parts = list(words.log_outcome(before, event, after))
    keys = ("life", "capital")
    for old, new in zip(before.players, after.players):
        for key in keys:
            a, b = getattr(old, key), getattr(new, key)
            if a != b and a is not None and b is not None:
                parts.append(f"{new.name} {key} {b - a:+d} ({b})")
        for key in words.tally:
            a, b = old.fields.get(key), new.fields.get(key)
            if a != b and isinstance(a, int) and isinstance(b, int):
                parts.append(f"{new.name} {key} {b - a:+d} ({b})")
        if new.eliminated and not old.eliminated:
            parts.append(f"{new.name} is out")
    if before.crowd != after.crowd and after.crowd is not None:
        parts.append(f"crowd {crowd(after.crowd)}")
    if after.winner and after.winner != before.winner:
        parts.append(f"{after.winner} wins")
    return "; ".join(parts)


def replay(result: ReplayResult, source: str) -> str:
    lines = []
    for step in result.steps:
        lines.append(f"== #{step.event.seq} {describe(step.event)}")
        lines.append(status(step.status))
    if result.archived is not None:
        lines.append(f"the table that was at {result.status.path} is kept as {result.archived}")
    lines.append(f"rebuilt {result.status.path} from {source}: {result.events} events")
    if not result.steps:
        lines.append(status(result.status))
    return "\n".join(lines)


def card(found: Any, where: Any = None) -> str:
    """A card from the index (a cards.Lookup), its fields one per line, and
    where its copies are on the table (a whereabouts.Whereabouts) when known."""
    c = found.card
    copy = f", printed copy {found.copy} of {c.quantity}" if getattr(found, "copy", None) else ""
    lines = [f"{c.name}  ({c.id}{copy})"]
    rows = [["game", f"{c.game}, deck {c.deck}, {c.type}, {c.quantity} cop{'y' if c.quantity == 1 else 'ies'}"],
            ["revision", c.revision]]
    skip = {"id", "name", "type", "quantity"}
    rows += [[k, _value(v)] for k, v in c.fields.items() if k not in skip]
    rows.append(["source", f"{c.path}:{c.line}"])
    lines += ["  " + line for line in table(rows)]
    if found.out_of_date:
        lines.append(f"PRINTED BEFORE THE LAST CHANGE: this copy is rev {found.printed_revision}, "
                     f"the source now reads {c.revision}")
        if found.changes is None:
            lines.append(f"  what changed is not known (neither the card index nor the last build "
                         f"remembers rev {found.printed_revision})")
        elif not found.changes:
            lines.append("  nothing printed on it changed")
        for change in found.changes or ():
            lines.append(f"  {change.words()}")
    if where is not None:
        free = max(1, c.quantity) - len(where.places)
        lines.append(f"on the table: {where_text(where.places)} ({free} of {max(1, c.quantity)} free)"
                     if where.places else f"on the table: none of its {max(1, c.quantity)} yet")
        if getattr(where, "copy", None):
            lines.append(copy_line(where, free))
    return "\n".join(lines)


def copy_line(where: Any, free: int) -> str:
    """Where the one printed copy a QR code named is."""
    if where.copy_places:
        return f"this copy (copy {where.copy}): {'; '.join(where.copy_places)}"
    if free <= 0:
        return (f"this copy (copy {where.copy}): on the table, as every copy is, but no command named it by "
                "its number, so which place is not known")
    return f"this copy (copy {where.copy}): not on the table by its number (free, unless it was put down unscanned)"


def games(rules_list: Sequence[Any]) -> str:
    lines = []
    for rules in rules_list:
        span = (f"{rules.min_players}" if rules.min_players == rules.max_players
                else f"{rules.min_players}-{rules.max_players}")
        lines.append(f"{rules.slug.value}: {rules.title}, {span} players")
        for key, rule in rules.house_rules.items():
            default = "computed" if rule.default is None else rule.default
            lines.append(f"  --house-rule {key}=...  (default {default}) ({rule.describe()}) {rule.help}")
    return "\n".join(lines)
