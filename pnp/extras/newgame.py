"""`pnp new-game SLUG`: a small working game to start from, the way
`mkdocs new` starts a site.

It writes, and never overwrites:

    card_sources/<slug>/game.yaml     the game: players, card size, one card type, one deck, a rule sheet
    card_sources/<slug>/starter.yaml  a starter deck of four cards
    card_sources/<slug>/rules.md      a rule-sheet stub
    templates/<slug>/card.xml.j2      the card face
    templates/<slug>/back.xml.j2      the card back
    templates/<slug>/style.yaml       the game's sizes
    templates/<slug>/icons.yaml       the game's mark
    templates/style.yaml              only in a folder with no project yet: the shared look

The fonts are pnp's own unless the project brings some (templates/fonts/).
The new game builds at once (`pnp build <slug>`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from pnp.errors import PnpError
from pnp.project import GAME_FILE, SOURCES_DIR, TEMPLATES_DIR, is_project
from pnp.write import write_atomic

DOCS = Path(__file__).resolve().parents[1] / "assets" / "docs"   # docs/, carried in the wheel too
FORMAT_DOC = "card-sources.md"


def format_doc() -> str:
    """Where the card-source format is documented on this machine: the installed
    package's copy (a checkout's docs/ folder, or the wheel's)."""
    return str((DOCS / FORMAT_DOC).resolve())


SLUG = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")

GAME_YAML = """\
# {name}: made with `pnp new-game`. The format is in {format_doc}
name: "{name}"
players: {{min: 2, max: 4}}
card_size: poker            # 63.5 x 88.9 mm; or {{width: 70, height: 120}} in mm

# Each card type names its face template (templates/{slug}/<template>.xml.j2)
# and its fields: int, str, bool, enum(a, b), list[...]; "?" makes one optional.
card_types:
  card:
    template: card
    fields:
      cost: int>=0

decks:
  - id: starter
    name: Starter deck
    file: starter.yaml      # YAML, or a spreadsheet: starter.csv / starter.xlsx
    back: back              # templates/{slug}/back.xml.j2
    color: "#3b6ea5"
    icon: {slug}-mark

documents:
  - id: rules
    kind: rules
    name: Rules
    source: rules.md
"""

STARTER_YAML = """\
# The starter deck. Every card has an id (unique in the project), a name, a
# type from game.yaml, and that type's fields; quantity is how many to print.
cards:
  - id: {prefix}-scout
    name: Scout
    type: card
    cost: 1
    quantity: 3
    text: "When you play this, look at the top card of the deck."
    flavor: "Sees the road before anyone has paved it."
  - id: {prefix}-builder
    name: Builder
    type: card
    cost: 2
    quantity: 2
    text: "**Steady**: at the end of your turn, gain 1 point."
    flavor: "One brick a day, and the wall is always taller than yesterday."
  - id: {prefix}-messenger
    name: Messenger
    type: card
    cost: 1
    text: "Draw a card, then pass a card to the player on your left."
    flavor: "Never reads the letters. Usually."
  - id: {prefix}-wildcard
    name: Wildcard
    type: card
    cost: 3
    text: "Counts as any card of your choice until the end of the round."
    flavor: "Nobody knows what it is, least of all itself."
"""

RULES_MD = """\
# {{{{ game.name }}}}

A game for {{{{ game.players | join(' to ') }}}} players. Replace this page
with your rules: it is Markdown, read through Jinja first, so it can print
numbers from game.yaml.

## What you need

- The starter deck: print **deck-starter.pdf** double-sided and cut along the marks.

## A turn

1. Play one card and pay its cost.
2. Do what its text says.
3. Pass to the player on your left.

## Winning

Write how the game ends here.
"""

CARD_XML = """\
{{# The face of a {name} card: title and cost, a mark, rules text, flavor, QR code and id. #}}
{{% set W = size.w %}}{{% set H = size.h %}}{{% set f = style.frame %}}
<card>
<rect x="0" y="0" w="{{{{ W }}}}" h="{{{{ H }}}}" fill="{{{{ deck.color }}}}"/>
<rect x="{{{{ f }}}}" y="{{{{ f }}}}" w="{{{{ W - 2*f }}}}" h="{{{{ H - 2*f }}}}" r="1.8" fill="paper"/>
<rect x="{{{{ f }}}}" y="{{{{ f }}}}" w="{{{{ W - 2*f }}}}" h="{{{{ style.title_h }}}}" r="1.8" fill="{{{{ deck.color }}}}"/>
<text x="{{{{ f + 2 }}}}" y="{{{{ f + 0.6 }}}}" w="{{{{ W - 2*f - 13 }}}}" h="{{{{ style.title_h - 1.2 }}}}" style="title" valign="middle" field="name">{{{{ card.name }}}}</text>
<circle cx="{{{{ W - f - 5.2 }}}}" cy="{{{{ f + 5.2 }}}}" r="4.6" fill="gold" stroke="ink" stroke-width="0.35"/>
<text x="{{{{ W - f - 9.8 }}}}" y="{{{{ f + 1.4 }}}}" w="9.2" h="7.6" style="cost" align="center" valign="middle" field="cost">{{{{ card.cost }}}}</text>
<rect x="{{{{ f + 1.5 }}}}" y="{{{{ f + style.title_h + 1.5 }}}}" w="{{{{ W - 2*f - 3 }}}}" h="{{{{ style.art_h }}}}" r="1.2" fill="{{{{ deck.color }}}}" opacity="0.16" bleed="false"/>
<icon name="{{{{ deck.icon }}}}" x="{{{{ W/2 - style.art_h*0.38 }}}}" y="{{{{ f + style.title_h + 1.5 + style.art_h*0.12 }}}}" size="{{{{ style.art_h*0.76 }}}}" color="{{{{ deck.color }}}}"/>
{{% set ty = f + style.title_h + style.art_h + 3.5 %}}
<text x="{{{{ f + 1.8 }}}}" y="{{{{ ty }}}}" w="{{{{ W - 2*f - 3.6 }}}}" h="{{{{ H - f - style.qr - 2.5 - ty }}}}" style="rules" field="text">{{{{ card.text | rich }}}}</text>
<text x="{{{{ f + 1.8 }}}}" y="{{{{ H - f - style.qr - 1 }}}}" w="{{{{ W - 2*f - style.qr - 4 }}}}" h="{{{{ style.qr - 8 }}}}" style="flavor" valign="bottom" field="flavor">{{{{ card.flavor }}}}</text>
<qr x="{{{{ W - f - 1 - style.qr }}}}" y="{{{{ H - f - 1 - style.qr }}}}" size="{{{{ style.qr }}}}"/>
<text x="{{{{ f + 1.8 }}}}" y="{{{{ H - f - 7.3 }}}}" w="{{{{ W - 2*f - style.qr - 4 }}}}" h="6.4" style="idline" valign="bottom" field="id">{{{{ card.id }}}}<br/>rev {{{{ card.revision }}}} · {{{{ deck.name }}}}</text>
</card>
"""

BACK_XML = """\
{{# The back of a {name} card: the deck's colour, its mark and the game's name. #}}
{{% set W = size.w %}}{{% set H = size.h %}}
<card>
<rect x="0" y="0" w="{{{{ W }}}}" h="{{{{ H }}}}" fill="{{{{ deck.color }}}}"/>
<rect x="4" y="4" w="{{{{ W - 8 }}}}" h="{{{{ H - 8 }}}}" r="3" stroke="white" stroke-width="0.6" bleed="false"/>
<circle cx="{{{{ W/2 }}}}" cy="{{{{ H/2 - 4 }}}}" r="17" fill="white" opacity="0.92"/>
<icon name="{{{{ deck.icon }}}}" x="{{{{ W/2 - 12 }}}}" y="{{{{ H/2 - 16 }}}}" size="24" color="{{{{ deck.color }}}}"/>
<text x="6" y="10" w="{{{{ W - 12 }}}}" h="16" style="backtitle" align="center" valign="middle">{{{{ game.name | upper }}}}</text>
<text x="6" y="{{{{ H/2 + 16 }}}}" w="{{{{ W - 12 }}}}" h="8" style="backsub" align="center" valign="middle">{{{{ deck.name | upper }}}}</text>
</card>
"""

GAME_STYLE = """\
# {name}: sizes in millimetres (font sizes in points). Overrides templates/style.yaml.
frame: 2.5          # coloured border around the card
title_h: 9          # the title bar
art_h: 24           # the panel with the deck's mark
qr: 15              # QR side with its quiet zone (keeps modules >= 0.4 mm)
"""

ICONS = """\
# {name}'s own icons: shapes in a 1 x 1 box, y downward (see templates/icons.yaml in a full project).
{slug}-mark:        # a compass rose
  - {{circle: [0.5, 0.5, 0.46], fill: none, stroke: color, width: 0.06}}
  - {{polygon: [[0.5, 0.06], [0.6, 0.5], [0.5, 0.94], [0.4, 0.5]], fill: color}}
  - {{polygon: [[0.06, 0.5], [0.5, 0.4], [0.94, 0.5], [0.5, 0.6]], fill: color}}
"""

SHARED_STYLE = """\
# The shared look of every game in this project: colours and paragraph styles.
# A game's templates/<game>/style.yaml overrides any key. Font sizes in points.
colors:
  ink: "#1d1d1d"
  paper: "#fbf7ef"
  muted: "#5b5b5b"
  white: "#ffffff"
  gold: "#e0b43a"
paragraph_styles:
  title:    {font: RobotoCondensed-Bold, size: 11.5, leading: 1.05, color: white}
  cost:     {font: Roboto-Black, size: 12, leading: 1.0, color: ink, align: center}
  rules:    {font: RobotoCondensed-Regular, size: 8.5, leading: 1.18, color: ink}
  flavor:   {font: RobotoCondensed-Italic, size: 7, leading: 1.15, color: muted}
  idline:   {font: RobotoCondensed-Regular, size: 6, leading: 1.0, color: muted}
  backtitle: {font: Roboto-Black, size: 16, leading: 1.05, color: white, align: center}
  backsub:  {font: RobotoCondensed-Bold, size: 11, leading: 1.1, color: white, align: center}
"""


@dataclass(frozen=True)
class NewGame:
    slug: str
    project: Path
    files: tuple[Path, ...]
    new_project: bool


def title_of(slug: str) -> str:
    return " ".join(word.capitalize() for word in slug.split("-"))


def new_game(folder: Path, slug: str, name: str | None = None) -> NewGame:
    """Create game `slug` in the project at or above `folder` (or a new project in `folder`)."""
    if not SLUG.match(slug) or len(slug) > 24:
        raise PnpError(f"{slug!r} is not a game slug: lowercase letters, digits and single hyphens, "
                       "starting with a letter, at most 24 characters (e.g. dragon-market)")
    project = next((p for p in (folder.resolve(), *folder.resolve().parents) if is_project(p)), folder.resolve())
    fresh = not is_project(project)
    sources, templates = project / SOURCES_DIR / slug, project / TEMPLATES_DIR / slug
    for taken in (sources, templates):
        if taken.exists():
            raise PnpError(f"{taken} already exists; choose another name, or remove it first")
    name = name or title_of(slug)
    prefix = slug[:21].rstrip("-")  # card ids stay unique in the project and within 32 characters
    values = {"name": name.replace('"', "'"), "slug": slug, "prefix": prefix, "format_doc": format_doc()}
    files = {path: text.format(**values) for path, text in {
        sources / GAME_FILE: GAME_YAML,
        sources / "starter.yaml": STARTER_YAML,
        sources / "rules.md": RULES_MD,
        templates / "card.xml.j2": CARD_XML,
        templates / "back.xml.j2": BACK_XML,
        templates / "style.yaml": GAME_STYLE,
        templates / "icons.yaml": ICONS,
    }.items()}
    if not (project / TEMPLATES_DIR / "style.yaml").exists():
        files[project / TEMPLATES_DIR / "style.yaml"] = SHARED_STYLE
    for path, text in files.items():  # every text is made before the first file is written
        write_atomic(path, text.encode("utf-8"))
    return NewGame(slug, project, tuple(files), fresh)
