"""Stage 2, faces: Jinja templates -> card faces made of elements.

Templates live in templates/<game>/<name>.xml.j2 (falling back to
templates/common/). Jinja runs sandboxed with StrictUndefined and XML
autoescaping; its output is a small XML language (see docs/templates.md and docs/card-sources.md)
whose coordinates are millimetres from the card's top-left corner.
"""
from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup, escape

from pnp.errors import PnpError, did_you_mean
from pnp.faces.artpanel import svg_ops
from pnp.faces.elements import QR, Art, Circle, Face, Icon, Line, Paint, Polygon, Rect, Text
from pnp.project import TEMPLATES_DIR
from pnp.sources.art import find_art
from pnp.sources.colours import ColourError, colour
from pnp.sources.sandbox import BoundedSandbox, why
from pnp.sources.yamlio import YamlSyntaxError, load_marked
from pnp.sources.yamlio import plain as _plain

SUFFIX = ".xml.j2"
STYLE_FILE = "style.yaml"
_TOKEN = re.compile(r"\{([a-z0-9-]+)\}")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_NUMBER_BEFORE_ICON = re.compile(r"([0-9X]%?) +(?=\{[a-z0-9-]+\})")  # "-1 {atk}" never breaks apart
INLINE_TAGS = {"b", "i", "br", "font", "icon", "u", "strike", "super", "sub", "span"}
ELEMENTS = ("rect", "circle", "line", "polygon", "icon", "qr", "text", "art")
_INCLUDE = re.compile(r"""\{%-?\s*(?:include|import|from|extends)\s+["']([^"']+)["']""")


class TemplateProblem(Exception):
    def __init__(self, path: str, line: int, message: str):
        super().__init__(message)
        self.path, self.line, self.message = path, line, message


class ElementProblem(ValueError):
    """A drawing element the template wrote wrong; `needle` is the text that
    shows where (`<badtag`, `style="titel"`), looked for in the template's files."""

    def __init__(self, message: str, needle: str = ""):
        super().__init__(message)
        self.needle = needle


def rich(text: Any) -> Markup:
    """Card text -> inline markup: escapes XML, `**bold**`, `{icon}` tokens, newlines."""
    if text is None:
        return Markup("")
    out = str(escape(str(text)))
    out = _BOLD.sub(r"<b>\1</b>", out)
    out = _NUMBER_BEFORE_ICON.sub("\\1\xa0", out)
    out = _TOKEN.sub(r'<icon name="\1"/>', out)
    out = out.replace("\n", "<br/>")
    return Markup(out)


def _deep_merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        out[k] = _deep_merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


@dataclass
class TemplateSet:
    """Templates and style for one game."""

    root: Path
    game: str
    env: SandboxedEnvironment
    style: dict[str, Any]
    style_files: tuple[Path, ...]
    _shown: dict[str, str] = field(default_factory=dict)  # template name -> its path as messages show it
    icon_names: frozenset[str] | None = None  # the game's icons, when known: an unknown one is the template's mistake
    font_names: frozenset[str] | None = None  # the embedded fonts, when known (check_fonts): for <font name=...>

    @classmethod
    def load(cls, project: Path, game: str) -> "TemplateSet":
        tdir = project / TEMPLATES_DIR
        style: dict[str, Any] = {}
        files = []
        for path in (tdir / STYLE_FILE, tdir / game / STYLE_FILE):
            if path.exists():
                try:
                    data, _ = load_marked(path)
                except YamlSyntaxError as exc:
                    raise PnpError(f"{path}:{exc.line}: -: {exc.message}") from None
                _check_style_colours(path, data)
                style = _deep_merge(style, _plain(data or {}))
                files.append(path)
        env = BoundedSandbox(
            loader=jinja2.FileSystemLoader([str(tdir / game), str(tdir / "common")]),
            undefined=jinja2.StrictUndefined,
            autoescape=True,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=False,
            finalize=lambda value: "" if value is None else value,  # an unset optional field prints nothing, not "None"
            optimized=False,  # compiling is most of a cold build's template cost; the optimizer's folding saves little per render
        )
        env.filters["rich"] = rich
        env.filters["mm"] = lambda v: f"{float(v):.3f}"
        env.filters["tint"] = lambda color, amount: tint(str(color), float(amount))  # "#c0392b" | tint(0.3)
        style = _normalised_colours(style)
        return cls(tdir, game, env, style, tuple(files))

    def check_fonts(self, fonts: tuple[str, ...] | list[str]) -> None:
        """Every paragraph style names one of `fonts` (the embedded fonts); else
        one error at the style's line listing the fonts there are."""
        self.font_names = frozenset(fonts)
        bad = {name: spec["font"] for name, spec in (self.style.get("paragraph_styles") or {}).items()
               if isinstance(spec, dict) and spec.get("font") not in fonts}
        if not bad:
            return
        name, font = next(iter(sorted(bad.items())))
        where, line = _style_line(self.style_files, name)
        others = f" (and {len(bad) - 1} more style{'s' if len(bad) > 2 else ''}: " \
                 f"{', '.join(sorted(bad)[1:])})" if len(bad) > 1 else ""
        raise PnpError(f"{_shown(where, self.root.parent)}:{line}: -: paragraph style {name!r}: unknown font {font!r}"
                       f"{others}; the fonts there are: {', '.join(sorted(fonts))}"
                       + did_you_mean(str(font), fonts)
                       + f" (a font is a .ttf file in {TEMPLATES_DIR}/fonts/, named by its file name without .ttf)")

    def template_path(self, name: str) -> Path:
        for folder in (self.root / self.game, self.root / "common"):
            if (folder / f"{name}{SUFFIX}").exists():
                return folder / f"{name}{SUFFIX}"
        return self.root / self.game / f"{name}{SUFFIX}"

    def render(self, name: str, context: dict[str, Any]) -> Face:
        """Render template `name` to a Face. Raises TemplateProblem."""
        shown = self._shown.get(name) or self._shown.setdefault(name, _shown(self.template_path(name), self.root.parent))
        try:
            template = self.env.get_template(f"{name}{SUFFIX}")
        except jinja2.TemplateNotFound:
            raise TemplateProblem(shown, 1, f"template {name}{SUFFIX} not found in templates/{self.game}/ or templates/common/") from None
        except jinja2.TemplateSyntaxError as exc:
            raise TemplateProblem(shown, exc.lineno or 0, f"template syntax error: {exc.message}") from None
        try:
            xml = template.render(style=self.style, **context)
        except jinja2.TemplateSyntaxError as exc:  # in a partial, compiled when first included
            where = self._shown_file(exc.filename) if exc.filename else shown
            raise TemplateProblem(where, exc.lineno or 0, f"template syntax error: {exc.message}") from None
        except jinja2.UndefinedError as exc:
            raise TemplateProblem(*self._where(shown), f"unknown template variable: {exc.message}") from None
        except jinja2.TemplateError as exc:
            raise TemplateProblem(*self._where(shown), f"template error: {exc}") from None
        except (TypeError, ValueError, ArithmeticError, MemoryError, RecursionError) as exc:
            raise TemplateProblem(*self._where(shown), f"template error: {why(exc)}") from None
        try:
            face = parse_face(xml, shown, context.get("payload", ""), self.style, self.icon_names, self.font_names)
        except ElementProblem as exc:
            raise TemplateProblem(*self.locate(name, exc.needle), str(exc)) from None
        if any(isinstance(el, Art) for el in face.elements):
            face = Face(tuple(self._art(el, shown) if isinstance(el, Art) else el for el in face.elements), face.key)
        return face

    def locate(self, name: str, needle: str) -> tuple[str, int]:
        """The file and line where the template `name` (or a file it includes)
        writes `needle`; the template itself at line 1 when no file does
        (the text came from the card's data, not from the template)."""
        seen: set[Path] = set()
        todo = [self.template_path(name)]
        while todo:
            path = todo.pop(0)
            if path in seen or not path.is_file():
                continue
            seen.add(path)
            lines = path.read_text(encoding="utf-8").splitlines()
            for number, line in enumerate(lines, start=1):
                if needle and needle in line:
                    return self._shown_file(str(path)), number
            for included in _INCLUDE.findall("\n".join(lines)):
                todo.append(self.template_path(included.removesuffix(SUFFIX)))
        return self._shown.get(name) or _shown(self.template_path(name), self.root.parent), 1

    def _art(self, el: Art, shown: str) -> Art:
        """An illustration's path, from the project root, made absolute (it must exist)."""
        path = find_art(self.root.parent, el.src)
        if path is None:
            outside = not (self.root.parent.resolve() / el.src).resolve().is_relative_to(self.root.parent.resolve())
            raise TemplateProblem(*self.locate_art(shown, el.src),
                                  f'<art src="{el.src}">: ' + ("the picture is outside the project; pnp reads pictures "
                                                               "only from the project (templates/art/) and its own icons"
                                                               if outside else f"no illustration {el.src}"))
        if path.suffix.lower() == ".svg":
            st = path.stat()
            why = _svg_problem(str(path), st.st_mtime_ns, st.st_size)  # read now, so a broken SVG is named here
            if why is not None:
                raise TemplateProblem(*self.locate_art(shown, el.src), f'<art src="{el.src}">: {why}')
        return replace(el, src=str(path))

    def locate_art(self, shown: str, src: str) -> tuple[str, int]:
        """Where the template writes an <art> whose src is `src` (line 1 when it comes from the card)."""
        try:
            lines = (self.root.parent / shown).read_text(encoding="utf-8").splitlines()
        except OSError:
            return shown, 1
        return shown, next((n for n, line in enumerate(lines, start=1) if src in line), 1)

    def _shown_file(self, filename: str) -> str:
        return _shown(Path(filename), self.root.parent)

    def _where(self, shown: str) -> tuple[str, int]:
        """The file and line the designer must open: the innermost template
        frame of the current exception, a partial's own when the error is in
        one (Jinja gives template frames the template's file and line)."""
        found = _innermost_template_frame(str(self.root))
        if found is None:
            return shown, 0
        filename, line = found
        return self._shown_file(filename), line


@lru_cache(maxsize=1024)
def _svg_problem(path: str, mtime_ns: int, size: int) -> str | None:
    """Why the SVG at `path` cannot be drawn (None: it can); once per version of the file."""
    try:
        svg_ops(path, Path(path).read_bytes(), "#000000")
    except (ValueError, UnicodeDecodeError) as exc:
        return str(exc)
    return None


def _style_line(files: tuple[Path, ...], name: str) -> tuple[Path, int]:
    """The style file (the last that sets it: it wins) and line of paragraph style `name`'s font."""
    for path in reversed(files):
        data, _ = load_marked(path)
        styles = data.get("paragraph_styles") if isinstance(data, dict) else None
        if isinstance(styles, dict) and isinstance(styles.get(name), dict) and "font" in styles[name]:
            spec = styles[name]
            return path, spec.line_of("font") if hasattr(spec, "line_of") else styles.line_of(name)
    return files[-1] if files else Path(STYLE_FILE), 0


def _shown(path: Path, project: Path) -> str:
    try:
        return str(path.relative_to(project))
    except ValueError:
        return str(path)


def _innermost_template_frame(root: str) -> tuple[str, int] | None:
    """(file, line) of the deepest frame of the current exception that runs a
    template under `root`."""
    tb = sys.exc_info()[2]
    found = None
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name.endswith(SUFFIX) and name.startswith(root):
            found = (name, tb.tb_lineno)
        tb = tb.tb_next
    return found


def _num(el: ET.Element, key: str, default: float | None = None) -> float:
    raw = el.get(key)
    if raw is None:
        if default is None:
            raise ValueError(f"<{el.tag}> needs {key}=")
        return default
    try:
        return float(raw)
    except ValueError:
        raise ValueError(f"<{el.tag}> {key}={raw!r} is not a number (millimetres)") from None


def _paint(el: ET.Element, colors: dict[str, str]) -> Paint:
    def color(key):
        value = el.get(key)
        if value in (None, "", "none"):
            return None
        return _colour(el, key, colors.get(value, value))
    dash = tuple(float(v) for v in el.get("dash", "").split()) if el.get("dash") else ()
    opacity = float(el.get("opacity", 1))
    fill, stroke = color("fill"), color("stroke")
    if opacity < 1:  # a tint over white paper: no transparency groups, so forms stay simple
        fill, stroke = (tint(c, opacity) if c else None for c in (fill, stroke))
    return Paint(fill, stroke, float(el.get("stroke-width", 0.3)), 1.0, dash)


def _colour(el: ET.Element, key: str, value: str) -> str:
    """An element's colour attribute as #rrggbb (a CSS name or #rgb is fine)."""
    try:
        return colour(value)
    except ColourError as exc:
        raise ElementProblem(f"<{el.tag} {key}=...>: {exc}", f'{key}="{el.get(key)}"') from None


def _check_style_colours(path: Path, data: Any) -> None:
    """style.yaml's `colors:` are colours; a bad one is named at its line."""
    colors = data.get("colors") if isinstance(data, dict) else None
    if not isinstance(colors, dict):
        return
    for name, value in colors.items():
        try:
            colour(value)
        except ColourError as exc:
            line = colors.line_of(name) if hasattr(colors, "line_of") else 0
            raise PnpError(f"{path}:{line}: -: colors.{name}: {exc}") from None


def _normalised_colours(style: dict[str, Any]) -> dict[str, Any]:
    """The style with its colours as #rrggbb, so every later use (tints, ink saver) reads one form."""
    colors = style.get("colors")
    if not isinstance(colors, dict):
        return style
    colors = {k: colour(v) for k, v in colors.items()}
    paragraphs = {}
    for name, spec in (style.get("paragraph_styles") or {}).items():
        if isinstance(spec, dict) and "color" in spec:
            try:
                spec = {**spec, "color": colour(colors.get(spec["color"], spec["color"]))}
            except ColourError as exc:
                raise PnpError(f"style.yaml: paragraph_styles.{name}.color: {exc}") from None
        paragraphs[name] = spec
    return {**style, "colors": colors, "paragraph_styles": paragraphs}


def tint(color: str, amount: float) -> str:
    """`color` laid at `amount` opacity over white."""
    try:
        color = colour(color)
    except ColourError as exc:
        raise ValueError(str(exc)) from None
    value = color.lstrip("#")
    rgb = [int(value[i:i + 2], 16) for i in (0, 2, 4)]
    mixed = [round(255 - (255 - c) * amount) for c in rgb]
    return "#" + "".join(f"{c:02x}" for c in mixed)


def _inner_markup(el: ET.Element) -> str:
    parts = [escape(el.text or "")]
    for child in el:
        if child.tag not in INLINE_TAGS:
            raise ValueError(f"<{child.tag}> is not allowed inside <text>")
        parts.append(Markup(ET.tostring(child, encoding="unicode")))
    return str(Markup("").join(parts)).strip()


def parse_face(xml: str, shown: str, payload: str, style: dict[str, Any], icons=None, fonts=None) -> Face:
    """The face the template's output describes. Raises TemplateProblem for
    output that is not XML, ElementProblem for an element written wrong."""
    colors = style.get("colors", {})
    paragraph_styles = style.get("paragraph_styles", {})
    try:
        root = ET.fromstring(xml)
    except ET.ParseError as exc:
        line = exc.position[0] if exc.position else 0
        raise TemplateProblem(shown, line, f"template output is not well-formed XML: {exc}") from None
    elements = []
    for el in root:
        try:
            elements.append(_element(el, payload, colors))
        except ElementProblem:
            raise
        except (ValueError, KeyError) as exc:
            raise ElementProblem(str(exc), f"<{el.tag}") from None
        if el.tag == "text" and el.get("style", "body") not in paragraph_styles:
            name = el.get("style", "body")
            raise ElementProblem(f"unknown paragraph style {name!r} (style.yaml's paragraph_styles)"
                                 + did_you_mean(name, paragraph_styles), f'style="{name}"')
        if el.tag == "text" and fonts is not None:
            for inner in el.iter("font"):
                name = inner.get("name") or inner.get("face")
                if name is not None and name not in fonts:
                    raise ElementProblem(f"<font name={name!r}>: unknown font; the fonts there are: "
                                         f"{', '.join(sorted(fonts))}" + did_you_mean(name, fonts), f'"{name}"')
        if el.tag == "icon" and icons is not None and el.get("name", "") not in icons:
            name = el.get("name", "")
            raise ElementProblem(f"unknown icon {name!r} (icons.yaml)" + did_you_mean(name, icons), f'name="{name}"')
    return Face(tuple(elements), key="")


def _element(el: ET.Element, payload: str, colors: dict[str, str]):
    tag = el.tag
    if tag == "rect":
        return Rect(_num(el, "x"), _num(el, "y"), _num(el, "w"), _num(el, "h"), _paint(el, colors),
                    _num(el, "r", 0), el.get("bleed", "true") != "false")
    if tag == "circle":
        return Circle(_num(el, "cx"), _num(el, "cy"), _num(el, "r"), _paint(el, colors))
    if tag == "line":
        return Line(_num(el, "x1"), _num(el, "y1"), _num(el, "x2"), _num(el, "y2"), _paint(el, colors))
    if tag == "polygon":
        pts = []
        for pair in (el.get("points") or "").split():
            x, _, y = pair.partition(",")
            pts.append((float(x), float(y)))
        if len(pts) < 3:
            raise ValueError("<polygon> needs at least 3 points")
        return Polygon(tuple(pts), _paint(el, colors))
    if tag == "icon":
        color = el.get("color", "#1d1d1d")
        return Icon(el.get("name", ""), _num(el, "x"), _num(el, "y"), _num(el, "size"), _colour(el, "color", colors.get(color, color)))
    if tag == "qr":
        return QR(_num(el, "x"), _num(el, "y"), _num(el, "size"), el.get("payload", payload))
    if tag == "text":
        rotate = el.get("rotate", "0")
        if rotate not in ("0", "180"):
            raise ValueError(f'<text rotate="{rotate}">: rotate is 0 or 180 (text turned to face the far player)')
        return Text(_num(el, "x"), _num(el, "y"), _num(el, "w"), _num(el, "h"), el.get("style", "body"),
                    _inner_markup(el), el.get("field", ""), el.get("align", "left"), el.get("valign", "top"),
                    rotate=int(rotate))
    if tag == "art":
        src = el.get("src", "")
        if not src.lower().endswith((".svg", ".png", ".jpg", ".jpeg")):
            raise ValueError(f'<art src="{src}">: src is an illustration, templates/art/NAME.svg, .png or .jpg (card.art)')
        color, background, tint = (el.get(k) for k in ("color", "background", "tint"))
        return Art(src, _num(el, "x"), _num(el, "y"), _num(el, "w"), _num(el, "h"),
                   _colour(el, "color", colors.get(color or "ink", color or "#1d1d1d")),
                   _colour(el, "background", colors.get(background, background)) if background else None,
                   _colour(el, "tint", colors.get(tint, tint)) if tint else None)
    raise ElementProblem(f"unknown element <{tag}> (use {', '.join(ELEMENTS)})" + did_you_mean(tag, ELEMENTS), f"<{tag}")
