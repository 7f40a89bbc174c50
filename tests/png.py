"""Read the pixels of a PNG file (8-bit, not interlaced: what browsers write for screenshots)."""

from __future__ import annotations

import struct
import zlib
from collections import Counter
from dataclasses import dataclass

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {0: 1, 2: 3, 4: 2, 6: 4}  # colour type -> samples per pixel: grey, RGB, grey+alpha, RGBA


@dataclass(frozen=True)
class Image:
    width: int
    height: int
    channels: int
    pixels: bytes  # rows top to bottom, `channels` bytes per pixel

    def colours(self) -> Counter[tuple[int, ...]]:
        """How many pixels have each colour."""
        samples = iter(self.pixels)
        return Counter(zip(*[samples] * self.channels, strict=False))


def _paeth(left: int, up: int, up_left: int) -> int:
    guess = left + up - up_left
    to_left, to_up, to_up_left = abs(guess - left), abs(guess - up), abs(guess - up_left)
    if to_left <= to_up and to_left <= to_up_left:
        return left
    return up if to_up <= to_up_left else up_left


def read_png(data: bytes) -> Image:
    """Decode `data`; ValueError for what this reader does not handle."""
    if not data.startswith(_SIGNATURE):
        raise ValueError("not a PNG file")
    header, compressed = _chunks(data)
    if header is None:
        raise ValueError("no IHDR chunk")
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in _CHANNELS or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour_type}, interlace {interlace}")
    channels = _CHANNELS[colour_type]
    raw = zlib.decompress(compressed)
    stride = width * channels
    if len(raw) < height * (stride + 1):
        raise ValueError(f"{len(raw)} bytes of image data, not the {height * (stride + 1)} of {height} rows")
    out = bytearray()
    previous = bytearray(stride)
    for row in range(height):
        start = row * (stride + 1)
        line = _unfilter(raw[start], bytearray(raw[start + 1 : start + 1 + stride]), previous, channels, row)
        out += line
        previous = line
    return Image(width, height, channels, bytes(out))


def _chunks(data: bytes) -> tuple[tuple[int, ...] | None, bytes]:
    """The IHDR fields (None if there is none) and the image data of the chunks after the signature."""
    pos, compressed, header = len(_SIGNATURE), [], None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        pos += 12 + length  # length, type, body, CRC
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            compressed.append(body)
        elif kind == b"IEND":
            break
    return header, b"".join(compressed)


def _unfilter(kind: int, line: bytearray, previous: bytearray, channels: int, row: int) -> bytearray:
    """One row's bytes with its filter (`kind`) undone, given the row above (unfiltered, as long)."""
    stride = len(line)
    if kind == 1:  # Sub
        for x in range(channels, stride):
            line[x] = (line[x] + line[x - channels]) & 0xFF
    elif kind == 2:  # Up
        line = bytearray((a + b) & 0xFF for a, b in zip(line, previous, strict=True))
    elif kind == 3:  # Average
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            line[x] = (line[x] + ((left + previous[x]) >> 1)) & 0xFF
    elif kind == 4:  # Paeth
        for x in range(stride):
            left = line[x - channels] if x >= channels else 0
            up_left = previous[x - channels] if x >= channels else 0
            line[x] = (line[x] + _paeth(left, previous[x], up_left)) & 0xFF
    elif kind != 0:
        raise ValueError(f"unknown filter type {kind} in row {row}")
    return line
