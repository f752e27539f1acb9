"""The Culture War commands: parse, call one function of
referee.games.culture_war.commands, print. Offered only at culture-war tables.

Units, Real Estate and Operations in play have a handle: the number `status`
shows (type `7` or `#7`), or OWNER/NAME such as `ann/window-smasher-2`.
"""
from __future__ import annotations

import click

from referee.words import render
from referee.cli.common import AMOUNT, db_option, db_path, emit, warn
from referee.games.culture_war import commands as core
from referee.games.culture_war.view import odds_lines

DICE = click.option("--dice", "dice_text", metavar="A,B,..",
                    help="Physical dice in the order rolled, rerolls included; without it the table rolls.")


def _print(report: core.Report) -> None:
    warn(report.result.warnings)
    click.echo(render.act(report.result, report.notes))


@click.command()
@DICE
@db_option
def rolloff(dice_text) -> None:
    """Roll off for the first player: everyone rolls a die, highest goes first.

    Players who tie on the highest roll again (only they roll). Play then
    goes round the table in seating order from the winner. With --dice, type
    one die per player in seating order, then one per tied player for each
    reroll; you may also stop after a tie and run rolloff again for the rest.
    House rule first-player=seating skips the roll-off.

    \b
    Examples:
      referee rolloff
      referee rolloff --dice 5,3,5        (Ann and Cy tie on 5 ...)
      referee rolloff --dice 6,2          (... and roll again: Ann 6, Cy 2)
      referee rolloff --dice 5,3,5,6,2    (the same in one go)
    """
    _print(core.rolloff(db_path(), dice_text))


def _play_command(name: str, expect: str | None, what: str, examples: str):
    @click.argument("card")
    @click.option("--by", "player", metavar="NAME", help="The player playing it (default: whose turn it is).")
    @click.option("--on", metavar="TARGET",
                  help="What it acts on: a unit/Real Estate/Operation handle for Mods and targeted "
                       "effects, or a player for cards that target a player.")
    @click.option("--from", "sources", multiple=True, metavar="SOURCES",
                  help="Where the coins come from, in order: Real Estate handles and/or `bank` (e.g. 1,bank).")
    @click.option("--cost", type=int, metavar="N",
                  help="Pay N instead of the cost the referee works out (for card text it does not model).")
    @click.option("--dice", "dice_text", metavar="A,B,..",
                  help="Physical dice for a card that rolls as it is played; without it the table rolls.")
    @db_option
    def command(card, player, on, sources, cost, dice_text) -> None:
        _print(core.play(db_path(), card, player, on, sources, cost, expect, dice_text))

    command.__doc__ = f"""{what}

    CARD is a card id or the text of its QR code. The cost is paid from the
    player's coins on Real Estate (fullest first) and bank; coins of another
    faction pay at most half a card's cost and are used first up to that.
    Units, Real Estate, Mods, Happenings and Operations: only on your own
    turn, before your first attack. Flash: any time, by anyone; a battle
    Flash only in the battle waiting after its dice (`battle A D --window`),
    by one of its two players (--on may be left out: it finds its unit).

    \b
    Examples:
{examples}
    """
    return click.command(name)(command)


play = _play_command(
    "play", None, "Play a card: deploy a unit, buy Real Estate, or play an event.",
    "      referee play anarchy-window-smasher\n"
    "      referee play anarchy-gas-mask --on 5\n"
    "      referee play community-human-chain --by bo    (in the battle waiting after its dice)\n"
    "      referee play anarchy-looting-spree --on bo --from bank,1\n"
    "      referee play PNP:ANARCHY-RIOT-NIGHT:1A2B3C:1")
deploy = _play_command(
    "deploy", "unit", "Deploy a unit card into play, paying its cost.",
    "      referee deploy anarchy-window-smasher\n      referee deploy technocracy-data-intern --by bo")
buy = _play_command(
    "buy", "real-estate", "Buy a Real Estate card: your n-th Real Estate costs n (the first was free).",
    "      referee buy anarchy-squatted-factory\n      referee buy technocracy-server-farm --from 1,bank")


@click.command()
@click.argument("attacker")
@click.argument("defender")
@DICE
@click.option("--no-counter", is_flag=True, help="After a critical failure the defender declines to counter-attack.")
@click.option("--window", is_flag=True,
              help="Roll both dice and wait: Flashes may still be played, then `referee settle` fights it. "
                   "An attack tax (Non-Aggression Pact) is paid now, before the dice.")
@db_option
def battle(attacker, defender, dice_text, no_counter, window) -> None:
    """Fight: unit ATTACKER attacks unit DEFENDER, or a player's LIFE.

    ATTACKER is a unit handle; DEFENDER a unit handle, or a player's name to
    attack their LIFE directly.

    Both roll a d6: attacker total = die + ATK, defender total = die + DEF,
    after mods; ties roll again. A kill costs the defender's owner 5, a
    failed attack costs the attacker's owner 2. A failed attack on a rolled
    1 is a critical failure: the defender counter-attacks (a 1 there starts
    nothing). Heroes: a Hero's kill costs 10, its failure 4, losing one 10.
    Cyber units fight only Cyber units. LIFE can be attacked when the player
    has no units (a Cyber attacker: no Cyber units); house rules
    unopposed-damage (5) and unopposed-hero-damage (10) set the damage, and
    counter-fail (free) whether a failed counter-attack costs anything.
    A defender's attack tax (Non-Aggression Pact) is paid as the attack is
    made, before any die: with --window as the dice are shown, so coins
    spent on a Flash while they wait cannot leave it unpaid.

    \b
    Examples:
      referee battle 5 2
      referee battle ann/window-smasher-2 bo/data-intern --dice 3,3,5,1
      referee battle 5 bo                 (Bo has no units: straight at LIFE)
      referee battle 5 2 --dice 1,4 --no-counter
      referee battle 5 2 --window          (dice shown; Flashes; then: referee settle)

    Without --window the battle is fought at once (nobody wants to answer).
    """
    _print(core.fight(db_path(), attacker, defender, dice_text, not no_counter, window))


@click.command()
@DICE
@db_option
def settle(dice_text) -> None:
    """Fight the battle whose dice `battle --window` showed, with those dice
    and any Flashes played since (--dice only for further dice it needs:
    a tie, a reroll, a counter-attack). An attack tax (Non-Aggression Pact)
    was paid as the dice were shown; settle charges nothing more for it
    (a battle shown before rules culture-war-8 pays it at settle).

    \b
    Example:
      referee settle
    """
    _print(core.settle(db_path(), dice_text))


@click.command()
@click.argument("attacker")
@click.argument("defender")
@click.option("--no-counter", is_flag=True, help="Assume the defender declines to counter-attack.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (fractions as text) for scripts.")
@db_option
def odds(attacker, defender, no_counter, as_json) -> None:
    """Exact chances of `battle ATTACKER DEFENDER` now, as fractions, and the
    expected life change of both players. Rolls nothing, logs nothing.

    \b
    Examples:
      referee odds 5 2
      referee odds ann/masked-rioter bo/data-intern --json
    """
    report = core.odds(db_path(), attacker, defender, not no_counter)
    if as_json:
        emit(report.to_json())
    else:
        click.echo("\n".join(odds_lines(report.state, report.attacker, report.defender, report.odds, report.damage,
                                         report.changes)))


@click.command()
@click.argument("players", nargs=-1, required=True)
@db_option
def ally(players) -> None:
    """Form an alliance between two or more players (allies may give each
    other life and capital).

    \b
    Examples:
      referee ally ann bo
      referee ally ann bo cy
    """
    _print(core.simple(db_path(), "ally", {"players": list(players)}))


@click.command()
@click.argument("players", nargs=-1, required=True)
@db_option
def unally(players) -> None:
    """End an alliance: between the players named, or all of one player's.

    \b
    Examples:
      referee unally ann bo
      referee unally cy
    """
    _print(core.simple(db_path(), "unally", {"players": list(players)}))


@click.command(context_settings=AMOUNT)
@click.argument("giver")
@click.argument("receiver")
@click.argument("amount", type=int)
@db_option
def donate(giver, receiver, amount) -> None:
    """GIVER gives AMOUNT life to an ally; the donor must keep at least 1.

    \b
    Example:
      referee donate ann bo 10
    """
    _print(core.simple(db_path(), "donate", {"from": giver, "to": receiver, "amount": amount}, giver))


@click.command(context_settings=AMOUNT)
@click.argument("giver")
@click.argument("receiver")
@click.argument("amount", type=int)
@click.option("--faction", help="Give only coins of this faction.")
@db_option
def gift(giver, receiver, amount, faction) -> None:
    """GIVER gives AMOUNT capital coins to an ally's bank. Coins keep their
    faction: spent on a card of another faction they pay at most half its cost.

    \b
    Examples:
      referee gift ann bo 2
      referee gift ann bo 1 --faction anarchy
    """
    args = {"from": giver, "to": receiver, "amount": amount, "faction": faction.lower() if faction else None}
    _print(core.simple(db_path(), "gift", {k: v for k, v in args.items() if v is not None}, giver))


@click.command()
@click.argument("piece")
@click.option("--mod", metavar="CARD", help="Take only this Mod (card id) off the piece.")
@click.option("--reason", help="Why, for the log.")
@db_option
def discard(piece, mod, reason) -> None:
    """Take a unit, Real Estate or Operation out of play (or a Mod off it)
    when card text says so. Nobody loses life for it: use `referee life`.

    \b
    Examples:
      referee discard 9 --reason "burnout roll of 1"
      referee discard 5 --mod anarchy-gas-mask
    """
    args = {"piece": piece, "mod": mod, "reason": reason}
    _print(core.simple(db_path(), "discard", {k: v for k, v in args.items() if v is not None}))


@click.command()
@click.argument("count", type=int, default=1)
@click.option("--by", "player", metavar="NAME", help="The player drawing (default: whose turn it is).")
@click.option("--reason", help="Which card made them draw, for the log.")
@db_option
def draw(count, player, reason) -> None:
    """A player draws COUNT cards (default 1) because a card says so.

    The draw as each turn begins is made by end-turn; the first hand of 5 at
    the start. `status` shows each player's hand and draw pile counts.

    \b
    Examples:
      referee draw
      referee draw 2 --by bo --reason "Open Mic Night"
    """
    _print(core.draw(db_path(), count, player, reason))


@click.command("discard-hand")
@click.argument("card")
@click.option("--by", "player", metavar="NAME", help="The player discarding (default: whose turn it is).")
@click.option("--reason", help="Which card made them discard, for the log.")
@db_option
def discard_hand(card, player, reason) -> None:
    """A card goes from a player's hand to their discard pile (card text
    made them discard it). CARD is its id or QR text: the card is shown.

    \b
    Examples:
      referee discard-hand technocracy-data-intern --by bo
      referee discard-hand anarchy-riot-night --reason "Draw 3, then discard 1"
    """
    _print(core.discard_hand(db_path(), card, player, reason))


@click.command()
@click.argument("unit")
@click.option("--by", "player", metavar="NAME", help="The player taking control (default: whose turn it is).")
@click.option("--from", "sources", multiple=True, metavar="SOURCES", help="Where the coins come from, in order.")
@db_option
def seize(unit, player, sources) -> None:
    """Take control of an enemy unit whose card offers it for a price (for
    example Earnest Newcomer), on your own turn, paying that price.

    \b
    Examples:
      referee seize bo/earnest-newcomer
      referee seize 7 --by cy --from bank
    """
    _print(core.seize(db_path(), unit, player, sources))


COMMANDS: dict[str, click.Command] = {
    "rolloff": rolloff, "play": play, "deploy": deploy, "buy": buy, "battle": battle, "attack": battle,
    "odds": odds, "ally": ally, "unally": unally, "donate": donate, "gift": gift, "discard": discard,
    "draw": draw, "discard-hand": discard_hand, "seize": seize, "settle": settle,
}
