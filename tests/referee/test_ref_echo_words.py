"""Echoes and log rows name the right player, the right score and the real
group (issue 25, "wrong names and hints in echoes and logs")."""
from __future__ import annotations


def _log_rows(table) -> list[str]:
    return table.run("log").output.splitlines()


def test_a_destroy_by_another_player_names_who_destroys(table):
    """`destroy Ana 1 --by Ben` said "Ana destroys Ana's thread 1"."""
    table.run("new debate --player Ana:Lincoln --player Ben:Carter --seed 1 --house-rule starting-crowd=0")
    table.run("argue deb-shouting-match-1 1")
    echo = table.run("destroy Ana 1 --by Ben").output
    assert echo.splitlines()[0] == "#3 Ben destroys Ana's thread 1"
    assert _log_rows(table)[-1].endswith("Ben destroys Ana's thread 1")


def test_a_life_donation_is_worded_as_life(table):
    table.run("new culture-war --player ann:anarchy --player bo:technocracy --seed 4 --house-rule first-player=seating")
    table.run("ally ann bo")
    echo = table.run("donate ann bo 10").output
    assert echo.splitlines()[0] == "#3 ann gives bo 10 life"
    row = _log_rows(table)[-1]
    assert "ann gives bo 10 life: ann life -10 (90); bo life +10 (110)" in row and "capital" not in row


def test_a_card_put_on_a_group_laid_in_the_same_command_names_that_group(table):
    """The command's placeholder `new:0` never reaches an echo or the log."""
    table.run("new divide-and-conquer --player Ann --player Bo --player Cy --player Di --seed 1")
    table.run("unaffiliate dc-left-prestige-media")
    table.run("attack g1 --intent take-over --by Bo")
    echo = table.run("team dc-left-celebrity-activist --attach dc-asset-viral-hashtag=dc-left-celebrity-activist")
    first = echo.output.splitlines()[0]
    assert first == "#4 Bo lays Celebrity Activist Circuit; Viral Hashtag goes on Celebrity Activist Circuit (g2)"
    assert "new:" not in table.run("log").output
    assert table.status()["state"]["groups"]["g2"]["attached"] == ["dc-asset-viral-hashtag"]


def test_unally_of_one_player_says_they_leave_every_alliance(table):
    """`unally cy` ends every alliance of cy's; it was echoed "cy are no longer allies"."""
    table.run("new culture-war --player ann:anarchy --player bo:technocracy --player cy:community --seed 4 "
              "--house-rule first-player=seating")
    table.run("ally ann bo cy")
    assert table.run("unally cy").output.splitlines()[0] == "#3 cy leaves every alliance"
    assert table.run("unally ann bo").output.splitlines()[0] == "#4 ann, bo are no longer allies"
    assert _log_rows(table)[-2].endswith("  cy leaves every alliance")


def test_a_card_played_is_worded_with_the_rulebooks_verb(table):
    """Units are deployed and Real Estate bought (the rulebook's verbs, and the
    commands'), whichever command played them; they were all "plays"."""
    table.run("new culture-war --player ann:anarchy --player bo:technocracy --seed 4 --house-rule first-player=seating")
    table.run("capital ann +10")
    assert table.run("play anarchy-window-smasher").output.splitlines()[0] == "#3 ann deploys Window Smasher"
    assert table.run("buy anarchy-squatted-factory").output.splitlines()[0] == "#4 ann buys Squatted Factory"
    rows = _log_rows(table)
    assert rows[-2].endswith("ann deploys Window Smasher: ann capital -1 (10)")
    assert "ann buys Squatted Factory" in rows[-1]
