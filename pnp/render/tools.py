"""Everything drawing a game's faces needs, loaded in one place: the
project's fonts registered, the game's icons, its templates (with their
style) and a render context. Builds, exports, previews and validation all
start from `load_tools`."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import FileSystemBytecodeCache

from pnp.faces.elements import Face
from pnp.faces.icons import IconSet
from pnp.faces.templates import TemplateSet
from pnp.faces.textfit import fit_face
from pnp.project import TEMPLATES_DIR
from pnp.render.canvas import RenderContext
from pnp.render.fonts import register_fonts
from pnp.sources.loader import icon_files

SHEET_FONT = "RobotoCondensed-Regular"  # the font of the sheets' own notes, captions and scale bars


@dataclass(frozen=True)
class Tools:
    """One game's templates, icons and render context (its fonts are registered)."""

    templates: TemplateSet
    icons: IconSet
    context: RenderContext

    @property
    def style(self) -> dict[str, Any]:
        return self.templates.style

    def fit(self, face: Face) -> Face:
        """The face with its text fitted to its boxes (see pnp.faces.textfit.fit_face)."""
        return fit_face(face, self.templates.style, self.icons)


def load_tools(project: Path, game: str, compiled: str | None = None) -> Tools:
    """The drawing tools of `game`. With `compiled`, templates are compiled
    into (and loaded from) that folder, which the workers of a build share."""
    fonts = register_fonts(project / TEMPLATES_DIR)
    icons = IconSet.load(*icon_files(project, game))
    templates = TemplateSet.load(project, game)
    templates.check_fonts(fonts)
    templates.icon_names = frozenset(icons.shapes)
    if compiled is not None:
        templates.env.bytecode_cache = FileSystemBytecodeCache(compiled)
    return Tools(templates, icons, RenderContext(templates.style, icons, SHEET_FONT))
