"""The parsed-source memo gives exactly what a fresh parse gives, and never trusts a bad cache file."""
import pytest

from pnp.sources import memo
from pnp.sources.loader import load_sources


@pytest.fixture(autouse=True)
def on_disk_only(monkeypatch):
    """Each load here goes to the disk memo, not this process's recent values."""
    monkeypatch.setattr(memo, "RECENT", 0)
    memo._recent.clear()


def snapshot(sources):
    return {k: (c.fields, c.revision, c.line, c.field_lines) for k, c in sources.cards.items()}


def test_memo_matches_fresh_parse_and_survives_corruption(mini_project, monkeypatch):
    fresh = snapshot(load_sources(mini_project))  # writes the memo
    files = list((mini_project / ".pnp-cache" / "yaml").glob("*.json"))
    assert files, "no memo was written"
    assert snapshot(load_sources(mini_project)) == fresh  # read back from the memo
    for f in files:
        f.write_text("{not json")
    assert snapshot(load_sources(mini_project)) == fresh
    monkeypatch.setenv("PNP_NO_CACHE", "1")
    assert snapshot(load_sources(mini_project)) == fresh


def test_memo_follows_edits(mini_project):
    load_sources(mini_project)
    deck = mini_project / "card_sources/culture-war/anarchy.yaml"
    deck.write_text(deck.read_text().replace("atk: 2", "atk: 4"))
    assert load_sources(mini_project).cards["test-brawler"].fields["atk"] == 4


def test_recent_values_are_shared_within_a_process(mini_project, monkeypatch):
    monkeypatch.setattr(memo, "RECENT", 64)
    first = load_sources(mini_project)
    again = load_sources(mini_project)
    assert snapshot(first) == snapshot(again)
    deck = mini_project / "card_sources/culture-war/anarchy.yaml"
    deck.write_text(deck.read_text().replace("atk: 2", "atk: 3"))  # new content: not a recent value
    assert load_sources(mini_project).cards["test-brawler"].fields["atk"] == 3
