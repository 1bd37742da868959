"""The files of `ntt-cy polymul`: problems read as whitespace text, CSV or JSON, and
products written in the same formats.

Input (values: decimal integers of any sign and size; polymul reduces them mod m):
  text, CSV   with a header line (no --modulus):  "n m", then n coefficients of a and n
              of b; or "na nb m", then na of a and nb of b; over any number of lines.
              Without a header (--modulus M): a on the first non-empty line, b on the
              next.  CSV separates values by commas (rows for lines).
  JSON        {"modulus": m, "a": [...], "b": [...]} ("modulus" may come from
              --modulus instead), or [a, b] with --modulus.
The format is detected (a first "{" or "[": JSON; a comma in the first non-empty line:
CSV; else text) unless named.  Reading stops with an InputError past max_bytes, so an
endless input (/dev/zero, a line without end) ends in a one-line error, and every
malformed input raises InputError with one line naming the line at fault.

Output: the product's coefficients as one line of text or CSV, or the JSON object
{"modulus": m, "kind": kind, "product": [...]}.
"""
from __future__ import annotations

import json
import re
from typing import NamedTuple

import numpy as np

__all__ = ["FORMATS", "DEFAULT_MAX_BYTES", "InputError", "Problem", "read_problem",
           "format_product", "format_for_path", "parse_size"]

FORMATS = ("text", "csv", "json")
DEFAULT_MAX_BYTES = 256 << 20
CHUNK_BYTES = 1 << 20
MAX_VALUE_DIGITS = 1 << 20   # (a longer run of digits is an error, not a value)
DETECT_BYTES = 1 << 16       # the format is told from the first line, or this much of it
SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
EXTENSIONS = {".txt": "text", ".csv": "csv", ".json": "json"}

# Bytes allowed in text and CSV input: ASCII digits, signs, whitespace (and commas).
_NOT_TEXT = re.compile(rb"[^0-9+\-\s]")
_NOT_CSV = re.compile(rb"[^0-9+\-\s,]")
_EMPTY_FIELD = re.compile(rb",[ \t\r\f\v]*(?:,|\n|$)|(?:^|\n)[ \t\r\f\v]*,")


class InputError(Exception):
    """Malformed input: the message is one line, naming the line at fault."""


class Problem(NamedTuple):
    """A product to compute: the operands (int64 or object arrays), the modulus, and the
    format they were read in."""
    a: np.ndarray
    b: np.ndarray
    modulus: int
    format: str


def parse_size(text: str) -> int:
    """A byte count: an integer with an optional K, M or G (powers of 1024)."""
    match = re.fullmatch(r"\s*(\d+)\s*([KMG]?)i?B?\s*", text, re.I)
    if not match:
        raise ValueError(f"invalid size {text!r} (an integer, optionally with K, M or G)")
    return int(match.group(1)) * SIZE_UNITS[match.group(2).upper()]


def format_for_path(path: str) -> str | None:
    """The format a file's extension names (.txt, .csv, .json), or None."""
    for ext, fmt in EXTENSIONS.items():
        if path.lower().endswith(ext):
            return fmt
    return None


# ---------------------------------------------------------------- reading

def _chunks(stream, max_bytes: int):
    """The stream's bytes in chunks (text streams encoded as UTF-8), InputError once more
    than max_bytes have come."""
    total = 0
    while True:
        chunk = stream.read(min(CHUNK_BYTES, max_bytes + 1 - total))
        if not chunk:
            return
        if isinstance(chunk, str):
            chunk = chunk.encode("utf-8", "surrogateescape")
        total += len(chunk)
        if total > max_bytes:
            raise InputError(f"input is larger than --max-bytes = {max_bytes} bytes "
                             f"(pass a larger --max-bytes to read it)")
        yield chunk


def read_problem(stream, fmt: str = "auto", modulus: int | None = None,
                 max_bytes: int = DEFAULT_MAX_BYTES) -> Problem:
    """The problem in `stream` (a binary or text file object): fmt "auto" or one of
    FORMATS; modulus: --modulus (None: the input names it)."""
    chunks = _chunks(stream, max_bytes)
    first = b""
    for chunk in chunks:   # enough to see the format: the first line (or its start)
        first += chunk
        if b"\n" in first.lstrip() or len(first) >= DETECT_BYTES:
            break
    if fmt == "auto":
        fmt = _detect(first)
    if fmt == "json":
        data = first + b"".join(chunks)
        return _read_json(data, modulus)
    reader = _TextReader(fmt == "csv", modulus)
    reader.feed(first, final=False)
    for chunk in chunks:
        reader.feed(chunk, final=False)
    reader.feed(b"", final=True)
    return reader.problem()


def _detect(start: bytes) -> str:
    stripped = start.lstrip()
    if stripped[:1] in (b"{", b"["):
        return "json"
    first_line = stripped.split(b"\n", 1)[0]
    return "csv" if b"," in first_line else "text"


def _digits_value(token: bytes) -> int | None:
    """int(token) for a signed decimal token, or None when it has more significant
    digits than Python's int() converts (sys.get_int_max_str_digits, 4300 by default)."""
    sign = token[:1] if token[:1] in (b"+", b"-") else b""
    digits = token[len(sign):].lstrip(b"0") or b"0"
    try:
        value = int(digits)
    except ValueError:
        return None
    return -value if sign == b"-" else value


_TOKEN = re.compile(rb"[^\s,]+")
_WORD = re.compile(rb"\S+")


def _checked_int(token: bytes, line, what: str) -> int:
    """The integer a token of digits with an optional sign spells; InputError naming
    `what` and its line for anything else.  line: the line, or a function that finds
    it (called for the error only)."""
    sign = token[:1] if token[:1] in (b"+", b"-") else b""
    if not token[len(sign):].isdigit():
        raise InputError(f"line {line if type(line) is int else line()}: {what} "
                         f"{token[:40].decode('ascii', 'replace')!r} is not an integer")
    value = _digits_value(token)
    if value is None:
        raise InputError(f"line {line if type(line) is int else line()}: {what} of "
                         f"{len(token) - len(sign)} digits, more than Python converts")
    return value


class _TextReader:
    """Text or CSV, fed chunk by chunk: the header line (or, with a modulus given, the
    two lines a and b) line by line, then the values after a header in blocks,
    converted as they come."""

    def __init__(self, csv: bool, modulus: int | None):
        self.csv = csv
        self.not_allowed = _NOT_CSV if csv else _NOT_TEXT
        self.modulus = modulus
        self.line = 1           # the line the unprocessed input starts on
        self.carry = b""        # a token cut by the end of a chunk
        self.header = None      # the header's tokens while its line is read
        self.header_line = 0
        self.lengths = None     # (na, nb) once the header is read
        self.modulus_read = None
        self.parts = [[], []]   # the operands' converted values, in pieces
        self.counts = [0, 0]
        self.operand = 0        # without a header: the operand the current line feeds
        self.last_line = 0      # the last line that held a value
        self.line_started = False

    # -- input
    def feed(self, chunk: bytes, final: bool) -> None:
        data = self.carry + chunk
        bad = self.not_allowed.search(data)
        if bad:
            self._refuse(data, bad.start())
        if self.csv:
            empty = _EMPTY_FIELD.search(data)
            if empty and (final or empty.end() < len(data)):
                comma = data.index(b",", empty.start())
                raise InputError(f"line {self._line_at(data, comma)}: an empty CSV field")
        if final:
            cut = len(data)
        else:   # keep a token the chunk may have cut for the next one
            cut = max(data.rfind(sep) for sep in (b" ", b"\t", b"\n", b"\r", b",")) + 1
        self.carry, data = data[cut:], data[:cut]
        if len(self.carry) > MAX_VALUE_DIGITS:
            raise InputError(f"line {self._line_at(data, len(data))}: a value of more than "
                             f"{MAX_VALUE_DIGITS} digits")
        pos = 0
        while pos < len(data):
            if self.modulus is None and self.lengths is not None:
                self._values(data[pos:])   # (after the header: lines no longer matter)
                return
            newline = data.find(b"\n", pos)
            end = len(data) if newline < 0 else newline
            self._line_piece(data[pos:end], ends_line=newline >= 0)
            pos = end + 1

    def _refuse(self, data: bytes, pos: int) -> None:
        separators = (b" ", b"\t", b"\n", b"\r") + ((b",",) if self.csv else ())
        start = max(data.rfind(sep, 0, pos) for sep in separators) + 1
        match = (_TOKEN if self.csv else _WORD).match(data, start)
        token = (match.group() if match else data[pos:pos + 1])[:40]
        line = self._line_at(data, pos)
        byte = data[pos]
        if byte >= 0x80 or (byte < 0x20 and byte not in b"\t\n\r\f\v"):
            raise InputError(f"line {line}: byte 0x{byte:02x}: not a text file of integers")
        raise InputError(f"line {line}: {token.decode('ascii', 'replace')!r} is not an integer")

    def _line_at(self, data: bytes, pos: int) -> int:
        return self.line + data.count(b"\n", 0, pos)

    def _line_piece(self, piece: bytes, ends_line: bool) -> None:
        """Part of one line, up to its end when ends_line: the header's or, without a
        header, a's or b's."""
        tokens = _TOKEN.findall(piece)
        if self.modulus is None:
            self._header_tokens(tokens, ends_line)
        else:
            self._line_values(piece, tokens, ends_line)
        if ends_line:
            self.line += 1
            self.line_started = False

    # -- the header: "n m" or "na nb m"
    def _header_tokens(self, tokens: list, ends_line: bool) -> None:
        if tokens:
            if self.header is None:
                self.header, self.header_line = [], self.line
            self.header += tokens
            if len(self.header) > 3:
                raise InputError(self._header_message(len(self.header)))
        if ends_line and self.header is not None:
            self._read_header()

    def _header_message(self, fields: int) -> str:
        return (f"line {self.header_line}: expected the header 'n m' or 'na nb m' "
                f"(integers), got {fields} field(s); input without a header needs "
                f"--modulus M")

    def _read_header(self) -> None:
        tokens = self.header
        if len(tokens) not in (2, 3):
            raise InputError(self._header_message(len(tokens)))
        names = ("n", "m") if len(tokens) == 2 else ("na", "nb", "m")
        values = []
        for token, name in zip(tokens, names):
            value = _checked_int(token, self.header_line, f"header {name}")
            if value < 1:
                raise InputError(f"line {self.header_line}: header {name} must be >= 1, "
                                 f"got {value}")
            values.append(value)
        *lengths, self.modulus_read = values
        self.lengths = (lengths[0], lengths[0]) if len(lengths) == 1 else tuple(lengths)
        self.last_line = self.header_line

    # -- values after a header
    def _values(self, block: bytes) -> None:
        tokens = _TOKEN.findall(block)
        if tokens:
            na, nb = self.lengths
            have = self.counts[0] + self.counts[1]
            if have + len(tokens) > na + nb:
                raise InputError(f"line {self._token_line(block, na + nb - have)}: more "
                                 f"than {self._expected()} coefficients")
            values = self._convert(block, tokens)
            take_a = max(0, min(na - have, len(values)))
            if take_a:
                self._append(0, values[:take_a])
            if take_a < len(values):
                self._append(1, values[take_a:])
            self.last_line = self._token_line(block, len(tokens) - 1)
        self.line += block.count(b"\n")

    def _expected(self) -> str:
        na, nb = self.lengths
        return (f"2n = {na + nb} (n = {na} for a, then n for b)" if na == nb
                else f"na + nb = {na + nb} ({na} for a, then {nb} for b)")

    # -- without a header: a on one line, b on the next
    def _line_values(self, piece: bytes, tokens: list, ends_line: bool) -> None:
        if tokens:
            if not self.line_started:
                if self.operand >= 2:
                    raise InputError(f"line {self.line}: a third line of values; with "
                                     f"--modulus the input holds a on one line and b on "
                                     f"the next")
                self.line_started = True
            self._append(self.operand, self._convert(piece, tokens))
            self.last_line = self.line
        if ends_line and self.line_started:
            self.operand += 1

    # -- conversion
    def _convert(self, block: bytes, tokens: list) -> np.ndarray:
        """The tokens (of `block`, which starts on self.line) as int64, or as Python ints
        where some lie beyond int64; InputError naming the line of a malformed one."""
        try:
            return np.array(list(map(int, tokens)), dtype=np.int64)
        except (ValueError, OverflowError):
            pass
        values = [_checked_int(token, lambda k=k: self._token_line(block, k), "a coefficient")
                  for k, token in enumerate(tokens)]
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out

    def _token_line(self, block: bytes, index: int) -> int:
        """The line of the index-th token of block (error messages only: a pass over it)."""
        for k, match in enumerate(_TOKEN.finditer(block)):
            if k == index:
                return self._line_at(block, match.start())
        return self.line + block.count(b"\n")

    def _append(self, which: int, values: np.ndarray) -> None:
        if values.dtype == object:   # (a block with some value beyond int64)
            try:
                values = values.astype(np.int64)
            except OverflowError:
                pass
        self.parts[which].append(values)
        self.counts[which] += len(values)

    # -- the end
    def problem(self) -> Problem:
        if self.modulus is None:
            if self.lengths is None:
                if self.header is None:
                    raise InputError("input is empty: expected a header 'n m' or 'na nb m' "
                                     "(or pass --modulus M and give a and b on two lines)")
                self._read_header()
            have = self.counts[0] + self.counts[1]
            if have < sum(self.lengths):
                raise InputError(f"line {self.last_line}: input ends after {have} "
                                 f"coefficients, expected {self._expected()}")
            modulus = self.modulus_read
        else:
            if self.counts[1] == 0:
                found = "nothing" if self.counts[0] == 0 else "a alone"
                raise InputError(f"line {self.last_line or 1}: input holds {found}; with "
                                 f"--modulus it holds a on one line and b on the next")
            modulus = self.modulus
        a, b = (_joined(parts) for parts in self.parts)
        return Problem(a, b, modulus, "csv" if self.csv else "text")


def _joined(parts: list) -> np.ndarray:
    if any(part.dtype == object for part in parts):
        return np.concatenate([part.astype(object) for part in parts])
    return np.concatenate(parts) if len(parts) > 1 else parts[0]


def _reject_float(text: str):
    raise InputError(f"{text!r} is not an integer")


def _read_json(data: bytes, modulus: int | None) -> Problem:
    try:
        doc = json.loads(data, parse_float=_reject_float, parse_constant=_reject_float)
    except InputError as exc:
        raise InputError(f"JSON: {exc}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not a text file ({exc.reason} at byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"line {exc.lineno} column {exc.colno}: not JSON: {exc.msg}") from None
    except ValueError as exc:   # (an integer of more digits than Python converts)
        raise InputError(f"JSON: {str(exc).splitlines()[0]}") from None
    if isinstance(doc, dict):
        unknown = sorted(set(doc) - {"modulus", "a", "b"})
        if unknown:
            raise InputError(f"JSON: unknown key {unknown[0]!r} (expected 'modulus', 'a', 'b')")
        if "a" not in doc or "b" not in doc:
            raise InputError("JSON: the object needs keys 'a' and 'b' (and 'modulus', or "
                             "--modulus)")
        a, b = doc["a"], doc["b"]
        named = doc.get("modulus")
        if named is not None:
            if not _is_int(named) or named < 1:
                raise InputError(f"JSON: 'modulus' must be an integer >= 1, got {named!r}"[:120])
            if modulus is not None and modulus != named:
                raise InputError(f"JSON: 'modulus' = {named} differs from --modulus {modulus}")
            modulus = named
    elif isinstance(doc, list):
        if len(doc) != 2:
            raise InputError(f"JSON: a list must hold two lists, a and b; got {len(doc)} items")
        a, b = doc
    else:
        raise InputError("JSON: expected an object {\"modulus\": m, \"a\": [...], \"b\": [...]} "
                         "or a list [a, b]")
    if modulus is None:
        raise InputError("JSON: no modulus: give 'modulus' in the object, or --modulus M")
    return Problem(_json_values(a, "a"), _json_values(b, "b"), modulus, "json")


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _json_values(values, name: str) -> np.ndarray:
    if not isinstance(values, list) or not values:
        raise InputError(f"JSON: {name} must be a non-empty list of integers")
    for i, v in enumerate(values):
        if not _is_int(v):
            raise InputError(f"JSON: {name}[{i}] = {json.dumps(v)[:40]} is not an integer")
    try:
        return np.array(values, dtype=np.int64)
    except OverflowError:
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out


# ---------------------------------------------------------------- writing

def format_product(values: list, fmt: str, modulus: int, kind: str) -> str:
    """The product's coefficients (Python ints) as the text of an output file."""
    if fmt == "json":
        return json.dumps({"modulus": modulus, "kind": kind, "product": values}) + "\n"
    return ("," if fmt == "csv" else " ").join(map(str, values)) + "\n"
