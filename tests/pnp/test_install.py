"""pnp as a user installs it: a real wheel in a fresh virtual environment,
building all five games from a project folder it was not installed from;
caches when the project cannot be written; output files' permissions;
`--project` after the subcommand; `pnp clean`."""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.model import GAME_SLUGS

pytestmark = [pytest.mark.pdf, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def copy_project(dest: Path) -> Path:
    dest.mkdir(parents=True)
    for part in ("card_sources", "templates"):
        shutil.copytree(ROOT / part, dest / part, ignore=shutil.ignore_patterns(".pnp-cache", "__pycache__"))
    return dest


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv holding pnp from its wheel; the dependencies come from the
    test environment's site-packages through a .pth file (not pnp itself:
    that one is an editable install, and a plain path line loads no finder)."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"  # a clean copy: no stale build/ folder from an earlier run can leak in
    source.mkdir()
    for part in ("pnp", "referee"):
        shutil.copytree(ROOT / part, source / part, ignore=shutil.ignore_patterns("__pycache__"))
    for part in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / part, source / part)
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(tmp / "dist")],
                   check=True, capture_output=True)
    (wheel,) = (tmp / "dist").glob("pnp-*.whl")
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)], check=True,
                   capture_output=True)
    site = subprocess.run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    Path(site, "test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv


def test_the_wheel_carries_its_package_data(installed):
    py = installed / "bin" / "python"
    where = subprocess.run([str(py), "-c", "import pnp, pathlib; print(pathlib.Path(pnp.__file__).parent)"],
                           check=True, capture_output=True, text=True, cwd=installed).stdout.strip()
    assert where.startswith(str(installed)), f"pnp imported from {where}, not the installed wheel"
    assert (Path(where) / "assets" / "blank.png").is_file()
    assert len(list((Path(where) / "assets" / "fonts").glob("*.ttf"))) == 5
    fallback = Path(where) / "assets" / "fonts" / "fallback"  # the fallback fonts and their licences (issues 28, 26)
    assert {p.name for p in fallback.iterdir()} == {
        "NotoSansSymbols2-Regular.ttf", "NotoSansSymbols-Regular.ttf", "LICENSE-Noto-OFL.txt",
        "NotoSansArabic-Regular.ttf", "NotoSansHebrew-Regular.ttf", "NotoEmoji-Regular.ttf",
        "DroidSansFallback.ttf", "LICENSE-Droid-Apache-2.0.txt"}


def test_the_installed_package_starts_and_builds_a_new_game(installed, tmp_path):
    pnp = str(installed / "bin" / "pnp")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    for args in (["new-game", "tide-pool"], ["build"]):
        result = subprocess.run([pnp, *args], cwd=tmp_path, env=env, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / "output" / "tide-pool" / "deck-starter.pdf").is_file()
    first = (tmp_path / "card_sources" / "tide-pool" / "game.yaml").read_text().splitlines()[0]
    doc = Path(first.split("The format is in ", 1)[1].strip())
    assert doc.is_file() and str(doc).startswith(str(installed)), first   # the wheel's own copy
    assert "card_types" in doc.read_text()


def test_the_installed_package_builds_all_five_games(installed, tmp_path):
    """From a folder that is not the checkout, so nothing but the wheel's code can run."""
    project = copy_project(tmp_path / "project")
    out = tmp_path / "out"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    result = subprocess.run([str(installed / "bin" / "pnp"), "build", "--project", str(project), "--out", str(out)],
                            cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    for game in GAME_SLUGS:
        pdfs = list((out / game).glob("*.pdf"))
        assert pdfs, f"no PDFs for {game}"
        assert (out / game / "rules-rules.pdf").is_file() or any("rules" in p.name for p in pdfs), game


def test_output_files_get_the_users_normal_permissions(mini_project, tmp_path):
    umask = os.umask(0o022)
    os.umask(umask)
    result = CliRunner().invoke(main, ["build", "--project", str(mini_project), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    files = [p for p in (tmp_path / "out").rglob("*") if p.is_file()]
    assert files
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask, path


def test_a_read_only_project_keeps_its_caches_in_the_user_cache(mini_project, tmp_path, monkeypatch):
    """Simulated: the tests may run as root, for whom no folder is read-only."""
    from pnp import caches

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(caches, "_writable", lambda folder: False)
    for args in ([], ["--force"]):  # the second build remembers the faces (a fully cold one remembers none)
        result = CliRunner().invoke(main, ["build", "--project", str(mini_project), "--out", str(tmp_path / "out"), *args])
        assert result.exit_code == 0, result.output
    assert not (mini_project / ".pnp-cache").exists()
    stored = list((tmp_path / "cache" / "pnp").rglob("*.json"))
    assert stored, "nothing was cached in the user cache"
    result = CliRunner().invoke(main, ["clean", "--project", str(mini_project)])
    assert result.exit_code == 0 and "removed" in result.output
    assert not list((tmp_path / "cache" / "pnp").rglob("*.json"))


def test_project_is_accepted_after_the_subcommand(mini_project, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = CliRunner().invoke(main, ["--project", str(mini_project), "list", "--json"])
    after = CliRunner().invoke(main, ["list", "--json", "--project", str(mini_project)])
    assert before.exit_code == after.exit_code == 0, after.output
    assert before.output == after.output and '"id"' in after.output


def test_clean_removes_the_project_cache_and_nothing_else(mini_project, tmp_path):
    out = tmp_path / "out"
    assert CliRunner().invoke(main, ["build", "--project", str(mini_project), "--out", str(out)]).exit_code == 0
    assert (mini_project / ".pnp-cache").is_dir()
    result = CliRunner().invoke(main, ["clean", "--project", str(mini_project)])
    assert result.exit_code == 0 and str(mini_project / ".pnp-cache") in result.output
    assert not (mini_project / ".pnp-cache").exists()
    assert list(out.rglob("*.pdf")) and (mini_project / "card_sources").is_dir()


def test_an_unwritable_output_folder_is_one_clear_error(mini_project, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = CliRunner().invoke(main, ["build", "--project", str(mini_project), "--out", str(blocker / "out")])
    assert result.exit_code != 0
    assert "Traceback" not in result.output and "cannot write" in result.output


def test_the_installed_referee_plays_a_card_outside_the_checkout(installed, tmp_path):
    """The wheel carries the five games' card sources: a table started in an
    empty folder plays a card; `--project DIR` reads another project's cards."""
    referee = str(installed / "bin" / "referee")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "REFEREE_DB": str(tmp_path / "t.db")}
    env.pop("REFEREE_PROJECT", None)
    table = tmp_path / "table"
    table.mkdir()

    def run(*args: str) -> str:
        result = subprocess.run([referee, *args], cwd=table, env=env, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    run("new", "culture-war", "--player", "ann:anarchy", "--player", "bo:technocracy", "--seed", "7",
        "--house-rule", "first-player=seating")
    run("capital", "ann", "+10")
    assert "ann deploys Window Smasher" in run("play", "anarchy-window-smasher")
    assert "Window Smasher" in run("card", "anarchy-window-smasher")
    other = copy_project(tmp_path / "other")
    deck = other / "card_sources" / "culture-war" / "anarchy.yaml"
    deck.write_text(deck.read_text().replace("name: Window Smasher", "name: Pane Breaker", 1))
    assert "Pane Breaker" in run("--project", str(other), "card", "anarchy-window-smasher")
    bad = subprocess.run([referee, "--project", str(tmp_path / "nowhere"), "card", "anarchy-window-smasher"],
                         cwd=table, env=env, capture_output=True, text=True)
    assert bad.returncode != 0 and "not a project" in bad.stdout + bad.stderr and "Traceback" not in bad.stderr


def test_the_installed_package_draws_its_icons_by_name_in_a_new_game(installed, tmp_path):
    """A designer's project names a shipped game-icons.net icon: the wheel's own copy is drawn."""
    pnp = str(installed / "bin" / "pnp")
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    assert subprocess.run([pnp, "new-game", "tide-pool"], cwd=tmp_path, env=env, capture_output=True).returncode == 0
    (tmp_path / "card_sources" / "tide-pool" / "art.yaml").write_text("cards:\n  tide-pool-scout: anchor\n")
    result = subprocess.run([pnp, "list", "tide-pool", "--json"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert '"art": "templates/art/anchor.svg"' in result.stdout
    result = subprocess.run([pnp, "validate"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    typo = subprocess.run([pnp, "validate"], cwd=tmp_path, env=env, capture_output=True, text=True)
    (tmp_path / "card_sources" / "tide-pool" / "art.yaml").write_text("cards:\n  tide-pool-scout: ancor\n")
    typo = subprocess.run([pnp, "validate"], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert typo.returncode == 1 and "did you mean anchor" in typo.stderr and "vendor_art" not in typo.stderr, typo.stderr
