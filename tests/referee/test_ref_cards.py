"""Card lookup by id or QR text, the cached index, and cards named in actions."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import referee
from referee.cards import index as card_index
from referee.cards import lookup


def revision_of(root: Path, card_id: str) -> str:
    from pnp.sources.loader import load_sources

    return load_sources(root).cards[card_id].revision


def test_card_by_id_and_by_payload(card_project, table, monkeypatch):
    monkeypatch.chdir(card_project)
    rev = revision_of(card_project, "alpha-courier")
    by_id = table.run("card alpha-courier").output
    assert "Courier" in by_id and rev in by_id and "Fast." in by_id
    payload = f"PNP:CULTURE-WAR:ALPHA-COURIER:{rev}"
    data = json.loads(table.run(["card", payload, "--json"]).output)
    assert (data["id"], data["revision"], data["out_of_date"]) == ("alpha-courier", rev, False)
    assert data["fields"]["cost"] == 2 and data["quantity"] == 3 and data["deck"] == "alpha"
    assert json.loads(table.run(["card", payload.lower(), "--json"]).output)["id"] == "alpha-courier"


def test_unknown_and_malformed_codes_are_named(card_project, table, monkeypatch):
    monkeypatch.chdir(card_project)
    result = table.fail("card alpha-courrier")
    assert "'alpha-courrier'" in result.output and "did you mean alpha-courier" in result.output
    result = table.fail("card PNP:CULTURE-WAR:ALPHA")
    assert "PNP:CULTURE-WAR:ALPHA" in result.output and "QR code" in result.output
    result = table.fail("card PNP:DEBATE:ALPHA-WALL:000000")
    assert "alpha-wall" in result.output and "debate" in result.output


def age(root: Path, seconds: int = 60) -> None:
    """Make the sources look edited a while ago, as they are in real use."""
    for path in (root / "card_sources").rglob("*.yaml"):
        stat = path.stat()
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns - seconds * 1_000_000_000))


def test_lookups_use_the_cache_until_a_source_changes(card_project, monkeypatch):
    monkeypatch.chdir(card_project)
    age(card_project)
    first = lookup("alpha-wall")
    cache = card_project / ".pnp-cache" / "referee-cards.json"
    assert cache.is_file()

    import pnp.sources.loader

    def no_parsing(*args, **kwargs):
        raise AssertionError("the YAML was parsed again although nothing changed")

    monkeypatch.setattr(pnp.sources.loader, "load_sources", no_parsing)
    assert lookup("alpha-wall") == first
    deck = card_project / "card_sources" / "culture-war" / "alpha.yaml"
    deck.write_text(deck.read_text().replace("def: 4", "def: 5"))
    with pytest.raises(AssertionError, match="parsed again"):
        lookup("alpha-wall")
    monkeypatch.undo()
    monkeypatch.chdir(card_project)
    changed = lookup("alpha-wall")
    assert changed.card.fields["def"] == 5 and changed.card.revision != first.card.revision


def test_a_freshly_edited_source_is_not_trusted_to_the_cache(card_project, monkeypatch):
    """Same size, same coarse mtime tick: only distrusting fresh files catches it."""
    monkeypatch.chdir(card_project)
    lookup("alpha-wall")
    deck = card_project / "card_sources" / "culture-war" / "alpha.yaml"
    stat = deck.stat()
    deck.write_text(deck.read_text().replace("def: 4", "def: 6"))
    os.utime(deck, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # as if the clock had not moved
    assert lookup("alpha-wall").card.fields["def"] == 6


def test_an_old_printed_card_is_flagged_with_what_changed(card_project, table, monkeypatch):
    monkeypatch.chdir(card_project)
    old = revision_of(card_project, "alpha-courier")
    table.run("card alpha-courier")  # the index now remembers revision `old`
    deck = card_project / "card_sources" / "culture-war" / "alpha.yaml"
    deck.write_text(deck.read_text().replace("cost: 2", "cost: 3"))
    new = revision_of(card_project, "alpha-courier")
    assert new != old
    result = table.run(["card", f"PNP:CULTURE-WAR:ALPHA-COURIER:{old}"])
    assert "printed before the last change" in result.output and old in result.output and new in result.output
    assert "cost 2 -> 3" in result.output
    data = json.loads(table.run(["card", f"PNP:CULTURE-WAR:ALPHA-COURIER:{old}", "--json"]).stdout)
    assert data["out_of_date"] is True
    assert data["changes"] == [{"field": "cost", "printed": 2, "current": 3}]
    unknown = table.run(["card", "PNP:CULTURE-WAR:ALPHA-COURIER:ABCDEF"]).output
    assert "ABCDEF" in unknown and "what changed is not known" in unknown


def test_broken_sources_are_reported_not_crashed(card_project, table, monkeypatch):
    monkeypatch.chdir(card_project)
    deck = card_project / "card_sources" / "culture-war" / "alpha.yaml"
    deck.write_text(deck.read_text().replace("cost: 3", "cost: -3"))
    result = table.fail("card alpha-wall")
    assert "alpha-wall" in result.output and "cannot be read" in result.output


def test_without_a_project_nearby_the_installed_one_is_used(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    installed = Path(referee.__file__).resolve().parents[1]
    if not (installed / "card_sources").is_dir():
        pytest.skip("the referee is not running from a project checkout")
    assert card_index.project_root() == installed


def test_actions_record_the_revision_of_the_cards_they_name(card_project, table, monkeypatch):
    monkeypatch.chdir(card_project)
    rev = revision_of(card_project, "alpha-courier")
    table.run("new culture-war --player A --player B")
    table.run(f"life B -5 --card PNP:CULTURE-WAR:ALPHA-COURIER:{rev} --card alpha-wall")
    event = table.log()["events"][-1]
    assert event["cards"] == {"alpha-courier": rev, "alpha-wall": revision_of(card_project, "alpha-wall")}
    result = table.run("life B -1 --card PNP:CULTURE-WAR:ALPHA-COURIER:ABCDEF")
    assert "warning:" in result.stderr and "alpha-courier" in result.stderr
    table.fail("life B -1 --card alpha-nothing")
    assert table.status()["players"][1]["life"] == 94


def test_an_edited_pnp_rebuilds_the_card_index(card_project):
    """The index records pnp's own code too: after an upgrade the cards are read anew."""
    import pnp
    from referee.cards import index as card_index

    age(card_project)
    first = card_index.signature(card_project)
    module = Path(pnp.__file__).parent / "extras" / "listing.py"  # a module in a subpackage counts too
    stat = module.stat()
    try:
        newest = max(p.stat().st_mtime_ns for p in Path(pnp.__file__).parent.rglob("*.py"))
        os.utime(module, ns=(stat.st_atime_ns, newest + 10**9))  # as if edited just now
        assert card_index.signature(card_project) != first
    finally:
        os.utime(module, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert card_index.signature(card_project) == first
