"""A MkDocs hook (mkdocs.yml `hooks:`): README.md is the site's front page.

The README links into the docs as `docs/<page>.md` and shows
`docs/images/...`, which is right where it sits, at the repository's root;
the site's pages sit inside docs/, so the front page drops that prefix. One
source for the text: the site never holds a copy of the README."""
from __future__ import annotations

import re
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files

README = "README.md"
INTO_DOCS = re.compile(r"(\]\(|src=\")docs/")


def front_page(readme: str) -> str:
    """The README as the site's index.md: its links into docs/ made relative to docs/."""
    return INTO_DOCS.sub(r"\1", readme)


def on_files(files: Files, config) -> Files:
    readme = Path(config.config_file_path).parent / README
    if files.get_file_from_path("index.md") is not None:
        raise PluginError(f"docs/index.md would hide the front page: the site's index is {README} (scripts/mkdocs_readme.py)")
    files.append(File.generated(config, "index.md", content=front_page(readme.read_text(encoding="utf-8"))))
    return files
