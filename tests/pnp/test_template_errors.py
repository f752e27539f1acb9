"""An error from a template, a style file or an icon file names the file the
designer must open and its line: a partial's own file, not the template that
includes it. A mistake in a shared partial is one line, not one per card."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main

FRAME = Path("templates/culture-war/_frame.xml.j2")


def validate(project: Path):
    result = CliRunner().invoke(main, ["--project", str(project), "validate", "culture-war"])
    assert result.exit_code != 0, result.output
    assert "Traceback" not in result.output
    return result.output


def insert_line(path: Path, after: int, text: str) -> int:
    lines = path.read_text().splitlines(keepends=True)
    lines.insert(after, text + "\n")
    path.write_text("".join(lines))
    return after + 1


@pytest.mark.parametrize("broken, message", [
    ("{{ no_such_variable }}", "unknown template variable: 'no_such_variable' is undefined"),
    ("{% if %}", "template syntax error"),
    ("{{ 1 / 0 }}", "template error: division by zero"),
    ("{{ style.frame - 'x' }}", "template error: unsupported operand"),
])
def test_an_error_inside_a_partial_names_the_partial_and_its_line(mini_project, broken, message):
    line = insert_line(mini_project / FRAME, 3, broken)
    output = validate(mini_project)
    hits = [l for l in output.splitlines() if message in l]
    assert hits, output
    assert hits[0].startswith(f"Error: {FRAME}:{line}: ") or hits[0].startswith(f"{FRAME}:{line}: "), hits[0]
    assert "unit.xml.j2" not in output and "event.xml.j2" not in output


def test_a_partial_included_from_a_partial_is_named_itself(mini_project):
    inner = mini_project / "templates/culture-war/_inner.xml.j2"
    inner.write_text("<!-- nested -->\n\n{{ nested_missing }}\n")
    insert_line(mini_project / FRAME, 3, '{% include "_inner.xml.j2" %}')
    output = validate(mini_project)
    assert "templates/culture-war/_inner.xml.j2:3: " in output and "nested_missing" in output
    assert "_frame.xml.j2" not in output


def test_a_mistake_shared_by_every_card_is_one_line_naming_a_few(mini_project):
    insert_line(mini_project / FRAME, 3, "{{ no_such_variable }}")
    lines = [l for l in validate(mini_project).splitlines() if "no_such_variable" in l]
    assert len(lines) == 1, lines
    assert "test-recruit" in lines[0] and "more card" in lines[0]


def test_a_broken_style_file_is_named_with_its_line(mini_project):
    style = mini_project / "templates/culture-war/style.yaml"
    lines = style.read_text().splitlines()
    style.write_text("\n".join(lines + ["qr: [1,"]) + "\n")
    output = validate(mini_project)
    assert "style.yaml:" in output and "YAML syntax error" in output


@pytest.mark.parametrize("old, new, message", [
    ("  - {circle: [0.5, 0.5, 0.46], fill: \"#d4a017\"", "  - {circle: [0.5, 0.5], fill: \"#d4a017\"", "icon capital: shape 1: circle needs 3 numbers"),
    ("fill: \"#c0392b\"}", "fill: \"#zz0000\"}", "icon life: shape 1: fill '#zz0000' is not a colour"),
    ("  - {path: \"M 0.5 0.04 L", "  - {path: \"M 0.5 0.04 X", "icon def: shape 1: path takes"),
    ("  - {circle: [0.5, 0.5, 0.46], fill: \"#d4a017\"", "  - {circle: [0.5, 0.5, 0.46], fil: \"#d4a017\"", "icon capital: shape 1: unknown key 'fil'"),
])
def test_a_broken_icon_is_named_with_its_file_and_line(mini_project, old, new, message):
    icons = mini_project / "templates/icons.yaml"
    text = icons.read_text()
    assert old in text
    icons.write_text(text.replace(old, new, 1))
    line = next(i for i, l in enumerate(icons.read_text().splitlines(), start=1) if new.strip()[:20] in l)
    output = validate(mini_project)
    assert f"templates/icons.yaml:{line}: {message}" in output, output
