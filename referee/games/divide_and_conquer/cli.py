"""The Divide & Conquer commands: parse, call one function of
referee.games.divide_and_conquer.commands, print. Offered only at
divide-and-conquer tables."""
from __future__ import annotations

import click

from referee.words import render
from referee.table import operations as table
from referee.cli.common import AMOUNT, db_option, db_path, warn
from referee.games.divide_and_conquer import commands as core

BY = click.option("--by", "actor", metavar="NAME", help="The player acting (default: whose turn it is).")
ATTACH = click.option("--attach", "attaches", multiple=True, metavar="CARD=GROUP",
                      help="Put an asset or deficit from the hand on a group in the fight. Repeatable.")


def _print(result) -> None:
    warn(result.warnings)
    click.echo(render.act(result))


@click.command()
@click.argument("card")
@click.option("--group", "groups", multiple=True, metavar="GROUP",
              help="The group it picks (g-number or card id); for an event on everyone, the pick of a player "
                   "hit (a player whose pick is not named is asked).")
@click.option("--attachment", metavar="CARD", help="The asset or deficit it discards (on --group).")
@click.option("--player", "pick", metavar="NAME", help="The player a one-player event picks.")
@BY
@db_option
def event(card, groups, attachment, pick, actor) -> None:
    """Play the event CARD from your hand; it goes to the discard pile and your turn ends.

    The referee applies the card's effect as printed. Groups under an
    event-immune asset cannot be picked; a player with nothing the event can
    touch ignores it. An event with nothing at all to hit is played without
    --group: it does nothing and is discarded. An event that says "pick
    another player" cannot pick the player who plays it. An event on
    everyone where each owner picks a group: name a pick with --group, or
    leave it out and the owner is asked (`referee resolve N GROUP`); the
    turn ends once every pick is in.

    \b
    Examples:
      referee event dc-event-career-ending-scandal --group g7
      referee event dc-event-opposition-research --group g3 --attachment dc-asset-offshore-trust
      referee event dc-event-fundraising-gala --player Ben
      referee event dc-event-culture-panic --group g2 --group g9
      referee event dc-event-market-crash      (then: referee resolve 1 g4)
    """
    _print(core.play(db_path(), "event", card, actor, groups=groups, attachment=attachment, pick=pick))


@click.command()
@click.argument("card")
@BY
@db_option
def unaffiliate(card, actor) -> None:
    """Move the group CARD from your hand to the unaffiliated centre; your turn ends.

    \b
    Examples:
      referee unaffiliate dc-left-prestige-media
      referee unaffiliate PNP:DC-RIGHT-MEGACHURCH-BROADCAST:0A1B2C:1 --by Cy
    """
    _print(core.play(db_path(), "unaffiliate", card, actor))


@click.command()
@click.argument("card")
@BY
@db_option
def recruit(card, actor) -> None:
    """Add the group CARD from your hand to your own base; your turn ends.

    Each turn is one action (event, unaffiliate, recruit, attach or an
    attack); `referee next` passes without one. The next player's draw is
    counted as their turn starts.

    \b
    Examples:
      referee recruit dc-left-prestige-media
      referee recruit dc-right-megachurch-broadcast --by Ana
    """
    _print(core.play(db_path(), "recruit", card, actor))


@click.command()
@click.argument("card")
@click.argument("group")
@BY
@db_option
def attach(card, group, actor) -> None:
    """Put the asset or deficit CARD on GROUP (anyone's, or unaffiliated); your turn ends.

    GROUP is its g-number from `status`, or its card id if only one copy is
    on the table. Cards on a group stay in the order they were added.

    \b
    Examples:
      referee attach dc-asset-offshore-trust g4
      referee attach dc-deficit-hot-mic-moment dc-left-prestige-media
    """
    _print(core.play(db_path(), "attach", card, actor, onto=group))


@click.command()
@click.argument("target")
@click.option("--intent", required=True, type=click.Choice(["take-over", "destroy"]),
              help="Take the group over into your base, or destroy it.")
@BY
@db_option
def attack(target, intent, actor) -> None:
    """Declare an attack on the group TARGET (step 1 of the attack).

    The attack then goes through its phases, shown by `status`: team (your
    attack team, `team`); call-or-raise (another player's group only: the
    defender may `call` or `raise` once); add (after a raise only: you may
    `team` once more, or roll); roll (`fight`, a d6 each). An unaffiliated
    group, or one of your own (destroy only), defends with its roll and its
    influence only.

    \b
    Examples:
      referee attack g7 --intent take-over
      referee attack dc-left-prestige-media --intent destroy
    """
    _print(core.attack(db_path(), target, intent, actor))


@click.command()
@click.argument("cards", nargs=-1)
@click.option("--join", multiple=True, metavar="GROUP",
              help="A group in your base whose asset lets it join attacks (it stays in your base).")
@ATTACH
@BY
@db_option
def team(cards, join, attaches, actor) -> None:
    """Lay your attack team: groups from your hand (phase team; again in phase add, after a raise).

    Assets and deficits go on any card in the fight with --attach: the
    target, your team, or after a raise the defence team (GROUP may be a card
    laid in the same command). `team` with no cards attacks with the die
    alone; the addition after a raise needs at least one card (to add
    nothing, `fight`). A base group joins with --join once per attack.

    \b
    Examples:
      referee team dc-left-celebrity-activist dc-left-renewable-energy-lobby
      referee team dc-left-big-tech-ethics-board --attach dc-asset-offshore-trust=dc-left-big-tech-ethics-board
      referee team --join g2 --attach dc-deficit-hot-mic-moment=g7
    """
    _print(core.team(db_path(), cards, join, attaches, actor))


@click.command("raise")
@click.argument("cards", nargs=-1)
@ATTACH
@BY
@db_option
def raise_(cards, attaches, actor) -> None:
    """Defend by raising once: groups from your hand, and assets or deficits on any card in the fight.

    A raise lays at least one card; to add nothing, `call`. After a raise
    the attacker may add once more.

    \b
    Examples:
      referee raise dc-right-megachurch-broadcast
      referee raise --attach dc-deficit-doctored-photo=g12 --by Ben
    """
    _print(core.raise_(db_path(), cards, attaches, actor))


@click.command()
@BY
@db_option
def call(actor) -> None:
    """Defend by calling: take on the attack team as it stands.

    \b
    Examples:
      referee call
      referee call --by Ben
    """
    _print(core.call(db_path(), actor))


@click.command()
@click.option("--dice", "dice_text", metavar="ATTACKER,DEFENDER", help="The two d6 rolled at the table.")
@db_option
def fight(dice_text) -> None:
    """Roll a d6 for each side and settle the attack; the attacker's turn ends.

    Each side adds its influence: the attack team (and any base group that
    joined); the target plus, for a player's group, the defence team and
    every group in the defender's base whose asset defends the whole base.
    The attacker must roll strictly higher. Win: the target and everything
    on it goes to the attacker's base (take-over) or the discard pile
    (destroy). Either way the team cards go to their players' bases.

    \b
    Examples:
      referee fight
      referee fight --dice 5,3
    """
    _print(core.fight(db_path(), dice_text))


@click.command(context_settings=AMOUNT)
@click.argument("player")
@click.argument("amount")
@click.option("--reason", help="Why, for the log.")
@db_option
def hand(player, amount, reason) -> None:
    """Correct the count of cards in PLAYER's hand: -N, +N or =N.

    The referee counts hands itself (6 dealt, 1 drawn each turn, cards
    played, events); use this when the table and the count disagree. Every
    card stays somewhere: cards added come from the deck, cards taken away
    go to the discard pile unseen.

    \b
    Examples:
      referee hand Ben +1 --reason "misdeal"
      referee hand Ana =4
    """
    _print(core.hand(db_path(), player, table.parse_change(amount, f"{player}'s hand"), reason))


COMMANDS: dict[str, click.Command] = {
    "event": event, "unaffiliate": unaffiliate, "recruit": recruit, "attach": attach, "attack": attack,
    "team": team, "raise": raise_, "call": call, "fight": fight, "hand": hand,
}
