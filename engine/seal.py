"""The sealed form of a reveal part: zlib-compressed, base64 lines.

Sealing only keeps the answer key from being read by accident when someone browses the installed
files; the real guarantee is the SHA-256 commitment in the notice, checked on the joined plain bytes.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import zlib

HEADER = "# Third Carol sealed reveal part. Not for reading: see docs/case-format.md."
_LINE = 76
MAX_PLAIN_PART = 1024 * 1024  # bytes; a reveal part is a few KB, so more than this is not a part


class SealError(ValueError):
    """A sealed part does not decode."""


def seal_part(plain: bytes) -> str:
    encoded = base64.b64encode(zlib.compress(plain, 9)).decode("ascii")
    lines = [encoded[i : i + _LINE] for i in range(0, len(encoded), _LINE)]
    return "\n".join([HEADER, *lines]) + "\n"


def unseal_part(sealed: bytes) -> bytes:
    try:
        text = sealed.decode("ascii")
    except UnicodeDecodeError as error:
        raise SealError(f"not ASCII at byte {error.start}") from None
    body = "".join(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))
    try:
        compressed = base64.b64decode(body, validate=True)
    except (binascii.Error, ValueError) as error:
        raise SealError(f"not valid base64 ({error})") from None
    # Decompressed a bounded amount at a time: a small part that unpacks to gigabytes is refused
    # before it fills memory.
    inflater = zlib.decompressobj()
    try:
        plain = inflater.decompress(compressed, MAX_PLAIN_PART + 1)
    except zlib.error as error:
        raise SealError(f"does not decompress ({error})") from None
    if len(plain) > MAX_PLAIN_PART:
        raise SealError(f"unseals to more than {MAX_PLAIN_PART} bytes")
    if not inflater.eof:
        raise SealError("does not decompress (it is cut short)")
    return plain


def split_reveal(plain: bytes, parts: int) -> list[bytes]:
    """Split the reveal into `parts` slices at line boundaries, as even as the lines allow."""
    if parts < 1:
        raise ValueError("a reveal has at least one part")
    lines = plain.splitlines(keepends=True)
    if parts > len(lines):
        raise ValueError(f"cannot split {len(lines)} lines into {parts} parts")
    target = len(plain) / parts
    slices: list[bytes] = []
    current = b""
    for index, line in enumerate(lines):
        current += line
        remaining_lines = len(lines) - index - 1
        remaining_parts = parts - len(slices) - 1
        if remaining_parts > 0 and (len(current) >= target or remaining_lines == remaining_parts):
            slices.append(current)
            current = b""
    slices.append(current)
    return slices


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
