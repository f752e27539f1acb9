"""The documentation builds as a site (mkdocs.yml): `mkdocs build --strict`
into a temporary folder, so a broken link or anchor, or a page left out of
the navigation, fails here; the front page is the README itself; every
picture the README and the pages show is one `make pictures` writes; and
every file of the code a page names is there (a move or rename that leaves a
page behind fails here)."""
from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PICTURES = ROOT / "scripts" / "readme_pictures.py"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "WARNING" not in done.stderr, done.stderr[-3000:]
    return out


def test_the_site_builds_strictly_and_has_every_page(site):
    pages = sorted(p.stem for p in DOCS.glob("*.md"))
    for page in pages:
        assert (site / f"{page}.html").is_file(), page
    assert (site / "index.html").is_file()


def test_the_front_page_is_the_readme_with_working_links(site):
    index = (site / "index.html").read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    title = readme.splitlines()[0].removeprefix("# ")
    assert title in index
    for target in re.findall(r"\]\(docs/([\w-]+)\.md", readme):  # each README link, as the site links it
        assert f'href="{target}.html' in index, target
        assert (site / f"{target}.html").is_file(), target
    for image in re.findall(r"\]\(docs/(images/[\w.-]+)\)", readme):
        assert f'src="{image}"' in index and (site / image).is_file(), image


def test_the_site_loads_nothing_from_the_network(site):
    for page in site.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        found = re.findall(r'(?:src|href)="(https?://[^"]+)"', text)
        assert all(not url.endswith((".js", ".css")) for url in found), (page.name, found)


def _pictures_written() -> set[str]:
    """The file names scripts/readme_pictures.py writes: every `.png` name in
    its module-level tables (CARDS, PAGES, SELFPLAY, and any added beside them)."""
    tree = ast.parse(PICTURES.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign):
            names |= {c.value for c in ast.walk(node.value)
                      if isinstance(c, ast.Constant) and isinstance(c.value, str) and c.value.endswith(".png")}
    return names


def test_every_picture_shown_is_one_make_pictures_writes():
    written = _pictures_written()
    shown: set[str] = set()
    for page in [ROOT / "README.md", *DOCS.glob("*.md")]:
        shown |= set(re.findall(r"images/([\w.-]+\.png)", page.read_text(encoding="utf-8")))
    assert shown, "no pictures found"
    assert shown <= written, f"shown but not made by make pictures: {sorted(shown - written)}"
    assert all((DOCS / "images" / name).is_file() for name in shown)


CODE_PATH = re.compile(r"(?<![\w/.<-])((?:pnp|referee|tests|scripts|benchmarks)/[\w./-]*[\w/])(?![\w<*-])")


def test_every_file_of_the_code_a_page_names_is_there():
    """A page that names `referee/games/generic.py` or `tests/helpers/` names
    something that exists (paths with a placeholder, `test_fuzz_<package>.py`,
    and notes in HTML comments are not read)."""
    missing = []
    for page in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        text = re.sub(r"<!--.*?-->", lambda c: "\n" * c.group().count("\n"), page.read_text(encoding="utf-8"), flags=re.S)
        for found in CODE_PATH.finditer(text):
            if not (ROOT / found.group(1)).exists():
                line = text.count("\n", 0, found.start()) + 1
                missing.append(f"{page.relative_to(ROOT)}:{line}: {found.group(1)}")
    assert not missing, "pages name files that are not there:\n" + "\n".join(missing)
