"""The one check of text at the edges of the site: what no field has a use for is refused.

Refused in every string that arrives (URL, query string, form, JSON body and its keys, socket
message, and again by the writers that store names and chat):

- invalid Unicode: a lone surrogate (``"\\ud800"``, which JSON's escapes can spell) cannot be
  encoded as UTF-8, so the database driver refuses it and a write fails with a 500;
- NUL, which PostgreSQL cannot store in a text column;
- the other control characters (C0, DEL, C1), which no name, chat line, token or key uses.
  Tab, newline and carriage return pass the edge (a textarea sends them); single-line fields
  (names) refuse them too, chat keeps them.

Each refusal is a 400 ``invalid_input`` naming the field (tables.api_errors, the middleware,
the socket's error frame). JSON is also refused before it is parsed when it nests deeper than
MAX_JSON_DEPTH (json.loads recurses once per level: deep enough, it raises RecursionError).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.http import HttpRequest

from tables.core.errors import BadRequest

NUL = "\x00"
MAX_JSON_DEPTH = 32  # far deeper than any message or body the site takes (at most 4 levels)

_REFUSED = r"\ud800-\udfff\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"  # surrogates; controls but \t \n \r
_REFUSED_ANYWHERE = re.compile(f"[{_REFUSED}]")
_REFUSED_IN_ONE_LINE = re.compile(f"[{_REFUSED}\t\n\r]")
_JSON_SYNTAX = re.compile(r'[\[\]{}"\\]')


class InvalidText(BadRequest):
    """A string holding something no field accepts (tables.core.text_input)."""

    code = "invalid_input"


def text_problem(value: str, *, one_line: bool = False) -> str | None:
    """What is wrong with ``value`` as the end of a sentence ("must not ..."), or None."""
    found = (_REFUSED_IN_ONE_LINE if one_line else _REFUSED_ANYWHERE).search(value)
    if found is None:
        return None
    character = found.group()
    if character == NUL:
        return "must not contain a NUL character"
    if "\ud800" <= character <= "\udfff":
        return "must be valid Unicode (it holds a lone surrogate)"
    return f"must not contain control characters (U+{ord(character):04X})"


def clean_text(value: str, field: str, *, one_line: bool = False) -> str:
    """``value`` as it is, or InvalidText naming ``field``: the writers' check."""
    problem = text_problem(value, one_line=one_line)
    if problem is not None:
        raise InvalidText(f"{field}: {problem}", field=field)
    return value


def text_location(data: Any) -> tuple[tuple[str, ...], str] | None:
    """Where in a decoded JSON value (or plain string) the first refused string or key sits, and
    what is wrong with it; None when every string is acceptable. Keys are single-line."""
    pending: list[tuple[tuple[str, ...], Any]] = [((), data)]
    while pending:  # depth-first, in document order, without recursion
        path, value = pending.pop()
        if isinstance(value, str):
            problem = text_problem(value)
            if problem is not None:
                return path, problem
        elif isinstance(value, dict):
            children: list[tuple[tuple[str, ...], Any]] = []
            for key, item in value.items():
                problem = text_problem(str(key), one_line=True)
                if problem is not None:
                    return (*path, _printable(str(key))), problem
                children.append(((*path, str(key)), item))
            pending.extend(reversed(children))
        elif isinstance(value, list):
            pending.extend(reversed([((*path, str(index)), item) for index, item in enumerate(value)]))
    return None


def json_too_deep(raw: str | bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether raw JSON nests arrays and objects more than ``limit`` deep, counted on the text
    (brackets inside strings ignored) before anything parses it. One pass over its brackets,
    quotes and backslashes; malformed text is left for the parser to refuse."""
    text = raw.decode("latin-1") if isinstance(raw, bytes) else raw  # UTF-8 keeps ASCII as is
    if text.count("[") + text.count("{") <= limit:
        return False  # every message the site expects: no scan
    depth, in_string, escaped_at = 0, False, -1
    for found in _JSON_SYNTAX.finditer(text):
        at, character = found.start(), found.group()
        if at == escaped_at:
            continue
        if in_string:
            if character == "\\":
                escaped_at = at + 1
            elif character == '"':
                in_string = False
        elif character == '"':
            in_string = True
        elif character in "[{":
            depth += 1
            if depth > limit:
                return True
        elif depth > 0:  # "]" or "}"; one too many earns no credit for later brackets
            depth -= 1
    return False


def request_text_problem(request: HttpRequest) -> tuple[str, str] | None:
    """The first URL, query or form field holding refused text, and what is wrong; or None."""
    problem = text_problem(request.path, one_line=True)
    if problem is not None:
        return "path", problem
    sources = [request.GET, request.POST] if _is_form(request) else [request.GET]
    for source in sources:
        for key, values in source.lists():
            problem = text_problem(key, one_line=True) or _first_problem(values)
            if problem is not None:
                return _printable(key), problem
    return None


def _first_problem(values: Iterable[str]) -> str | None:
    return next((problem for value in values if (problem := text_problem(value)) is not None), None)


def _printable(name: str) -> str:
    """A field's name fit to be sent back: without the characters refused in it."""
    return _REFUSED_IN_ONE_LINE.sub("", name)


def _is_form(request: HttpRequest) -> bool:
    content_type: str = request.META.get("CONTENT_TYPE", "")
    return request.method == "POST" and content_type.startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    )
