"""YAML reading with `safe_load` semantics that remembers where each key stood."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from pnp.errors import Problems
from pnp.sources.memo import memo_file

try:  # the C loader is much faster; same safe semantics
    _Base = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Base = yaml.SafeLoader


class MarkedDict(dict):
    """A mapping that knows its own line and the line of each key (1-based)."""

    line: int = 0
    key_lines: dict

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class MarkedList(list):
    line: int = 0
    item_lines: list


class _MarkedLoader(_Base):
    duplicate_keys: list


def _construct_mapping(loader: _MarkedLoader, node: yaml.MappingNode) -> MarkedDict:
    written = sum(1 for key_node, _ in node.value if key_node.tag != "tag:yaml.org,2002:merge")
    loader.flatten_mapping(node)
    merged = len(node.value) - written  # `<<: *base` pairs come first; the mapping's own keys may override them
    result = MarkedDict()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    own: set = set()
    for index, (key_node, value_node) in enumerate(node.value):
        key = loader.construct_object(key_node, deep=True)
        line = key_node.start_mark.line + 1
        if index >= merged:
            if key in own:
                loader.duplicate_keys.append((line, key))
            own.add(key)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = line
    return result


def _construct_sequence(loader: _MarkedLoader, node: yaml.SequenceNode) -> MarkedList:
    result = MarkedList(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


_MarkedLoader.add_constructor("tag:yaml.org,2002:map", _construct_mapping)
_MarkedLoader.add_constructor("tag:yaml.org,2002:seq", _construct_sequence)


class YamlSyntaxError(Exception):
    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


def load_marked(path: Path) -> tuple[Any, list[tuple[int, Any]]]:
    """Parse one file. Returns the data and a list of (line, key) duplicate keys.
    Results are remembered by the file's content (see pnp.sources.memo)."""
    return memo_file("yaml", path, lambda data: _parse(data.decode("utf-8")), _encode_result, _decode_result)


def load_reported(path: Path, problems: Problems) -> tuple[Any, bool]:
    """Parse one file, adding a syntax error or a key written twice to
    `problems` (naming the file and line). Returns the data and whether the
    file parsed (an empty file parses, as None)."""
    try:
        data, duplicates = load_marked(path)
    except YamlSyntaxError as exc:
        problems.add(path, exc.line, None, exc.message)
        return None, False
    for line, key in duplicates:
        problems.add(path, line, None, f"key {key!r} appears twice in one mapping")
    return data, True


def _encode(value: Any) -> Any:
    """Marked values -> JSON: {"m": line, "k": [[key, key line, value], ...]} and {"l": line, "i": [...]}."""
    if isinstance(value, MarkedDict):
        return {"m": value.line, "k": [[k, value.key_lines.get(k, value.line), _encode(v)] for k, v in value.items()]}
    if isinstance(value, MarkedList):
        return {"l": value.line, "n": value.item_lines, "i": [_encode(v) for v in value]}
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return {"s": str(value)}  # dates and other scalars YAML may produce: kept as text


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if "m" in value:
            out = MarkedDict()
            out.line, out.key_lines = value["m"], {}
            for k, line, v in value["k"]:
                out[k] = _decode(v)
                out.key_lines[k] = line
            return out
        if "l" in value:
            out = MarkedList(_decode(v) for v in value["i"])
            out.line, out.item_lines = value["l"], value["n"]
            return out
        return value["s"]
    return value


def _encode_result(result):
    data, duplicates = result
    if any(not isinstance(k, str) for _, k in duplicates) or not _json_safe(data):
        raise _NotCacheable
    return [_encode(data), duplicates]


def _decode_result(stored):
    return _decode(stored[0]), [tuple(d) for d in stored[1]]


class _NotCacheable(TypeError):
    pass


def _json_safe(value: Any) -> bool:
    """Only string keys survive JSON; anything else is simply not cached."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_safe(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_json_safe(v) for v in value)
    return isinstance(value, (str, int, float, bool)) or value is None


def _parse(text: str) -> tuple[Any, list[tuple[int, Any]]]:
    loader = _MarkedLoader(text)
    loader.duplicate_keys = []
    try:
        node = loader.get_single_node()
        if node is not None and _ANCHOR.search(text):  # no anchor, no alias: nothing can expand
            check_expansion(node)
        data = loader.construct_document(node) if node is not None else None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        problem = exc.problem or str(exc)
        hint = ""
        if "mapping values are not allowed" in problem:
            hint = ("; a value that holds a colon and a space must be in quotes: "
                    "text: \"Note: this\"")
        elif "found character '\\t'" in problem:
            hint = "; indent with spaces, not tabs"
        raise YamlSyntaxError(line, f"YAML syntax error: {problem}{hint}") from None
    except yaml.YAMLError as exc:
        raise YamlSyntaxError(0, f"YAML error: {exc}") from None
    finally:
        loader.dispose()
    return data, loader.duplicate_keys


_ANCHOR = re.compile(r"(?:^|[\s\[{,])&[^\s]")  # an anchor (`&name` after a space, `[`, `{` or `,`)
MAX_EXPANSION = 1_000_000  # values aliases may add beyond what is written: far more than any card file


def check_expansion(root: yaml.Node) -> None:
    """Refuse a document whose aliases (`&a` ... `*a`) expand to far more
    values than it writes (a "billion laughs" bomb), or refer to themselves,
    before anything is built from it: both would otherwise hang or exhaust
    whatever walks the data. Counts each node once (memoised), so it costs
    as much as the document's own size."""
    size: dict[int, int] = {}
    written = 0
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]
    open_nodes: set[int] = set()
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            open_nodes.discard(key)
            total = 1 + sum(size[id(c)] for c in _children(node))
            size[key] = total
            if total > written + MAX_EXPANSION:
                raise YamlSyntaxError(node.start_mark.line + 1,
                                      f"YAML aliases here expand to more than {MAX_EXPANSION:,} values "
                                      "(an alias bomb?); write the values out, or use fewer nested aliases")
            continue
        if key in size:
            continue
        if key in open_nodes:
            raise YamlSyntaxError(node.start_mark.line + 1, "a YAML alias refers to the value it is in; "
                                                            "a card file cannot hold itself")
        written += 1
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in _children(node) if id(c) not in size)


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


def safe_scalar_yaml(text: str) -> Any:
    """`yaml.safe_load` of a small piece of inline YAML (a spreadsheet cell),
    with the same guard against alias bombs. Raises yaml.YAMLError or YamlSyntaxError."""
    loader = _Base(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        check_expansion(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def plain(value: Any) -> Any:
    """The same data without the line-number bookkeeping: dicts and lists."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value
