"""The 15 Minute Cold War commands: parse, call one function of
referee.games.cold_war.commands, print. Offered only at cold-war tables.

Cards are named by card id or by the text of their QR code; a spot on a
player's table by its label from `referee status`: S1, S2 ... for Science &
Culture, M1 ... for Military (M1.2 is the 2nd card of stack M1), A1 ... for
Assistant Leaders and L for the Leader stack.
"""
from __future__ import annotations

import click

from referee.words import render
from referee.cli.common import db_option, db_path, emit, warn
from referee.games.cold_war import commands as core
from referee.games.cold_war.view import odds_text

BY = click.option("--by", "actor", metavar="NAME", help="The player acting; refused if it is not their turn.")
OLD = " Only on a table started before the answer window (rules cold-war-5); since, the target uses `answer`."
BLOCK = click.option("--block", metavar="CARD", help="The defender answers with a Special that blocks." + OLD)
REDIRECT = click.option("--redirect", metavar="CARD", help="The defender answers with a Special that redirects." + OLD)
ONTO = click.option("--onto", metavar="PLAYER:SPOT", help="Where a redirected attack lands, e.g. Cy:M1." + OLD)


def _print(result) -> None:
    warn(result.warnings)
    click.echo(render.act(result))


@click.command("setup")
@click.argument("player")
@click.argument("cards", nargs=-1, required=True)
@click.option("--propaganda", multiple=True, metavar="CARD",
              help="A non-Military card placed face down in Military as Propaganda; counts among the 6.")
@click.option("--discard", multiple=True, metavar="CARD",
              help="The 3 cards discarded at setup, in the order they go on the pile (give it 3 times).")
@db_option
def setup_command(player, cards, propaganda, discard) -> None:
    """Record PLAYER's setup: the 9 cards drawn, 6 placed and 3 discarded.

    Science & Culture goes face up, Military Power face down, Assistant
    Leaders onto the Leader stack (at most house rule leader-stack cards,
    Leader included), Special cards face down as Propaganda (house rule
    propaganda=on). PLAYER then draws a hand of 5; the referee counts it
    but learns each card only when it is played. Every player sets up,
    then `start`. The echo never names a face-down card.

    \b
    Examples:
      referee setup Ana cold-wm-kitchen cold-wm-cavalry cold-wm-marines \\
          cold-wm-joint-brass cold-wm-proxy-war --propaganda cold-wm-rock-radio \\
          --discard cold-wm-airborne --discard cold-wm-radar-line --discard cold-wm-big-brain
      referee setup Ben PNP:COLD-VK-MARSHAL:1A2B3C:1 ... --discard cold-vk-orbit-dog ...
    """
    _print(core.setup(db_path(), player, cards, propaganda, discard))


@click.command()
@click.option("--first", metavar="NAME",
              help="Who plays first (default: whoever was knocked out first last round, else the first seat).")
@db_option
def start(first) -> None:
    """End the setup phase and begin the round once every player is set up.

    A game is 3 rounds (house rule rounds); each round scores 10/6/3/2 by
    finishing order (house rule place-points) plus 1 per Leader beaten
    while Fallen (house rule fallen-bonus); `status` shows the standings.

    \b
    Examples:
      referee start
      referee start --first Ben        (the youngest player, in a first game)
    """
    _print(core.start(db_path(), first))


@click.command()
@click.argument("player")
@click.option("--stack", "stacks", multiple=True, metavar="A,B,C",
              help="Three single cards (spots or ids) that form one stack; repeat per stack.")
@click.option("--break", "breaks", multiple=True, metavar="SPOT",
              help="A stack of 3 to break into single cards, e.g. M1; repeat per stack.")
@db_option
def regroup(player, stacks, breaks) -> None:
    """Rearrange PLAYER's Science & Culture and Military cards (free).

    Only on PLAYER's own turn (or during setup). --break splits a stack of
    3 into single cards; --stack forms a stack of 3 from single cards.
    Everything not named stays exactly as it is, and every spot keeps its
    label: a new stack takes the lowest label of its cards, and a broken
    stack's first card keeps the stack's label. A stack of 3 acts as one
    card whose defence is the sum.

    \b
    Examples:
      referee regroup Ana --stack M1,M2,M3
      referee regroup Ana --break M1 --stack M1,M4,M5
      referee regroup Ana --stack S1,S2,cold-wm-kitchen
    """
    _print(core.regroup(db_path(), player, stacks, breaks))


@click.command()
@click.argument("card")
@click.option("--propaganda", is_flag=True, help="Place a non-Military card face down in Military.")
@BY
@db_option
def place(card, propaganda, actor) -> None:
    """Build defence with CARD from the hand (one of the turn's 2 plays).

    Military Power goes face down, Science & Culture face up, an Assistant
    Leader onto the Leader stack; a Special (or a card with --propaganda)
    goes face down in Military as Propaganda, adding the Propaganda defence
    (house rule propaganda-defence, default 100 from the card data).

    \b
    Examples:
      referee place cold-wm-cavalry
      referee place cold-wm-kitchen --propaganda --by Ana
    """
    _print(core.place(db_path(), card, propaganda, actor))


@click.command()
@click.argument("cards", nargs=-1, required=True)
@BY
@db_option
def discard(cards, actor) -> None:
    """Discard CARDS from the hand; every turn needs at least one discard.

    A turn is at most 3 cards: one discard plus two other cards played or
    discarded (a combined attack counts its 2 cards). The hand is counted:
    a card already discarded, on the table or still in the draw pile is
    refused. At `end-turn` the player draws back up to 5.

    \b
    Examples:
      referee discard cold-wm-kitchen
      referee discard cold-vk-orbit-dog cold-vk-marshal --by Ben
    """
    _print(core.discard(db_path(), cards, actor))


@click.command()
@click.argument("target")
@click.argument("at")
@click.argument("cards", nargs=-1, required=True)
@BLOCK
@REDIRECT
@ONTO
@BY
@db_option
def attack(target, at, cards, block, redirect, onto, actor) -> None:
    """Attack TARGET's spot AT with 1 or 2 Military Power CARDS (their attack adds up).

    It succeeds when the attack is at least the defence of the card or stack
    at AT; then both the attacking and the defending cards are discarded (a
    failed attack's cards are discarded too). L, the Leader stack, falls
    last: an attack on L while Science & Culture or Military cards stand is
    made against all of them and the Leader stack together, and fails
    unless it beats that whole total (its cards are discarded; it is never
    refused, so a refusal tells nothing of the face-down cards). A combined
    attack is 2 of the turn's 2 plays. When TARGET could answer, the attack
    waits for TARGET's `referee answer` (none, block: it fails, even a
    combined one, or redirect onto another player's spot).

    \b
    Examples:
      referee attack Ben M1 cold-wm-supercarrier
      referee attack Ben S2 cold-wm-cavalry cold-wm-marines
      referee answer block cold-vk-deep-bunker --by Ben
    """
    _print(core.attack(db_path(), target, at, cards, block, redirect, onto, actor))


@click.command()
@click.argument("card")
@click.argument("target")
@click.option("--at", metavar="SPOT", help="What the Special removes or attacks, e.g. S1.2, M1.3, A1, M2.")
@click.option("--with", "using", multiple=True, metavar="CARD",
              help="Redeploy: one of your own face-down Military Power cards (id or spot); up to 2.")
@BLOCK
@REDIRECT
@ONTO
@BY
@db_option
def special(card, target, at, using, block, redirect, onto, actor) -> None:
    """Play the Special CARD against TARGET on your turn (one of the 2 plays).

    The card's effects (its printed text comes from them) decide: `remove`
    (Science & Culture, Military or Assistant Leader) discards the card at
    --at; taking one card out of a stack of 3 leaves the rest weakened until
    TARGET's own turn. `redeploy` attacks --at with 1 or 2 of your face-down
    Military Power cards (--with). When TARGET could answer, it waits for
    TARGET's `referee answer` (block or none). Text the referee cannot
    apply is shown as a prompt: play waits for `referee resolve N done`.

    \b
    Examples:
      referee special cold-al-gentleman-spy Ben --at M1.2
      referee special cold-wm-defector-grant Ben --at S1
      referee special cold-wm-rapid-deploy Ben --at M2 --with M1 --with cold-wm-marines
    """
    _print(core.special(db_path(), card, target, at, using, block, redirect, onto, actor))


@click.command()
@click.argument("target")
@click.argument("count", type=click.IntRange(min=1))
@click.option("--their", multiple=True, metavar="CARD",
              help="Which Propaganda cards TARGET gives up (only on a table started before the answer window, "
                   "cold-war-5; since, TARGET chooses with `answer give`).")
@click.option("--own", multiple=True, metavar="CARD", help="Which of your own Military cards you give up if wrong.")
@BY
@db_option
def challenge(target, count, their, own, actor) -> None:
    """Call out TARGET's Propaganda: claim they have COUNT Propaganda cards.

    COUNT may not exceed your own Military/Propaganda cards on the table.
    Right (TARGET has at least COUNT): TARGET discards COUNT Propaganda
    cards. Over the true number: TARGET discards what they have and you
    discard the difference from your Military (named 2, had 1: both lose 1).
    Uses one play (house rule challenge-cost=move; =turn makes it the turn).
    --own names your cards given up in order of preference (a card that
    cannot go is passed over); the last cards on the table make up the
    rest. When TARGET has more face-down cards than COUNT, TARGET chooses
    which go: the challenge waits for `referee answer give SPOT...` (or
    none: the last placed go).

    \b
    Examples:
      referee challenge Ben 2
      referee challenge Ben 1 --own M2 --by Ana
      referee answer give M3 --by Ben
    """
    _print(core.challenge(db_path(), target, count, their, own, actor))


@click.command()
@click.argument("target")
@click.argument("cards", nargs=-1, required=True)
@click.option("--shield", "shields", multiple=True, metavar="CARD",
              help="TARGET answers with both Shield Specials (give it twice).")
@BY
@db_option
def triad(target, cards, shields, actor) -> None:
    """Launch the Nuclear Triad (3 CARDS) at TARGET: the whole turn.

    Every Science & Culture and Military card of TARGET leaves the game;
    the Leader stack stays. The 3 Triad cards leave the game too. When
    TARGET could hold both Shields, the Triad waits for TARGET's `referee
    answer` (shield CARD CARD: the defence is spared and the Shields leave
    the game with the Triad; or none). House rule nuclear-triad=on|off.

    \b
    Examples:
      referee triad Ben cold-wm-liberty-silo cold-wm-deep-sub cold-wm-bomber-wing
      referee answer shield cold-vk-missile-ring cold-vk-deep-bunker --by Ben
    """
    _print(core.triad(db_path(), target, cards, shields, actor))


@click.command()
@click.argument("target")
@click.argument("card")
@click.option("--at", metavar="SPOT", help="What a flipped Military card attacks (default L when nothing else is left).")
@BLOCK
@REDIRECT
@ONTO
@BY
@db_option
def fallen(target, card, at, block, redirect, onto, actor) -> None:
    """A Fallen Leader's turn: name TARGET, flip the top CARD of the draw pile.

    From the shuffled pile any card still in it may come up; once the pile
    has been turned over from the unshuffled discard pile, only its known
    top card is accepted (`referee odds` names it).

    Military Power attacks TARGET with its attack value; Science & Culture
    is lent to TARGET as a face-up defence card (it goes home when it
    falls); Assistant Leaders and Specials are discarded. The turn then
    passes. Beating a Leader while Fallen earns the fallen-bonus point.

    \b
    Examples:
      referee fallen Ben cold-al-commandos --at M1
      referee fallen Cy cold-al-broadcaster
    """
    _print(core.fallen(db_path(), target, card, at, block, redirect, onto, actor))


@click.command()
@click.argument("player", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
@db_option
def odds(player, as_json) -> None:
    """The Fallen Leader odds: what the next flipped card will do.

    Counted exactly from the cards left in a Fallen player's shuffled draw
    pile; once the pile has been turned over from the unshuffled discard
    pile its order is known, and the odds name the one next card. For a
    standing Leader, from the 24-card pile they would shuffle on falling
    (5/24 lend, 11/24 attack, 8/24 nothing with the printed decks).

    \b
    Examples:
      referee odds
      referee odds Ben --json
    """
    results = core.odds(db_path(), player)
    if as_json:
        emit([r.to_json() | {"fallen": fallen} for r, fallen in results])
        return
    click.echo("\n".join(odds_text(r, fallen) for r, fallen in results))


@click.command()
@click.argument("how", metavar="none|block|redirect|shield|give", required=False)
@click.argument("cards", nargs=-1)
@click.option("--onto", metavar="PLAYER:SPOT", help="Where a redirected attack lands, e.g. Cy:M1.")
@click.option("--timeout", is_flag=True, help="No answer came in time: the action lands as with `none` "
              "(`referee serve --play` records this by itself after --answer-timeout seconds).")
@BY
@db_option
def answer(how, cards, onto, timeout, actor) -> None:
    """Answer the attack, Special or Nuclear Triad aimed at you (the target).

    An action aimed at a player who could answer it waits (`status` says
    what waits, and for whom) until that player answers: `none` lets it
    land; `block CARD` plays a Special that blocks (an attack, even a
    combined one, or a Special); `redirect CARD --onto PLAYER:SPOT` sends
    an attack to another player's spot; `shield CARD CARD` plays both
    Shields against the Nuclear Triad; `give SPOT...` names which of your
    face-down cards a Propaganda challenge takes (the rules take only
    Propaganda; without it, the last placed go). Only the target answers
    (--by); --timeout records that no answer came in time, and it lands,
    logged under the target's name (`referee serve --play` records it by
    itself once --answer-timeout seconds have passed).

    \b
    Examples:
      referee answer none --by Ben
      referee answer block cold-vk-deep-bunker --by Ben
      referee answer redirect cold-al-special-friend --onto Ben:S1 --by Cy
      referee answer shield cold-vk-missile-ring cold-vk-deep-bunker --by Ben
      referee answer give M3 M1 --by Ben
      referee answer --timeout
    """
    if how is None and not timeout:  # (`answer --timeout` alone needs no way: no answer came)
        raise click.UsageError("say how: none, block CARD, redirect CARD --onto PLAYER:SPOT, shield CARD CARD "
                               "or give SPOT... (or --timeout: no answer came in time)")
    _print(core.answer(db_path(), how or "none", cards, onto, timeout, actor))


COMMANDS: dict[str, click.Command] = {
    "setup": setup_command, "start": start, "regroup": regroup, "place": place, "discard": discard,
    "attack": attack, "special": special, "challenge": challenge, "triad": triad, "fallen": fallen,
    "odds": odds, "answer": answer,
}
