"""The cumulative-score chart of a match, game by game, laid out here and drawn as inline SVG.

Pure arithmetic on the sheet's rows (``games[i]["cumulative"]``): the template only writes the
coordinates out. Each seat has a colour from the Okabe-Ito palette (told apart by most
colour-blind readers), a marker shape and a dash pattern of its own, so a seat is known by
shape and line as well as by colour; the legend repeats all three.
"""

from __future__ import annotations

import math
from typing import Any

WIDTH, HEIGHT = 480, 270
LEFT, RIGHT, TOP, BOTTOM = 80, 12, 14, 50
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#000000", "#56B4E9")
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "star", "bar")
DASHES = ("", "8 4", "2 4", "12 4 2 4", "4 4", "1 3", "10 2")
MARKER_SIZE = 7


def cumulative_chart(names: list[str], games: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The chart's geometry: axes with ticks, and per seat its points, path and style."""
    if not games:
        return None
    series = [[game["cumulative"][seat] for game in games] for seat in range(len(names))]
    low, high = _range([value for line in series for value in line])
    y_ticks = _ticks(low, high)
    low, high = min(low, y_ticks[0]), max(high, y_ticks[-1])
    x_of = _scale(0.5, len(games) + 0.5, LEFT, WIDTH - RIGHT)
    y_of = _scale(low, high, HEIGHT - BOTTOM, TOP)
    lines = [_line(seat, name, series[seat], x_of, y_of) for seat, name in enumerate(names)]
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "plot": {"left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": HEIGHT - BOTTOM},
        "x_ticks": [{"label": g["number"], "x": x_of(i + 1)} for i, g in enumerate(games)],
        "y_ticks": [{"label": tick, "y": y_of(tick)} for tick in y_ticks],
        "zero": y_of(0) if low < 0 < high else None,
        "x_title": {"x": (LEFT + WIDTH - RIGHT) / 2, "y": HEIGHT - 8},
        "y_title": {"x": 14, "y": (TOP + HEIGHT - BOTTOM) / 2},
        "lines": lines,
    }


def _line(seat: int, name: str, values: list[int], x_of: Any, y_of: Any) -> dict[str, Any]:
    points = [(round(x_of(i + 1), 1), round(y_of(v), 1), v) for i, v in enumerate(values)]
    marker = MARKERS[seat % len(MARKERS)]
    return {
        "seat": seat,
        "name": name,
        "colour": COLOURS[seat % len(COLOURS)],
        "dash": DASHES[seat % len(DASHES)],
        "marker": marker,
        "path": " ".join(f"{x},{y}" for x, y, _ in points),
        "points": [
            {"x": x, "y": y, "value": v, "game": i + 1, "shape": marker_path(marker, x, y)}
            for i, (x, y, v) in enumerate(points)
        ],
        "legend_shape": marker_path(marker, 0, 0),
    }


def marker_path(marker: str, x: float, y: float, size: float = MARKER_SIZE) -> str:
    """An SVG path of the marker centred on (x, y): shapes that differ in outline, not colour."""
    s = size
    shapes = {
        "circle": f"M{x - s},{y}a{s},{s} 0 1,0 {2 * s},0a{s},{s} 0 1,0 {-2 * s},0Z",
        "square": f"M{x - s},{y - s}h{2 * s}v{2 * s}h{-2 * s}Z",
        "triangle": f"M{x},{y - s * 1.2}L{x + s * 1.1},{y + s * 0.9}L{x - s * 1.1},{y + s * 0.9}Z",
        "diamond": f"M{x},{y - s * 1.3}L{x + s},{y}L{x},{y + s * 1.3}L{x - s},{y}Z",
        "cross": (
            f"M{x - s},{y - s / 3}h{s * 2 / 3}v{-s * 2 / 3}h{s * 2 / 3}v{s * 2 / 3}h{s * 2 / 3}"
            f"v{s * 2 / 3}h{-s * 2 / 3}v{s * 2 / 3}h{-s * 2 / 3}v{-s * 2 / 3}h{-s * 2 / 3}Z"
        ),
        "star": _star(x, y, s * 1.3),
        "bar": f"M{x - s * 1.3},{y - s / 2}h{s * 2.6}v{s}h{-s * 2.6}Z",
    }
    return shapes[marker]


def _star(x: float, y: float, r: float) -> str:
    corners = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = math.pi / 5 * i - math.pi / 2
        corners.append(f"{x + radius * math.cos(angle):.1f},{y + radius * math.sin(angle):.1f}")
    return "M" + "L".join(corners) + "Z"


def _range(values: list[int]) -> tuple[int, int]:
    """Always show zero, and never a flat axis (a sheet of zeros still has a scale)."""
    low, high = min(0, *values), max(0, *values)
    return (low, high) if high > low else (low, low + 10)


def _ticks(low: int, high: int, wanted: int = 5) -> list[int]:
    """Round tick values (1, 2 or 5 times a power of ten) covering low..high."""
    raw = (high - low) / wanted
    power = 10 ** max(0, math.floor(math.log10(raw))) if raw >= 1 else 1
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    return list(range(first, last + step, step))


def _scale(low: float, high: float, start: float, end: float) -> Any:
    def position(value: float) -> float:
        return start + (value - low) * (end - start) / (high - low)

    return position
