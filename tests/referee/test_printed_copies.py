"""A copy printed before the last change of its card: `referee card` and scan
mode say so, with what changed, and never say it aloud of a hidden card.

The QR texts are taken as a player takes them: from a real build's PDF,
rasterised and decoded (or, for the Cold War twins, as the build prints them
for the shipped sources); then the card's source is edited, as a designer
does after a playtest, and the old copy is scanned.
"""
from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import zxingcpp
from click.testing import CliRunner

from helpers.twins import TIME
from pnp.cli import main as pnp_main
from pnp.sources.loader import load_sources
from pnp.sources.qrpayload import format_payload, parse_payload
from referee.cli.main import cli
from referee.table.printnotes import HIDDEN_NOTE

REPO = Path(__file__).resolve().parents[2]


def referee(project: Path, db: Path, *argv: str, input: str | None = None):
    result = CliRunner().invoke(cli, ["--project", str(project), "--db", str(db), *argv], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


def aged(root: Path, seconds: int = 60) -> None:
    """The sources as edited a while ago (a fresh file is never trusted to the card index)."""
    for path in (root / "card_sources").rglob("*"):
        if path.is_file():
            stat = path.stat()
            os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns - seconds * 1_000_000_000))


def printed_codes(project: Path) -> dict[str, str]:
    """Build the game as a designer does and read every QR code off the printed fronts: {card id: QR text}."""
    result = CliRunner().invoke(pnp_main, ["--project", str(project), "build", "culture-war"])
    assert result.exit_code == 0, result.output
    found: dict[str, str] = {}
    for pdf in sorted((project / "output" / "culture-war").glob("*.pdf")):
        doc = pdfium.PdfDocument(str(pdf))
        try:
            for page in doc:
                for code in zxingcpp.read_barcodes(page.render(scale=150 / 72).to_pil().convert("RGB")):
                    payload = parse_payload(code.text)
                    if payload is not None:
                        found.setdefault(payload.card_id, code.text)
        finally:
            doc.close()
    return found


def edit(project: Path, old: str, new: str) -> None:
    deck = project / "card_sources" / "culture-war" / "anarchy.yaml"
    text = deck.read_text()
    assert old in text
    deck.write_text(text.replace(old, new, 1))
    aged(project)


@pytest.mark.pdf
def test_a_copy_printed_before_an_edit_says_so_with_what_changed(mini_project, tmp_path):
    codes = printed_codes(mini_project)
    brawler, shield = codes["test-brawler"], codes["test-shield"]
    printed = parse_payload(brawler).revision
    edit(mini_project, "    atk: 2\n    def: 1\n", "    atk: 3\n    def: 1\n")   # the brawler hits harder now
    now = load_sources(mini_project).cards["test-brawler"].revision
    assert now != printed
    db = tmp_path / "t.db"
    # the referee never saw the old revision: what changed comes from the build that printed the copy
    result = referee(mini_project, db, "card", brawler)
    assert result.exit_code == 0
    assert (f"this copy was printed before the last change (printed rev {printed}, the source now reads {now}): "
            "attack 2 -> 3") in result.stderr
    assert "PRINTED BEFORE THE LAST CHANGE" in result.stdout and "  attack 2 -> 3" in result.stdout
    data = json.loads(referee(mini_project, db, "card", brawler, "--json").stdout)
    assert data["out_of_date"] is True and data["printed_revision"] == printed and data["revision"] == now
    assert data["changes"] == [{"field": "atk", "printed": 2, "current": 3}]
    fresh = referee(mini_project, db, "card", shield)   # an up-to-date copy: no note at all
    assert "printed before" not in fresh.output.lower()
    # scan mode, a lone scan: the same note
    scanned = referee(mini_project, db, "scan", input=brawler + "\n")
    assert f"printed rev {printed}, the source now reads {now}): attack 2 -> 3" in scanned.output


@pytest.mark.pdf
def test_an_ink_saver_build_remembers_what_it_printed_too(mini_project, tmp_path):
    card = load_sources(mini_project).cards["test-brawler"]
    built = CliRunner().invoke(pnp_main, ["--project", str(mini_project), "build", "culture-war", "--ink", "saver"])
    assert built.exit_code == 0, built.output
    assert not (mini_project / "output" / "culture-war" / ".pnp-build.json").exists()   # only the ink-saver build
    edit(mini_project, "    atk: 2\n    def: 1\n", "    atk: 3\n    def: 1\n")
    result = referee(mini_project, tmp_path / "t.db", "card", format_payload(card.id, card.revision, 1))
    assert f"(printed rev {card.revision}, the source now reads" in result.stderr and "attack 2 -> 3" in result.stderr


def test_an_old_revision_no_one_remembers_is_still_stated(mini_project, tmp_path):
    """No build and no index ever saw the printed revision: the note says so, never nothing."""
    card = load_sources(mini_project).cards["test-brawler"]
    taken = format_payload(card.id, card.revision, 1)
    edit(mini_project, "Test Brawler", "Test Bruiser")
    result = referee(mini_project, tmp_path / "t.db", "card", taken)
    assert result.exit_code == 0
    assert f"printed rev {card.revision}" in result.stderr
    assert f"what changed is not known (neither the card index nor the last build remembers rev {card.revision})" \
        in result.stderr


def test_the_card_index_remembers_a_revision_it_saw(mini_project, tmp_path):
    card = load_sources(mini_project).cards["test-brawler"]
    taken = format_payload(card.id, card.revision, 1)
    aged(mini_project)
    db = tmp_path / "t.db"
    referee(mini_project, db, "card", "test-brawler")      # the index now holds this revision
    edit(mini_project, "Test Brawler", "Test Bruiser")
    result = referee(mini_project, db, "card", taken)
    assert "name: Test Bruiser (was: Test Brawler)" in result.stderr


# ---- hidden cards: the note is never said aloud ------------------------------------------

BO_UP = ["cold-vk-orbit-dog", "cold-vk-marshal"]
BO_DOWN = ["cold-vk-fortress-line", "cold-vk-tank-column", "cold-vk-air-defence"]
BO_OUT = ["cold-vk-five-year-plan", "cold-vk-metro-palace", "cold-vk-ideologist"]
ANN = ("cold-wm-kitchen cold-wm-forward-base cold-wm-tank-battalion cold-wm-joint-brass cold-wm-proxy-war "
       "cold-wm-radar-line --discard cold-wm-vice-president --discard cold-wm-snoop-director "
       "--discard cold-wm-rapid-deploy").split()


@pytest.fixture
def shipped(tmp_path: Path) -> Path:
    """The shipped project's sources, copied so a card can be edited."""
    root = tmp_path / "shipped"
    shutil.copytree(REPO / "card_sources", root / "card_sources")
    shutil.copytree(REPO / "templates", root / "templates")
    aged(root)
    return root


def edit_card(root: Path, card_id: str, old: str, new: str) -> None:
    """Change one line of one Cold War card's block, as a designer does."""
    deck = root / "card_sources" / "cold-war" / "vostokia.yaml"
    text = deck.read_text()
    at = text.index(f"id: {card_id}\n")
    where = text.index(old, at)
    assert where < text.index("  - id:", at + 1)
    deck.write_text(text[:where] + new + text[where + len(old):])
    aged(root)


@pytest.fixture
def _clock(monkeypatch):
    import referee.table.ledger

    monkeypatch.setattr(referee.table.ledger, "now", lambda: TIME)


def test_a_hidden_old_print_reads_the_same_as_a_hidden_fresh_one(shipped, tmp_path, _clock):
    """Twins: Bo lays down face down an old print of Fortress Line (edited since) on one
    table, a fresh print of Interceptors on the other. Everything the table says is the
    same on both, and neither names the card; the holder's own lone scan says it all."""
    before = load_sources(shipped).cards
    old_fortress = format_payload("cold-vk-fortress-line", before["cold-vk-fortress-line"].revision, 1)
    referee(shipped, tmp_path / "look.db", "card", "cold-vk-fortress-line")   # the card index sees it as printed
    edit_card(shipped, "cold-vk-fortress-line", "defence: 250", "defence: 300")   # stronger since it was printed
    now = load_sources(shipped).cards
    fresh_interceptors = format_payload("cold-vk-interceptors", now["cold-vk-interceptors"].revision, 1)
    outputs = []
    for name, first_down in (("old", old_fortress), ("fresh", fresh_interceptors)):
        db = tmp_path / f"{name}.db"
        referee(shipped, db, "new", "cold-war", "--player", "Ann:westmark", "--player", "Bo:vostokia")
        referee(shipped, db, "setup", "Ann", *ANN)
        said = referee(shipped, db, "setup", "Bo", *BO_UP, first_down, *BO_DOWN[1:], "cold-vk-state-ballet",
                       *[w for c in BO_OUT for w in ("--discard", c)])
        assert said.exit_code == 0, said.output
        scanned = referee(shipped, tmp_path / f"{name}-scan.db", "new", "cold-war", "--player", "Ann:westmark",
                          "--player", "Bo:vostokia")
        referee(shipped, tmp_path / f"{name}-scan.db", "setup", "Ann", *ANN)
        lines = ["setup Bo " + " ".join(w for c in BO_OUT for w in ("--discard", c)), *BO_UP, first_down,
                 *BO_DOWN[1:], "cold-vk-state-ballet", "done"]
        scanned = referee(shipped, tmp_path / f"{name}-scan.db", "scan", input="\n".join(lines) + "\n")
        log = referee(shipped, db, "log").output
        outputs.append((said.stdout, said.stderr, scanned.stdout, scanned.stderr, log))
    old, fresh = outputs
    assert old == fresh
    for text in old:
        assert "fortress" not in text.lower() and "interceptors" not in text.lower()
    assert HIDDEN_NOTE in old[1] and HIDDEN_NOTE in old[3]
    alone = referee(shipped, tmp_path / "old.db", "card", old_fortress)   # the holder checks the card alone
    assert "printed before the last change" in alone.stderr
    assert "defence 250 -> 300" in alone.stderr


def test_a_face_up_old_print_is_named_aloud(shipped, tmp_path):
    """A card the setup lays face up is seen by all, so its old print is named."""
    before = load_sources(shipped).cards
    old_dog = format_payload("cold-vk-orbit-dog", before["cold-vk-orbit-dog"].revision, 1)
    edit_card(shipped, "cold-vk-orbit-dog", "defence: 200", "defence: 150")
    db = tmp_path / "t.db"
    referee(shipped, db, "new", "cold-war", "--player", "Ann:westmark", "--player", "Bo:vostokia")
    said = referee(shipped, db, "setup", "Bo", old_dog, *BO_UP[1:], *BO_DOWN, "cold-vk-state-ballet",
                   *[w for c in BO_OUT for w in ("--discard", c)])
    assert said.exit_code == 0, said.output
    assert "(cold-vk-orbit-dog): this copy was printed before the last change" in said.stderr
    assert HIDDEN_NOTE not in said.stderr   # its face-down cards were typed by id, not scanned


def test_a_debate_deck_list_with_an_old_print_reads_the_same_as_with_a_fresh_one(shipped, tmp_path, _clock):
    """The deck list is hidden from the other player: an old print in it is not flagged aloud."""
    cards = load_sources(shipped).cards
    tactics = [c.id for c in sorted(cards.values(), key=lambda c: (c.deck != "arguments", c.id))
               if c.game == "debate" and c.deck in ("arguments", "devices")]   # an argument first
    deck, spare = tactics[:15], tactics[15]
    old_first = format_payload(deck[0], cards[deck[0]].revision, 1)
    referee(shipped, tmp_path / "look.db", "card", deck[0])   # the index sees it as printed
    arguments = shipped / "card_sources" / "debate" / "arguments.yaml"
    text = arguments.read_text()
    at = text.index(f"id: {deck[0]}\n")
    where = text.index("cost: ", at)
    arguments.write_text(text[:where] + "cost: 9" + text[text.index("\n", where):])   # dearer since it was printed
    aged(shipped)
    now = load_sources(shipped).cards
    assert now[deck[0]].revision != cards[deck[0]].revision
    fresh_spare = format_payload(spare, now[spare].revision, 1)
    said = []
    for name, first in (("old", old_first), ("fresh", fresh_spare)):
        db = tmp_path / f"{name}.db"
        referee(shipped, db, "new", "debate", "--player", "Ana", "--player", "Ben", "--seed", "7")
        result = referee(shipped, db, "deck", "Ana", first, *deck[1:])
        assert result.exit_code == 0, result.output
        said.append((result.stdout, result.stderr, referee(shipped, db, "log").output))
    assert said[0] == said[1]
    assert HIDDEN_NOTE in said[0][1] and deck[0] not in " ".join(said[0]) and spare not in " ".join(said[0])


def test_a_phone_scan_of_an_old_hidden_print_tells_its_player_only(shipped, tmp_path, monkeypatch):
    """From a phone (`serve --play`), the player who scanned a face-down old print
    reads the note on their own phone; the table's screen reads the same whether
    the copy is old or fresh, and names no card."""
    from test_serve_play import Served

    monkeypatch.setenv("REFEREE_PROJECT", str(shipped))
    cards = load_sources(shipped).cards
    old_base = format_payload("cold-wm-forward-base", cards["cold-wm-forward-base"].revision, 1)
    referee(shipped, tmp_path / "look.db", "card", "cold-wm-forward-base")   # the index sees it as printed
    deck = shipped / "card_sources" / "cold-war" / "westmark.yaml"
    text = deck.read_text()
    at = text.index("id: cold-wm-forward-base\n")
    where = text.index("defence: ", at)
    deck.write_text(text[:where] + "defence: 1" + text[where + len("defence: "):])   # 1 in front of the old value
    aged(shipped)
    fresh_base = format_payload("cold-wm-forward-base", load_sources(shipped).cards["cold-wm-forward-base"].revision, 1)
    public, own = [], []
    for name, code in (("old", old_base), ("fresh", fresh_base)):
        (tmp_path / name).mkdir()
        served = Served(tmp_path / name, "new cold-war --player Ann:westmark --player Bo:vostokia --seed 3")
        with served.client:
            line = ("setup Ann cold-wm-kitchen " + code + " cold-wm-tank-battalion cold-wm-joint-brass "
                    "cold-wm-proxy-war --propaganda cold-wm-big-brain --discard cold-wm-vice-president "
                    "--discard cold-wm-snoop-director --discard cold-wm-rapid-deploy")
            got = served.post("Ann", {"command": line})
            assert got.status_code == 200, got.text
            own.append(got.json()["echo"])
            public.append(served.echoes[-1].public_echo)
            assert "forward-base" not in json.dumps(served.table.log())   # nor its copy number in the log
    assert public[0] == public[1] and HIDDEN_NOTE in public[0]
    assert "forward" not in public[0].lower()
    assert "(cold-wm-forward-base): this copy was printed before the last change" in own[0]
    assert "printed before" not in own[1]
