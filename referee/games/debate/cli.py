"""The debate commands: parse, call one function of
referee.games.debate.commands, print. Offered only at debate tables."""
from __future__ import annotations

import click

from referee.words import render
from referee.cli.common import AMOUNT, db_option, db_path, emit, warn
from referee.games.debate import commands as core, view

THREAD = click.IntRange(1, 7)
BY = click.option("--by", "player", metavar="NAME", help="The player playing it (default: whose turn it is).")
TARGET = click.option("--target", type=THREAD, metavar="THREAD",
                      help="The thread an ability picks (its side follows from the card: yours or the opponent's).")
DEVICE = click.option("--device", metavar="CARD", help="The device an ability picks, by card id or name.")
TO = click.option("--to", type=THREAD, metavar="THREAD", help="Where a taken argument or moved device goes.")
BACK = click.option("--back", metavar="CARD",
                    help="The card an ability takes back from your discard pile into your hand (id or name).")
TOWARD = click.option("--toward", type=click.Choice(["mob", "citizen"]),
                      help="The direction, for crowd shifts that let you choose.")


def _print(result, card=None) -> None:
    warn(result.warnings)
    click.echo(render.act(result))
    note = view.ability_note(card) if card else None
    if note:
        click.echo(f"  reminder: {note}")


@click.command()
@click.argument("card")
@click.argument("thread", type=THREAD)
@BY
@BACK
@db_option
def argue(card, thread, player, back) -> None:
    """Play the argument CARD (card id or QR text) from your hand into THREAD (1-7).

    In phase one the first player opens threads and the second answers them
    (house rule open-threads); in cross-examination and the last word an
    argument only refills a thread of yours emptied this round. One argument
    per thread and side. The card must be a free copy of your tactic deck.
    Abilities printed "On play" resolve now (a take-back names its card
    with --back); those printed "At round end" wait for round end and are
    lost if the argument leaves the forum first.

    \b
    Examples:
      referee argue deb-shouting-match-2 1
      referee argue PNP:DEB-COMMON-GROUND-1:3F9A2C:1 4 --by Ben
      referee argue deb-steelman-2 3 --back deb-measured-rebuttal-1
    """
    played = core.play(db_path(), "argue", card, thread, player, back=back)
    _print(played.result, played.card)


@click.command()
@click.argument("card")
@click.argument("thread", type=THREAD)
@BY
@TARGET
@DEVICE
@TO
@TOWARD
@BACK
@db_option
def device(card, thread, player, target, device, to, toward, back) -> None:
    """Play the rhetorical device CARD on your argument in THREAD.

    Its strength and cost join that thread. Its instant ability resolves
    now (crowd shifts, -N strength, destroying a tactic ...); name what it
    picks with --target/--device/--toward. At round end every device still
    in the forum moves the crowd 1 toward its argument's side (BF: mob,
    GF: citizen); a device removed before then does not.

    \b
    Examples:
      referee device deb-cheap-laugh 2
      referee device deb-strawman 1 --target 3
      referee device deb-point-of-order 4 --target 2 --device deb-cheap-laugh
      referee device deb-spin-room 1 --toward citizen --by Ana
      referee device deb-revisit-the-record 2 --back deb-shouting-match-2
    """
    played = core.play(db_path(), "device", card, thread, player, target, device, to, toward, back)
    _print(played.result, played.card)


@click.command()
@click.argument("player")
@click.argument("thread", type=THREAD)
@click.option("--device", metavar="CARD", help="Destroy only this device (card id or name).")
@click.option("--by", "actor", metavar="NAME", help="Who destroys it (a protected thread refuses the opponent).")
@db_option
def destroy(player, thread, device, actor) -> None:
    """Destroy PLAYER's argument in THREAD (its devices go with it), or one device.

    A destroyed tactic costs nothing at round end and its round-end work,
    crowd work included, is undone; instant abilities it used stay done.
    Use it for abilities the referee does not resolve by itself.

    \b
    Examples:
      referee destroy Ben 3
      referee destroy Ben 3 --device deb-cheap-laugh --by Ana
    """
    _print(core.remove(db_path(), "destroy", player, thread, device, actor))


@click.command("return")
@click.argument("player")
@click.argument("thread", type=THREAD)
@click.option("--device", metavar="CARD", help="Return only this device (card id or name).")
@db_option
def return_(player, thread, device) -> None:
    """Send PLAYER's argument in THREAD (with its devices), or one device, back to the hand.

    Like a destroyed tactic it costs nothing and its round-end work is undone.

    \b
    Examples:
      referee return Ana 2
      referee return Ana 2 --device deb-mic-drop
    """
    _print(core.remove(db_path(), "return", player, thread, device))


@click.command()
@click.argument("player")
@TARGET
@DEVICE
@TO
@TOWARD
@BACK
@db_option
def ability(player, target, device, to, toward, back) -> None:
    """Use PLAYER's POTUS ability (once per round or per match, as printed).

    In PLAYER's own turn, or by either player in the POTUS window. Passive
    abilities need no command: the referee applies them. An ability with
    nothing to work on is refused, not spent: one that picks one of your
    threads needs an argument of yours there. What only a person can do
    (Nixon looking at a hand) is asked as a prompt: the table waits for
    `referee resolve N done`.

    \b
    Examples:
      referee ability Ana --target 3            (Jackson: +2 to Ana's thread 3)
      referee ability Ben --target 1            (Truman: -2 to Ana's argument in thread 1)
      referee ability Ben --toward mob          (Reagan)
      referee ability Ana --target 2 --to 5     (Johnson takes Ben's thread 2 into Ana's thread 5)
      referee ability Ben --back deb-common-ground-2   (Carter: a GF argument back to the hand)
    """
    played = core.ability(db_path(), player, target, device, to, toward, back)
    _print(played.result, played.card)


@click.command()
@click.argument("player")
@click.argument("card")
@db_option
def potus(player, card) -> None:
    """Give PLAYER the POTUS CARD (card id or QR text), before any tactic is played.

    Usually the POTUS is named at setup: --player Ana:deb-lincoln.

    \b
    Examples:
      referee potus Ana deb-truman
      referee potus Ben PNP:DEB-REAGAN:7C21D0:1
    """
    _print(core.potus(db_path(), player, card))


@click.command(context_settings=AMOUNT)
@click.argument("player")
@click.argument("amount")
@click.option("--reason", help="Why, for the log.")
@db_option
def fortitude(player, amount, reason) -> None:
    """Correct PLAYER's fortitude by hand: -N, +N, =N or =-N (round end does the usual sums).

    Debaters start with the house rule starting-fortitude, default 60: the
    rulebook names no number but says matches last 3-4 rounds, and with the
    starter decks a debater loses about 15-20 fortitude a round, so 60 ends
    most matches in round 3 or 4. Change it with
    `referee new debate ... --house-rule starting-fortitude=80`.

    \b
    Examples:
      referee fortitude Ana -3 --reason "card misread"
      referee fortitude Ben =40
      referee fortitude Ben =-5
    """
    _print(core.fortitude(db_path(), player, core.parse_amount(amount, f"{player}'s fortitude"), reason))


@click.command()
@click.argument("player")
@click.argument("cards", nargs=-1, required=True)
@db_option
def deck(player, cards) -> None:
    """Set PLAYER's 15-card tactic deck before the first tactic of the match:
    starter deck `a` or `b`, or 15 card ids.

    Without it the referee learns each deck as its cards are played (and
    refuses a 16th different card). No two decks hold more copies of a card
    than are printed. The other player sees only that a deck was chosen.

    \b
    Examples:
      referee deck Ana b
      referee deck Ben deb-shouting-match-1 deb-steelman-1 ... (15 cards)
    """
    _print(core.deck(db_path(), player, list(cards)))


@click.command("no-argument")
@click.option("--by", "player", metavar="NAME", help="The player showing the hand (default: whose turn it is).")
@db_option
def no_argument(player) -> None:
    """Show a hand with no argument in it, so phase one can pass without one.

    Each player plays at least one argument in phase one; `next` refuses to
    pass before that, unless the hand holds none.

    \b
    Example:
      referee no-argument --by Ben
    """
    _print(core.no_argument(db_path(), player))


@click.command("round-end")
@click.option("--preview", is_flag=True, help="Only show what round end would do; change nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the breakdown as JSON.")
@db_option
def round_end(preview, as_json) -> None:
    """Resolve the round and print the breakdown per thread (in the POTUS window).

    In order: device and round-end crowd work moves the crowd (held within
    -30..+30); the crowd scales each argument's printed strength by its
    percent (up for its side, down for the other, halves rounded away from
    zero); POTUS alignment bonuses and abilities apply; each thread totals
    its argument and devices; in each column the larger total deals the
    difference (an unopposed one its whole total) to the other debater;
    each debater pays their own costs. At 0 fortitude or below the higher
    fortitude wins; level fortitude means a tiebreaker round. The forum's
    tactics go to their owners' discard piles (or back to the hand when
    their text says so), both debaters draw back up to 5, shuffling the
    discard pile into the deck when it runs short, and the next round is
    opened by the other debater. Only in the POTUS window: `next` moves
    through the phases. Debaters start with 60 fortitude (house rule
    starting-fortitude; `referee games` lists the house rules).

    \b
    Examples:
      referee round-end --preview
      referee round-end
      referee round-end --json
    """
    done = core.round_end(db_path(), preview)
    if as_json:
        emit(done.report.to_json())
        return
    if done.result is not None:
        click.echo(render.act(done.result))
    click.echo("\n".join(view.breakdown(done.report)))


COMMANDS: dict[str, click.Command] = {
    "argue": argue, "device": device, "destroy": destroy, "return": return_, "ability": ability,
    "potus": potus, "fortitude": fortitude, "round-end": round_end, "deck": deck, "no-argument": no_argument,
}
