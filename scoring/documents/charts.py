"""The score-progression chart of a score sheet: each seat's cumulative score, game by game.

Drawn here as plain SVG markup, so the HTML page and its PDF (WeasyPrint draws SVG as vectors)
show the same chart with no script and no asset from the internet. Each seat has its own colour
and dash pattern, so the lines stay apart on a black-and-white printout too.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 36  # margins for the axis labels
COLOURS = ("#1f5fa8", "#b8401f", "#2e7d32", "#7b3fa0", "#8a6d00", "#00838f")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")


@dataclass(frozen=True)
class Line:
    name: str
    points: tuple[int, ...]  # the cumulative score after each game; 0 before the first


def progression(names: list[str], cumulative: list[list[int]]) -> list[Line]:
    """One line per seat from the sheet's rows of cumulative scores (one row a game)."""
    return [Line(name, (0, *(row[seat] for row in cumulative))) for seat, name in enumerate(names)]


def svg(lines: list[Line], title: str = "Cumulative score, game by game") -> str:
    """The chart as an ``<svg>`` element; an empty string when no game is played yet."""
    games = max((len(line.points) - 1 for line in lines), default=0)
    if games < 1:
        return ""
    low = min(0, *(min(line.points) for line in lines))
    high = max(1, *(max(line.points) for line in lines))
    scale = _Scale(games, low, high)
    parts = [
        f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        *_grid(scale, games, low, high),
        *(_polyline(line, seat, scale) for seat, line in enumerate(lines)),
        "</svg>",
    ]
    return "\n".join(parts)


class _Scale:
    """Game number and score to chart coordinates."""

    def __init__(self, games: int, low: int, high: int) -> None:
        self.games, self.low, self.high = games, low, high

    def x(self, game: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * game / self.games

    def y(self, score: int) -> float:
        span = self.high - self.low
        return TOP + (HEIGHT - TOP - BOTTOM) * (self.high - score) / span


def _grid(scale: _Scale, games: int, low: int, high: int) -> list[str]:
    """Axes, horizontal guides at round values, and the game numbers below."""
    out = []
    for value in _ticks(low, high):
        y = scale.y(value)
        out.append(
            f'<line x1="{LEFT}" y1="{y:.1f}" x2="{WIDTH - RIGHT}" y2="{y:.1f}" '
            f'stroke="#ccc" stroke-width="{1.2 if value == 0 else 0.6}"/>'
        )
        out.append(
            f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end" font-size="11" '
            f'fill="#444">{value}</text>'
        )
    step = max(1, games // 12)  # at most a dozen labels under the axis
    for game in range(0, games + 1, step):
        x = scale.x(game)
        out.append(
            f'<text x="{x:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle" font-size="11" '
            f'fill="#444">{game}</text>'
        )
    out.append(
        f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.0f}" y="{HEIGHT - 4}" text-anchor="middle" '
        f'font-size="11" fill="#444">Game</text>'
    )
    return out


def _polyline(line: Line, seat: int, scale: _Scale) -> str:
    points = " ".join(f"{scale.x(i):.1f},{scale.y(v):.1f}" for i, v in enumerate(line.points))
    dash = DASHES[seat % len(DASHES)]
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<polyline class="seat-{seat}" fill="none" stroke="{COLOURS[seat % len(COLOURS)]}" '
        f'stroke-width="2.5"{dash_attr} points="{points}"><title>{escape(line.name)}</title>'
        "</polyline>"
    )


def colour(seat: int) -> str:
    """The colour of ``seat``'s line, for the legend beside the chart."""
    return COLOURS[seat % len(COLOURS)]


def dash(seat: int) -> str:
    return DASHES[seat % len(DASHES)]


def _ticks(low: int, high: int) -> list[int]:
    """About five round values from ``low`` to ``high`` (1, 2 or 5 times a power of ten)."""
    span = high - low
    step = 1
    while span / step > 6:
        for factor in (2, 5, 10):
            if span / (step * factor) <= 6:
                step *= factor
                break
        else:
            step *= 10
    first = -(-low // step) * step
    return list(range(first, high + 1, step))
