"""Deck files as spreadsheets: `<deck>.csv` or `<deck>.xlsx` instead of YAML.

The first row names the fields; each further row is a card. An empty cell
means "not set". A field whose type is a list (`list[...]`) holds its items
separated by `;`. A structured field (`effects`, `outcomes`, or any cell that
starts with `[` or `{`) holds inline YAML. Everything else is typed by the
card type's schema: a whole-number field reads a number, a text field keeps
its text even when it looks like a number.

A CSV file is read as UTF-8, its separator (`,`, `;` as European Excel
writes it, or a tab) taken from its header row. A workbook is read from its
sheet named `cards`, else from the only sheet whose first row has an `id`
column. A formula with no saved value and a date Excel made of what was
typed are errors, never a blank or `2026-05-06 00:00:00` on a card.

`read_deck` gives the same shape a YAML deck file gives (a mapping with a
`cards` list, each card knowing its row as its line), so every check and
message is the YAML one, located `file:row`. `write_deck` writes a deck's
cards back out in any of the three formats; reading what it wrote gives
identical cards (`pnp convert`).
"""
from __future__ import annotations

import csv
import datetime
import io
from pathlib import Path
from typing import Any, Mapping, Sequence

import yaml

from pnp.errors import Problems, did_you_mean
from pnp.model import FieldType
from pnp.sources.yamlio import MarkedDict, MarkedList, YamlSyntaxError, safe_scalar_yaml

SPREADSHEET_SUFFIXES = (".csv", ".xlsx")
FORMATS = ("yaml", "csv", "xlsx")
FIRST_COLUMNS = ("id", "name", "type", "quantity")
STRUCTURED = ("effects", "outcomes")
LIST_SEPARATOR = ";"
CARDS_SHEET = "cards"
SEPARATORS = (",", ";", "\t")


class SheetProblem(Exception):
    """Something wrong with the file as a whole, located at a row."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line, self.message = line, message


class CellProblem(ValueError):
    """A cell that cannot be read as what was typed."""


def is_spreadsheet(path: Path) -> bool:
    return path.suffix.lower() in SPREADSHEET_SUFFIXES


# ---------------------------------------------------------------------------- reading

def _rows(path: Path) -> tuple[list[list[Any]], list[tuple[int, str]]]:
    """The sheet's rows, and the problems of single cells (row, message)."""
    if path.suffix.lower() == ".csv":
        return _csv_rows(path.read_bytes()), []
    return _workbook_rows(path)


def _csv_rows(data: bytes) -> list[list[str]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        row = data[:exc.start].count(b"\n") + 1
        raise SheetProblem(row, f"not UTF-8 text: byte 0x{data[exc.start]:02X} on row {row} is not UTF-8 "
                                "(the file is probably in a legacy encoding such as Windows-1252 or Mac Roman); "
                                "save it as UTF-8 (Excel: Save As, 'CSV UTF-8'; LibreOffice: character set "
                                "'Unicode (UTF-8)')") from None
    header = text.split("\n", 1)[0]
    separator = max(SEPARATORS, key=header.count) if any(sep in header for sep in SEPARATORS) else ","
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=separator))


def _workbook_rows(path: Path) -> tuple[list[list[Any]], list[tuple[int, str]]]:
    from openpyxl import load_workbook  # lazy: openpyxl (0.1 s) only for decks kept in Excel

    book = load_workbook(path, read_only=True, data_only=True)
    try:
        name = _cards_sheet(book)
        rows = [list(row) for row in book[name].iter_rows(values_only=True)]
    finally:
        book.close()
    blanks = {(r, c) for r, row in enumerate(rows) for c, value in enumerate(row) if value is None}
    if not blanks:
        return rows, []
    formulas = load_workbook(path, read_only=True, data_only=False)  # a blank may be a formula with no saved value
    try:
        problems = []
        for r, row in enumerate(formulas[name].iter_rows(values_only=True)):
            for c, value in enumerate(row):
                if (r, c) in blanks and isinstance(value, str) and value.startswith("="):
                    problems.append((r + 1, f"column {_column_name(rows[0], c)}: the formula {value} has no saved "
                                            "value (the file was written by a program that does not calculate); "
                                            "open it in your spreadsheet app and save it there"))
        return rows, problems
    finally:
        formulas.close()


def _column_name(header: list[Any], index: int) -> str:
    name = _text(header[index]).strip() if index < len(header) else ""
    return name or f"{index + 1}"


def _cards_sheet(book) -> str:
    """The sheet the cards are on: `cards`, else the only one with an `id` column."""
    names = book.sheetnames
    for name in names:
        if name.strip().lower() == CARDS_SHEET:
            return name
    with_id = []
    for name in names:
        first = next(book[name].iter_rows(max_row=1, values_only=True), ())
        if any(_text(v).strip() == "id" for v in first):
            with_id.append(name)
    if len(with_id) == 1:
        return with_id[0]
    listed = ", ".join(repr(n) for n in names)
    if not with_id:
        lower = [name for name in names
                 if any(_text(v).strip() == "id" for row in book[name].iter_rows(max_row=HEADER_SEARCH, values_only=True)
                        for v in row)]
        if len(lower) == 1:
            return lower[0]  # its header row is further down: read_deck says so, once
        raise SheetProblem(1, f"no sheet holds the cards: none is named {CARDS_SHEET!r} and none has an `id` column "
                              f"in its first row (sheets: {listed})")
    raise SheetProblem(1, f"several sheets have an `id` column ({', '.join(repr(n) for n in with_id)}); "
                          f"name the one that holds the cards {CARDS_SHEET!r}")


def read_deck(path: Path, schemas: Mapping[str, Mapping[str, FieldType]], problems: Problems) -> MarkedDict | None:
    """The deck as YAML would give it, or None after a problem with the sheet itself.

    `schemas` maps each card type to its fields (common fields included), so
    that cells are typed the way the schema expects."""
    try:
        rows, cell_problems = _rows(path)
    except SheetProblem as exc:
        problems.add(path, exc.line, None, exc.message)
        return None
    except (OSError, ValueError, csv.Error, KeyError) as exc:
        problems.add(path, 1, None, f"cannot read the spreadsheet: {exc}")
        return None
    except Exception as exc:  # openpyxl raises its own kinds for a file that is not a workbook
        problems.add(path, 1, None, f"cannot read the spreadsheet ({type(exc).__name__}): {exc}")
        return None
    unreadable: dict[int, list[str]] = {}
    for row, message in cell_problems:
        unreadable.setdefault(row, []).append(message)
    deck = MarkedDict(cards=MarkedList())
    deck.line, deck.key_lines = 1, {"cards": 1}
    cards = deck["cards"]
    cards.line, cards.item_lines = 1, []
    if not rows:
        return deck
    header = [_text(h).strip() for h in rows[0]]
    if "id" not in header:
        problems.add(path, 1, None, _no_header(rows))
        return None
    seen: dict[str, int] = {}
    twice = False
    for i, name in enumerate(header):
        if name and name in seen:
            problems.add(path, 1, None, f"column {name!r} appears twice (columns {seen[name] + 1} and {i + 1})")
            twice = True
        seen.setdefault(name, i)
    if twice:
        return None
    known = {name for schema in schemas.values() for name in schema}
    for i, name in enumerate(header):
        if name and known and name not in known:
            problems.add(path, 1, None, f"column {name!r} (column {i + 1}) is not a field of any card type in this "
                                        f"game{did_you_mean(name, sorted(known))}")
    named = [bool(name) for name in header]  # an unknown column is named (reported once, above), not stray
    header = [name if not known or name in known else "" for name in header]
    for number, row in enumerate(rows[1:], start=2):
        cells = {name: row[i] for i, name in enumerate(header) if name and i < len(row) and not _empty(row[i])}
        stray = [i for i, value in enumerate(row) if not _empty(value) and (i >= len(header) or not named[i])]
        if not cells and not stray:
            continue  # a blank row
        card = MarkedDict()
        card.line, card.key_lines = number, {}
        card_id = _text(cells.get("id", "")).strip()
        if number in unreadable:  # the card is not read at all: its other checks would only mislead
            for message in unreadable[number]:
                problems.add(path, number, card_id, message)
            continue
        for i in stray:
            problems.add(path, number, card_id, f"a value in column {i + 1}, which has no field name in row 1")
        schema = schemas.get(_text(cells.get("type", "")).strip()) or _any_type(schemas)  # unknown type: reported once
        for name, value in cells.items():
            try:
                card[name] = _typed(value, schema.get(name), name)
            except yaml.YAMLError as exc:
                mark = getattr(exc, "problem", None) or str(exc).splitlines()[0]
                problems.add(path, number, card_id, f"column {name}: not valid inline YAML ({mark})")
                continue
            except CellProblem as exc:
                problems.add(path, number, card_id, f"column {name}: {exc}")
                continue
            card.key_lines[name] = number
        cards.append(card)
        cards.item_lines.append(number)
    return deck


HEADER_SEARCH = 20  # rows looked through for a header row that is not the first


def _no_header(rows: list[list[Any]]) -> str:
    """Why row 1 is no header row: the header is further down (a title row
    above it, merged cells), or there is none."""
    for number, row in enumerate(rows[1:HEADER_SEARCH], start=2):
        if any(_text(v).strip() == "id" for v in row):
            above = "row 1 is" if number == 2 else f"rows 1 to {number - 1} are"
            return (f"the header row (the row naming id, name, type, ...) is row {number}, but it must be row 1: "
                    f"{above} above it (a title? merged cells?); delete {'it' if number == 2 else 'them'} "
                    "and keep any title elsewhere")
    return "row 1 must name the fields (id, name, type, ...), and it has no `id` column"


def _any_type(schemas: Mapping[str, Mapping[str, FieldType]]) -> dict[str, FieldType]:
    """Every field of every card type, for a row whose type is unknown (that is
    reported once, by the card check): its cells are still read by type, so a
    quantity of 1 is a number, not the text '1'."""
    out: dict[str, FieldType] = {}
    for schema in schemas.values():
        for name, ftype in schema.items():
            out.setdefault(name, ftype)
    return out


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _typed(value: Any, ftype: FieldType | None, name: str) -> Any:
    if isinstance(value, (datetime.date, datetime.time, datetime.timedelta)):
        raise CellProblem(f"the spreadsheet made a date or time of what was typed here ({value}); format the "
                          "column as Text and type it again (or start the cell with an apostrophe: '6/5)")
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
    return text.strip()  # " Kiln Master " is Kiln Master: a stray space must not change the card (its revision, its QR)


def _scalar(value: Any) -> Any:
    if not isinstance(value, str):
        return int(value) if isinstance(value, float) and value.is_integer() else value
    return _plain_yaml(value) if value.lstrip()[:1] in "[{" else value


def _plain_yaml(text: str) -> Any:
    """A cell of inline YAML (plain dicts and lists), refused if its aliases would explode."""
    try:
        return safe_scalar_yaml(text)
    except YamlSyntaxError as exc:
        raise CellProblem(exc.message) from None


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
