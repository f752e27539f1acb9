"""Deck files as spreadsheets: `<deck>.csv` or `<deck>.xlsx` instead of YAML.

The first row names the fields; each further row is a card. An empty cell
means "not set". A field whose type is a list (`list[...]`) holds its items
separated by `;`. A structured field (`effects`, `outcomes`, or any cell that
starts with `[` or `{`) holds inline YAML. Everything else is typed by the
card type's schema: a whole-number field reads a number, a text field keeps
its text even when it looks like a number.

`read_deck` gives the same shape a YAML deck file gives (a mapping with a
`cards` list, each card knowing its row as its line), so every check and
message is the YAML one, located `file:row`. `write_deck` writes a deck's
cards back out in any of the three formats; reading what it wrote gives
identical cards (`pnp convert`).
"""
from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any, Mapping, Sequence

import yaml

from pnp.errors import Problems
from pnp.model import FieldType
from pnp.sources.yamlio import MarkedDict, MarkedList

SPREADSHEET_SUFFIXES = (".csv", ".xlsx")
FORMATS = ("yaml", "csv", "xlsx")
FIRST_COLUMNS = ("id", "name", "type", "quantity")
STRUCTURED = ("effects", "outcomes")
LIST_SEPARATOR = ";"


def is_spreadsheet(path: Path) -> bool:
    return path.suffix.lower() in SPREADSHEET_SUFFIXES


# ---------------------------------------------------------------------------- reading

def _rows(path: Path) -> list[list[Any]]:
    if path.suffix.lower() == ".csv":
        with path.open(newline="", encoding="utf-8-sig") as handle:
            return [row for row in csv.reader(handle)]
    from openpyxl import load_workbook  # lazy: openpyxl (0.1 s) only for decks kept in Excel

    book = load_workbook(path, read_only=True, data_only=True)
    try:
        sheet = book.worksheets[0]
        return [list(row) for row in sheet.iter_rows(values_only=True)]
    finally:
        book.close()


def read_deck(path: Path, schemas: Mapping[str, Mapping[str, FieldType]], problems: Problems) -> MarkedDict | None:
    """The deck as YAML would give it, or None after a problem with the sheet itself.

    `schemas` maps each card type to its fields (common fields included), so
    that cells are typed the way the schema expects."""
    try:
        rows = _rows(path)
    except (OSError, ValueError, csv.Error, KeyError) as exc:
        problems.add(path, 0, None, f"cannot read the spreadsheet: {exc}")
        return None
    except Exception as exc:  # openpyxl raises its own kinds for a file that is not a workbook
        problems.add(path, 0, None, f"cannot read the spreadsheet ({type(exc).__name__}): {exc}")
        return None
    deck = MarkedDict(cards=MarkedList())
    deck.line, deck.key_lines = 1, {"cards": 1}
    cards = deck["cards"]
    cards.line, cards.item_lines = 1, []
    if not rows:
        return deck
    header = [_text(h).strip() for h in rows[0]]
    seen: dict[str, int] = {}
    twice = False
    for i, name in enumerate(header):
        if name and name in seen:
            problems.add(path, 1, None, f"column {name!r} appears twice (columns {seen[name] + 1} and {i + 1})")
            twice = True
        seen.setdefault(name, i)
    if twice:
        return None
    for number, row in enumerate(rows[1:], start=2):
        cells = {name: row[i] for i, name in enumerate(header) if i < len(row) and not _empty(row[i])}
        stray = [i for i, value in enumerate(row) if not _empty(value) and (i >= len(header) or not header[i])]
        if not cells and not stray:
            continue  # a blank row
        card = MarkedDict()
        card.line, card.key_lines = number, {}
        card_id = _text(cells.get("id", "")).strip()
        for i in stray:
            problems.add(path, number, card_id, f"a value in column {i + 1}, which has no field name in row 1")
        schema = schemas.get(_text(cells.get("type", "")).strip(), {})
        for name, value in cells.items():
            try:
                card[name] = _typed(value, schema.get(name), name)
            except yaml.YAMLError as exc:
                mark = getattr(exc, "problem", None) or str(exc).splitlines()[0]
                problems.add(path, number, card_id, f"column {name}: not valid inline YAML ({mark})")
                continue
            card.key_lines[name] = number
        cards.append(card)
        cards.item_lines.append(number)
    return deck


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _typed(value: Any, ftype: FieldType | None, name: str) -> Any:
    text = _text(value)
    if name in STRUCTURED or (ftype is not None and ftype.kind in STRUCTURED):
        return _plain_yaml(text)
    if ftype is None:  # an unknown column: reported by the card check, typed as YAML would
        return _scalar(value)
    if ftype.kind == "list":
        if text.lstrip().startswith("["):
            return _plain_yaml(text)
        return [_typed(item.strip(), ftype.item, name) for item in text.split(LIST_SEPARATOR) if item.strip()]
    if ftype.kind == "int":
        if isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer():
            return int(value)
        stripped = text.strip()
        return int(stripped) if stripped.lstrip("+-").isdigit() else text
    if ftype.kind == "bool":
        if isinstance(value, bool):
            return value
        return {"true": True, "yes": True, "false": False, "no": False}.get(text.strip().lower(), text)
    return text


def _scalar(value: Any) -> Any:
    if not isinstance(value, str):
        return int(value) if isinstance(value, float) and value.is_integer() else value
    return _plain_yaml(value) if value.lstrip()[:1] in "[{" else value


def _plain_yaml(text: str) -> Any:
    """A cell of inline YAML (safe_load gives plain dicts and lists)."""
    return yaml.safe_load(text)


# ---------------------------------------------------------------------------- writing

def columns(cards: Sequence[Mapping[str, Any]]) -> list[str]:
    """id, name, type, quantity first, then every other field in first-seen order."""
    names: dict[str, None] = {c: None for c in FIRST_COLUMNS if any(c in card for card in cards)}
    for card in cards:
        for key in card:
            names.setdefault(key, None)
    return list(names)


def _cell(value: Any, name: str) -> Any:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, str)):
        return value
    if isinstance(value, list) and name not in STRUCTURED and all(
            isinstance(v, (str, int)) and not isinstance(v, bool) and LIST_SEPARATOR not in str(v) and str(v).strip() == str(v)
            and str(v) for v in value):
        return f"{LIST_SEPARATOR} ".join(str(v) for v in value) if value else None
    return yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, width=10**9, sort_keys=False).strip()


def write_deck(cards: Sequence[Mapping[str, Any]], fmt: str) -> bytes:
    """The cards as a deck file in `fmt` (yaml, csv or xlsx)."""
    if fmt == "yaml":
        text = yaml.safe_dump({"cards": [dict(c) for c in cards]}, sort_keys=False, allow_unicode=True, width=100)
        return text.encode("utf-8")
    header = columns(cards)
    rows = [[_cell(card.get(name), name) for name in header] for card in cards]
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(header)
        writer.writerows([["" if v is None else v for v in row] for row in rows])
        return buffer.getvalue().encode("utf-8")
    from openpyxl import Workbook  # lazy: openpyxl (0.1 s) only for decks kept in Excel
    from openpyxl.styles import Font  # lazy: as above

    book = Workbook()
    sheet = book.active
    sheet.title = "cards"
    sheet.append(header)
    for row in rows:
        sheet.append(row)
    for line in sheet.iter_rows(min_row=2):
        for cell in line:
            if isinstance(cell.value, str) and cell.value.startswith("="):
                cell.data_type = "s"  # text, never a formula
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    sheet.freeze_panes = "A2"
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()
