"""`pnp diff` and `pnp build --changed-since`: a designer's small project
under git, edited as after a playtest (a number, a name, a picture's bytes,
a quantity, a card added and one removed), compared with the commit and with
the last build; the reprint holds only those cards (their QR codes decoded
from the raster), its backs behind its fronts, and the errata sheet says each
change old and new."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pypdfium2 as pdfium
import pytest
import zxingcpp
from click.testing import CliRunner

from pnp.cli import main
from pnp.sources.qrpayload import parse_payload

GIT = shutil.which("git")
pytestmark = pytest.mark.skipif(GIT is None, reason="needs git")

ART = ("cards:\n  test-recruit: hoodie\n  test-brawler: balaclava\n  test-squat: cracked-glass\n"
       "  test-shield: meeple-group\n")


def git(project: Path, *args: str) -> None:
    subprocess.run([GIT, "-C", str(project), "-c", "user.email=t@example.org", "-c", "user.name=t", *args],
                   check=True, capture_output=True)


@pytest.fixture
def repo(mini_project: Path) -> Path:
    (mini_project / "card_sources/culture-war/art.yaml").write_text(ART)
    git(mini_project, "init", "-q")
    git(mini_project, "add", "-A")
    git(mini_project, "commit", "-qm", "playtest 1")
    return mini_project


def pnp(project: Path, *args: str):
    return CliRunner().invoke(main, ["--project", str(project), *args])


def playtest_edits(project: Path) -> None:
    deck = project / "card_sources/culture-war/anarchy.yaml"
    text = deck.read_text()
    text = text.replace("    atk: 2\n    def: 1\n", "    atk: 3\n    def: 1\n")                  # test-brawler
    text = text.replace("name: Test Recruit\n    type: unit\n    quantity: 2", "name: Test Rookie\n    type: unit\n    quantity: 3")
    start = text.index("  - id: test-squat")
    end = text.index("  - id: test-shield")
    text = text[:start] + text[end:]                                                            # removed
    text += ("  - id: test-medic\n    name: Test Medic\n    type: unit\n    cost: 1\n    atk: 0\n    def: 2\n"
             "    unit_type: Mob\n    traits: [base]\n")                                          # added
    deck.write_text(text)
    art = project / "card_sources/culture-war/art.yaml"
    art.write_text(ART.replace("  test-squat: cracked-glass\n", "") + "  test-medic: robber-hand\n")
    picture = project / "templates/art/meeple-group.svg"      # the shield's picture redrawn, same name
    picture.write_text(picture.read_text().replace("<path ", '<path opacity="0.9" ', 1))


def test_diff_against_a_revision_names_every_change(repo):
    playtest_edits(repo)
    result = pnp(repo, "diff", "HEAD", "--json")
    assert result.exit_code == 0, result.output
    changes = {c["card"]: c for c in json.loads(result.output)}
    assert set(changes) == {"test-recruit", "test-brawler", "test-squat", "test-shield", "test-medic"}
    assert changes["test-squat"]["change"] == "removed" and changes["test-medic"]["change"] == "added"
    brawler = {f["field"]: (f["old"], f["new"]) for f in changes["test-brawler"]["fields"]}
    assert brawler == {"atk": (2, 3)}
    recruit = {f["field"]: (f["old"], f["new"]) for f in changes["test-recruit"]["fields"]}
    assert recruit == {"name": ("Test Recruit", "Test Rookie"), "quantity": (2, 3)}
    shield = {f["field"] for f in changes["test-shield"]["fields"]}
    assert shield == {"art"}                          # same file name, new bytes
    words = pnp(repo, "diff", "HEAD").output
    assert "test-brawler (Test Brawler) changed: attack 2 -> 3" in words
    assert "1 added, 1 removed, 3 changed" in words
    # nothing changed against the working tree's own commit once committed
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "playtest 2")
    assert pnp(repo, "diff", "HEAD").output.strip() == "no card changed"


@pytest.mark.pdf
def test_diff_since_the_last_build_needs_no_git(repo, tmp_path):
    out = tmp_path / "out"
    refused = pnp(repo, "diff", "--out", str(out))
    assert refused.exit_code != 0 and "no build of culture-war" in refused.output
    assert pnp(repo, "build", "--out", str(out)).exit_code == 0
    assert pnp(repo, "diff", "--out", str(out)).output.strip() == "no card changed"
    playtest_edits(repo)
    changes = json.loads(pnp(repo, "diff", "--out", str(out), "--json").output)
    assert {c["card"]: c["change"] for c in changes} == {
        "test-recruit": "changed", "test-brawler": "changed", "test-shield": "changed",
        "test-medic": "added", "test-squat": "removed"}


@pytest.mark.pdf
def test_changed_since_prints_only_those_cards_backs_aligned_and_an_errata_sheet(repo, tmp_path):
    playtest_edits(repo)
    out = tmp_path / "out"
    result = pnp(repo, "build", "--changed-since", "HEAD", "--out", str(out))
    assert result.exit_code == 0, result.output
    folder = out / "culture-war"
    assert sorted(p.name for p in folder.iterdir()) == ["changed-anarchy.pdf", "errata-culture-war.pdf"]
    doc = pdfium.PdfDocument(str(folder / "changed-anarchy.pdf"))
    try:
        assert len(doc) == 2           # one sheet: fronts, then backs
        scale = 150 / 72
        front = doc[0].render(scale=scale).to_pil().convert("RGB")
        back = doc[1].render(scale=scale).to_pil().convert("RGB")
        codes = zxingcpp.read_barcodes(front)
        seen = sorted(parse_payload(c.text).card_id for c in codes)
        # every copy of each changed or new card (3 rookies, a brawler, a shield, a medic), no other card
        assert seen == sorted(["test-recruit"] * 3 + ["test-brawler", "test-shield", "test-medic"])
        width = front.width
        for c in codes:    # long-edge flip: the back of a card is its mirror across the page's middle
            x = sum(p.x for p in (c.position.top_left, c.position.bottom_right)) / 2
            y = sum(p.y for p in (c.position.top_left, c.position.bottom_right)) / 2
            r, g, b = back.getpixel((round(width - x), round(y)))
            assert not (r > 240 and g > 240 and b > 240), "no back behind a front"
    finally:
        doc.close()
    errata = pdfium.PdfDocument(str(folder / "errata-culture-war.pdf"))
    try:
        text = " ".join(errata[i].get_textpage().get_text_range() for i in range(len(errata)))
    finally:
        errata.close()
    text = " ".join(text.split())
    for words in ("attack: 2", "attack: 3", "name: Test Recruit", "name: Test Rookie", "2 copies", "3 copies",
                  "new card", "no longer in the game", "new picture", "Test Squat", "Test Medic"):
        assert words in text, words


def test_bad_revisions_are_one_clear_error_and_write_nothing(repo, tmp_path):
    out = tmp_path / "out"
    for args, said in ((["diff", "no-such-rev"], "unknown git revision 'no-such-rev'"),
                       (["build", "--changed-since", "no-such-rev", "--out", str(out)], "unknown git revision")):
        result = pnp(repo, *args)
        assert result.exit_code != 0 and said in result.output and "Traceback" not in result.output, result.output
    shutil.rmtree(repo / ".git")
    result = pnp(repo, "diff", "HEAD")
    assert result.exit_code != 0 and "is not in a git repository" in result.output
    assert not out.exists()
