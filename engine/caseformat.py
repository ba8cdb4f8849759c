"""The record syntax of a case file (docs/case-format.md), parsed strictly.

A record starts at column 0 (`kind: arg | arg`), its fields are indented two spaces (`name: value`),
and a continuation line (four or more spaces) extends the field above it. Every error names the file
and the line, so an author can fix a case in a plain editor.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

END_OF_FILE = "END OF FILE"


class CaseFormatError(ValueError):
    """A case file breaks the record syntax or its schema."""

    def __init__(self, file: str, line: int, message: str) -> None:
        super().__init__(f"{file}:{line}: {message}")
        self.file = file
        self.line = line
        self.message = message


@dataclass(frozen=True)
class RecordSchema:
    """What one kind of record may carry."""

    min_args: int
    max_args: int
    required: frozenset[str] = frozenset()
    optional: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Field:
    name: str
    value: str
    line: int


@dataclass
class Record:
    kind: str
    args: tuple[str, ...]
    file: str
    line: int
    fields: dict[str, Field] = field(default_factory=dict)

    def error(self, message: str, line: int | None = None) -> CaseFormatError:
        return CaseFormatError(self.file, self.line if line is None else line, message)

    def get(self, name: str) -> Field | None:
        return self.fields.get(name)

    def value(self, name: str) -> str:
        """A required field's value (the schema has already checked it is there)."""
        return self.fields[name].value

    def quoted(self, name: str) -> str:
        """A field of spoken words: the text between its double quotes."""
        found = self.fields[name]
        return unquote(found, self.file)

    def optional_quoted(self, name: str) -> str | None:
        return self.quoted(name) if name in self.fields else None

    def listed(self, name: str) -> tuple[str, ...]:
        """A `;`-separated list field; empty items are errors."""
        if name not in self.fields:
            return ()
        found = self.fields[name]
        items = tuple(item.strip() for item in found.value.replace("\n", ";").split(";"))
        if any(not item for item in items):
            raise CaseFormatError(self.file, found.line, f"empty item in the list '{name}'")
        return items


def unquote(found: Field, file: str) -> str:
    text = found.value.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise CaseFormatError(file, found.line, f"'{found.name}' must be spoken words inside double quotes")
    inner = text[1:-1]
    if not inner.strip():
        raise CaseFormatError(file, found.line, f"'{found.name}' has no words inside its quotes")
    return inner


def parse_records(
    text: str,
    file: str,
    schemas: Mapping[str, RecordSchema],
    *,
    require_end: bool = False,
) -> list[Record]:
    """Parse `text` into records, checking each against `schemas`.

    With `require_end`, the last non-blank line must be END OF FILE and nothing may follow it.
    """
    records: list[Record] = []
    current: Record | None = None
    last_field: Field | None = None
    ended_at: int | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if ended_at is not None:
            if line.strip():
                raise CaseFormatError(file, number, f"nothing may follow {END_OF_FILE} (line {ended_at})")
            continue
        if not line.strip() or line.startswith("#"):
            continue
        if "\t" in line[: len(line) - len(line.lstrip())]:
            raise CaseFormatError(file, number, "indent with spaces, not tabs")
        if require_end and line.strip() == END_OF_FILE and not line.startswith(" "):
            ended_at = number
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent == 0:
            if current is not None:
                _check_record(current, schemas)
            kind, sep, rest = line.partition(":")
            kind = kind.strip()
            if not sep or not kind or " " in kind:
                raise CaseFormatError(file, number, f"expected 'kind: arguments', got {line.strip()!r}")
            if kind not in schemas:
                known = ", ".join(sorted(schemas))
                raise CaseFormatError(file, number, f"unknown record kind {kind!r} (known: {known})")
            args = tuple(arg.strip() for arg in rest.split("|")) if rest.strip() else ()
            if any(not arg for arg in args):
                raise CaseFormatError(file, number, "empty argument between '|' separators")
            current = Record(kind, args, file, number)
            records.append(current)
            last_field = None
        elif indent == 2:
            if line.lstrip().startswith("#"):
                raise CaseFormatError(file, number, "an indented '#' line: comments start at column 0")
            if current is None:
                raise CaseFormatError(file, number, "a field outside any record")
            name, sep, value = line.strip().partition(":")
            name = name.strip()
            if not sep or not name or " " in name:
                raise CaseFormatError(file, number, f"expected 'field: value', got {line.strip()!r}")
            schema = schemas[current.kind]
            if name not in schema.required and name not in schema.optional:
                allowed = ", ".join(sorted(schema.required | schema.optional))
                raise CaseFormatError(file, number, f"'{current.kind}' has no field {name!r} (allowed: {allowed})")
            if name in current.fields:
                raise CaseFormatError(file, number, f"field {name!r} given twice")
            last_field = Field(name, value.strip(), number)
            current.fields[name] = last_field
        elif indent >= 4:
            if current is None or last_field is None:
                raise CaseFormatError(file, number, "a continuation line with no field above it")
            joined = f"{last_field.value}\n{line.strip()}" if last_field.value else line.strip()
            last_field = Field(last_field.name, joined, last_field.line)
            current.fields[last_field.name] = last_field
        else:
            raise CaseFormatError(file, number, f"bad indent of {indent} spaces (use 0, 2, or 4+)")
    if current is not None:
        _check_record(current, schemas)
    if require_end and ended_at is None:
        lines = text.split("\n")
        raise CaseFormatError(file, len(lines), f"the last line must be {END_OF_FILE}")
    return records


def _check_record(record: Record, schemas: Mapping[str, RecordSchema]) -> None:
    schema = schemas[record.kind]
    if not schema.min_args <= len(record.args) <= schema.max_args:
        want = str(schema.min_args) if schema.min_args == schema.max_args else f"{schema.min_args} to {schema.max_args}"
        raise record.error(f"'{record.kind}' takes {want} argument(s), got {len(record.args)}")
    for name in sorted(schema.required):
        if name not in record.fields:
            raise record.error(f"'{record.kind}' is missing its field {name!r}")
        if not record.fields[name].value.strip():
            raise record.error(f"field {name!r} is empty", record.fields[name].line)
