"""Line charts laid out here and drawn as inline SVG: a match's cumulative score, game by game,
and a player's rating, result by result.

Pure arithmetic on the figures: the template (scoring/pages/_chart.html) only writes the
coordinates out. Each line has a colour from the Okabe-Ito palette (told apart by most
colour-blind readers), a marker shape and a dash pattern of its own, so a line is known by
shape and dash as well as by colour; the legend repeats all three.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

WIDTH, HEIGHT = 480, 270
LEFT, RIGHT, TOP, BOTTOM = 80, 12, 14, 50
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#000000", "#56B4E9")
MARKERS = ("circle", "square", "triangle", "diamond", "cross", "star", "bar")
DASHES = ("", "8 4", "2 4", "12 4 2 4", "4 4", "1 3", "10 2")
MARKER_SIZE = 7
# A longer line is drawn without a marker per point: they would touch, and hide the line.
MOST_MARKERS = 60
# A rating chart's height shows at least this many points, so a wobble of a few points after a
# draw does not fill the chart as if it were a collapse.
RATING_SPAN = 100


@dataclass(frozen=True)
class Words:
    """What a chart says of itself: its title (also its ``<title>``), its description for a
    screen reader, its axes' titles, and each point's ``<title>`` (``point(line, x, value)``)."""

    id: str
    title: str
    desc: str
    x_title: str
    y_title: str
    point: Callable[[int, int, float], str]
    legend: bool = True


def cumulative_chart(names: list[str], games: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A match's chart: each seat's cumulative score after each game (``games[i]["cumulative"]``),
    zero always on the scale."""
    if not games:
        return None
    series = [[game["cumulative"][seat] for game in games] for seat in range(len(names))]
    low, high = _range([value for line in series for value in line])
    desc = " ".join(
        f"{name}: {', '.join(map(str, line))}." for name, line in zip(names, series, strict=True)
    )
    words = Words(
        id="chart",
        title="Cumulative score after each game",
        desc=desc,
        x_title="Game",
        y_title="Cumulative score",
        point=lambda seat, game, value: f"{names[seat]}, game {game}: {value}",
    )
    numbers = [game["number"] for game in games]
    return line_chart(names, series, numbers, low, high, words)


def rating_chart(
    key: str, ratings: Sequence[int], first: int, labels: Sequence[str], desc: str
) -> dict[str, Any] | None:
    """A player's rating after each result (``ratings``, oldest first, each point's title in
    ``labels``; ``first`` the number of the first result shown). The scale fits the ratings,
    not zero; ``key`` tells this chart's ids from the page's other charts."""
    if not ratings:
        return None
    low, high = min(ratings), max(ratings)
    if high - low < RATING_SPAN:
        middle = (low + high) // 2
        low, high = middle - RATING_SPAN // 2, middle + RATING_SPAN // 2
    words = Words(
        id=f"rating-{key}",
        title="Rating after each result",
        desc=desc,
        x_title="Result",
        y_title="Rating",
        point=lambda _line, number, _value: labels[number - first],
        legend=False,
    )
    numbers = list(range(first, first + len(ratings)))
    return line_chart(["Rating"], [list(ratings)], numbers, low, high, words)


def line_chart(
    names: list[str],
    series: Sequence[Sequence[float]],
    numbers: list[int],
    low: int,
    high: int,
    words: Words,
) -> dict[str, Any]:
    """The chart's geometry: axes with ticks and, per line, its points, path and style;
    ``numbers`` label the x axis (a few of them, when there are many), ``low``..``high`` is at
    least the y axis's range (widened to round ticks)."""
    y_ticks = _ticks(low, high)
    low, high = min(low, y_ticks[0]), max(high, y_ticks[-1])
    x_of = _scale(0.5, len(numbers) + 0.5, LEFT, WIDTH - RIGHT)
    y_of = _scale(low, high, HEIGHT - BOTTOM, TOP)
    lines = [
        _line(seat, name, series[seat], numbers, x_of, y_of, words)
        for seat, name in enumerate(names)
    ]
    every = _label_step(len(numbers))
    return {
        "id": words.id,
        "title": words.title,
        "desc": words.desc,
        "legend": words.legend,
        "width": WIDTH,
        "height": HEIGHT,
        "plot": {"left": LEFT, "right": WIDTH - RIGHT, "top": TOP, "bottom": HEIGHT - BOTTOM},
        "x_ticks": [
            {"label": number, "x": x_of(i + 1)}
            for i, number in enumerate(numbers)
            if number % every == 0 or every == 1
        ],
        "y_ticks": [{"label": tick, "y": round(y_of(tick), 1)} for tick in y_ticks],
        "zero": y_of(0) if low < 0 < high else None,
        "x_title": {"x": (LEFT + WIDTH - RIGHT) / 2, "y": HEIGHT - 8, "text": words.x_title},
        "y_title": {"x": 14, "y": (TOP + HEIGHT - BOTTOM) / 2, "text": words.y_title},
        "lines": lines,
    }


def _line(
    seat: int,
    name: str,
    values: Sequence[float],
    numbers: list[int],
    x_of: Any,
    y_of: Any,
    words: Words,
) -> dict[str, Any]:
    points = [(round(x_of(i + 1), 1), round(y_of(v), 1), v) for i, v in enumerate(values)]
    marker = MARKERS[seat % len(MARKERS)]
    marked = len(points) <= MOST_MARKERS
    return {
        "seat": seat,
        "name": name,
        "colour": COLOURS[seat % len(COLOURS)],
        "dash": DASHES[seat % len(DASHES)],
        "marker": marker,
        "path": " ".join(f"{x},{y}" for x, y, _ in points),
        "points": [
            {
                "x": x,
                "y": y,
                "value": v,
                "game": number,
                "label": words.point(seat, number, v),
                "shape": marker_path(marker, x, y),
            }
            for number, (x, y, v) in zip(numbers, points, strict=True)
        ]
        if marked
        else [],
        "legend_shape": marker_path(marker, 0, 0),
    }


def _label_step(count: int, most: int = 10) -> int:
    """Label every point up to ``most``, else every 2nd, 5th, 10th, 20th ... one."""
    power = 1
    while True:
        for step in (power, 2 * power, 5 * power):
            if count <= most * step:
                return step
        power *= 10


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
