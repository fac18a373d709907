"""Printed documents, rendered by Celery tasks and kept in Django's default storage.

A document (a match's score sheet, a round's table cards, the standings, a player's slip, a
season's standings) is named by a *spec* (``sheet:<match>``, ``cards:<tournament>:<round>``,
``standings:<tournament>``, ``slip:<tournament>:<player>``, ``season:<season>``) and stored once
per *fingerprint*: a digest of what it shows (the match's version and status and its games'
versions; the tournament's version and its matches'; the season's head and its evenings').
A stored file whose fingerprint is the current one is fresh; any later event changes
the fingerprint, so a stale file is never served.

Rendering goes through the outbox (``render:<spec>``, one row per document, armed again by each
later change): the task marks the row done *before* it reads, so an event committed while it
renders arms the row again and is rendered too. Without a broker (eager mode) the reader's
request renders the file itself.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from datetime import date
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile, File
from django.core.files.storage import default_storage
from django.db import transaction

from games.store import folding, outbox
from games.store.models import Match, Season, Stream, Tournament
from games.tournaments.core import state as ts
from scoring import selectors
from scoring.documents import nightly, reports, season_documents, tournament_documents

log = logging.getLogger(__name__)

RENDER_TASK = "scoring.render_document"
# Bumped when a template or its data change, so that every stored file is rendered anew.
LAYOUT = "2"
MEDIA_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "html": "text/html; charset=utf-8",
    "pdf": "application/pdf",
}


class UnknownDocument(LookupError):
    """A spec naming no document (a deleted match, a round not paired, a player not entered)."""


class Document:
    spec: str
    folder: str
    stem: str
    title: str = "the document"  # named to a reader told to wait while it renders
    formats: tuple[str, ...] = ("html", "pdf")

    def fingerprint(self) -> str:
        raise NotImplementedError

    def text(self, fmt: str) -> str:
        raise NotImplementedError

    def name(self, fmt: str, fingerprint: str) -> str:
        return f"{self.folder}/{self.stem}-{fingerprint}.{fmt}"


def _digest(*parts: Any) -> str:
    return hashlib.sha256(repr((LAYOUT, settings.VENUE, *parts)).encode()).hexdigest()[:16]


class ScoreSheet(Document):
    formats = ("csv", "html", "pdf")

    def __init__(self, match_id: uuid.UUID) -> None:
        try:
            self.match = Match.objects.select_related("stream", "tournament").get(pk=match_id)
        except Match.DoesNotExist:
            raise UnknownDocument(f"match {match_id}") from None
        self.spec = f"sheet:{match_id}"
        self.title = "the score sheet"
        self.folder = f"reports/matches/{match_id}"
        self.stem = "score-sheet"

    def fingerprint(self) -> str:
        stream = self.match.stream
        return _digest(
            stream.version, stream.status, stream.head_hash, selectors.games_fingerprint(stream.pk)
        )

    def text(self, fmt: str) -> str:
        if fmt == "csv":
            history = reports.match_history(self.match)
            return reports.score_sheet_csv(history, reports.heading(self.match))
        return reports.score_sheet_html(self.match)


class TournamentDocument(Document):
    def __init__(self, tournament_id: uuid.UUID) -> None:
        try:
            self.tournament = Tournament.objects.select_related("stream").get(pk=tournament_id)
        except Tournament.DoesNotExist:
            raise UnknownDocument(f"tournament {tournament_id}") from None
        self.folder = f"reports/tournaments/{tournament_id}"
        self._state: ts.TournamentState | None = None

    @property
    def state(self) -> ts.TournamentState:
        if self._state is None:
            self._state = folding.load(self.tournament.stream).state
        return self._state

    def fingerprint(self) -> str:
        # The tables' matches too: a slip shows whether a table still plays.
        # Each stream's head with its version: versions repeat after a restore from a backup.
        matches = Stream.objects.filter(match__tournament=self.tournament).order_by("pk")
        heads = list(matches.values_list("version", "head_hash"))
        own = self.tournament.stream
        return _digest(own.version, own.head_hash, heads)


class RoundCards(TournamentDocument):
    def __init__(self, tournament_id: uuid.UUID, number: int) -> None:
        super().__init__(tournament_id)
        if not 1 <= number <= len(self.state.rounds):
            raise UnknownDocument(f"round {number}")
        self.number = number
        self.spec = f"cards:{tournament_id}:{number}"
        self.title = f"round {number}'s pairings and table cards"
        self.stem = f"round-{number}-cards"

    def text(self, fmt: str) -> str:
        return tournament_documents.cards_html(self.tournament, self.state, self.number)


class Standings(TournamentDocument):
    def __init__(self, tournament_id: uuid.UUID) -> None:
        super().__init__(tournament_id)
        self.spec = f"standings:{tournament_id}"
        self.title = "the standings"
        self.stem = "standings"

    def text(self, fmt: str) -> str:
        return tournament_documents.standings_html(self.tournament, self.state)


class Slip(TournamentDocument):
    def __init__(self, tournament_id: uuid.UUID, player: int) -> None:
        super().__init__(tournament_id)
        if not any(e.player == player for e in self.state.entries):
            raise UnknownDocument(f"player {player}")
        self.player = player
        self.spec = f"slip:{tournament_id}:{player}"
        self.title = "the evening slip"
        self.stem = f"slip-{player}"

    def text(self, fmt: str) -> str:
        return tournament_documents.slip_html(self.tournament, self.state, self.player)


class SeasonStandings(Document):
    """A season's standings, printed for whoever may read the season: from its published
    evenings only (``scoring.documents.season_documents``), so one stored file per
    fingerprint is right for every one of its readers."""

    formats = ("csv", "pdf")

    def __init__(self, season_id: uuid.UUID) -> None:
        try:
            self.season = Season.objects.get(pk=season_id)
        except Season.DoesNotExist:
            raise UnknownDocument(f"season {season_id}") from None
        self.spec = f"season:{season_id}"
        self.title = "the season's standings"
        self.folder = f"reports/seasons/{season_id}"
        self.stem = "standings"

    def fingerprint(self) -> str:
        return _digest(season_documents.fingerprint(self.season))

    def text(self, fmt: str) -> str:
        if fmt == "csv":
            return season_documents.standings_csv(self.season)
        return season_documents.standings_html(self.season)


def parse(spec: str) -> Document:
    """The document a spec names; UnknownDocument if there is none (any more)."""
    kind, _, rest = spec.partition(":")
    parts = rest.split(":")
    try:
        if kind == "sheet":
            return ScoreSheet(uuid.UUID(parts[0]))
        if kind == "cards":
            return RoundCards(uuid.UUID(parts[0]), int(parts[1]))
        if kind == "standings":
            return Standings(uuid.UUID(parts[0]))
        if kind == "slip":
            return Slip(uuid.UUID(parts[0]), int(parts[1]))
        if kind == "season":
            return SeasonStandings(uuid.UUID(parts[0]))
    except (ValueError, IndexError):
        pass
    raise UnknownDocument(spec)


# --- rendering and storage ---------------------------------------------------------------------


def pdf(html: str) -> bytes:
    """The page printed by WeasyPrint (print media). It fetches nothing: every style is inline
    and the chart is inline SVG, so a name typed at the table can never make it load a URL."""
    import weasyprint  # imported on first use: loading pango costs the web process ~0.3 s

    return bytes(weasyprint.HTML(string=html, url_fetcher=_no_fetch).write_pdf())


def _no_fetch(url: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    raise ValueError(f"reports load nothing from outside: {url!r}")


def render(document: Document, fmt: str) -> bytes:
    if fmt == "pdf":
        return pdf(document.text("html"))
    return document.text(fmt).encode()


def store(document: Document, fmt: str) -> str:
    """Render ``fmt`` of the document as it is now, store it, drop older renderings; its name."""
    name = document.name(fmt, document.fingerprint())
    save(name, render(document, fmt))
    _prune(document, fmt, keep=name)
    return name


def store_all(document: Document) -> list[str]:
    return [store(document, fmt) for fmt in document.formats]


def save(name: str, content: bytes) -> None:
    """Write ``name``, replacing it: a storage gives a taken name another, so free it first."""
    if default_storage.exists(name):
        default_storage.delete(name)
    saved = default_storage.save(name, ContentFile(content))
    if saved != name:  # a racing task wrote the same rendering first; keep one
        default_storage.delete(saved)


def _prune(document: Document, fmt: str, keep: str) -> None:
    try:
        _dirs, files = default_storage.listdir(document.folder)
    except FileNotFoundError:
        return
    for file in files:
        path = f"{document.folder}/{file}"
        if file.startswith(f"{document.stem}-") and file.endswith(f".{fmt}") and path != keep:
            default_storage.delete(path)


def open_fresh(document: Document, fmt: str) -> File[Any] | None:
    """The stored rendering of the document as it is now, opened; None if there is none yet."""
    return open_stored(document.name(fmt, document.fingerprint()))


def open_stored(name: str) -> File[Any] | None:
    try:
        if not default_storage.exists(name):
            return None
        return default_storage.open(name, "rb")
    except FileNotFoundError:  # pruned between the two calls: a newer one is on its way
        return None


def eager() -> bool:
    """Whether tasks run in this process (no broker): then a reader renders what he asks for."""
    return outbox.eager()


def render_key(spec: str) -> str:
    return f"render:{spec}"


def request_render(document: Document) -> None:
    """Ask a worker to render every format of the document as it will be once it runs."""
    with transaction.atomic():
        outbox.register(RENDER_TASK, [document.spec], key=render_key(document.spec))


def render_requested(spec: str) -> list[str]:
    """The task's work: done first (an event after this arms it again), then rendered."""
    outbox.mark_done(render_key(spec))
    try:
        document = parse(spec)
    except UnknownDocument:
        log.warning("render %s: no such document any more", spec)
        return []
    return store_all(document)


# --- the nightly report -------------------------------------------------------------------------

NIGHTLY = "reports/nightly"


def store_nightly(day: date) -> list[str]:
    """Render the club's report of ``day`` as HTML and PDF; rendering it again replaces it."""
    html = nightly.report_html(day)
    names = [f"{NIGHTLY}/{day.isoformat()}.html", f"{NIGHTLY}/{day.isoformat()}.pdf"]
    save(names[0], html.encode())
    save(names[1], pdf(html))
    return names


def renew_nightly(tournament_id: str, key: str) -> list[str]:
    """The stored nightly reports of the days the tournament's play ended on, rendered again:
    published or unpublished, its matches are in them or out of them as the public may read
    them now. Done first (a later switch arms its own row), then rendered."""
    outbox.mark_done(key)
    days = nightly.days_played(tournament_id) & set(nightly_days())
    return [name for day in sorted(days) for name in store_nightly(day)]


def nightly_days() -> list[date]:
    """The days with a stored nightly report, latest first."""
    try:
        _dirs, files = default_storage.listdir(NIGHTLY)
    except FileNotFoundError:
        return []
    days = set()
    for file in files:
        stem, _, fmt = file.partition(".")
        try:
            days.add(date.fromisoformat(stem))
        except ValueError:
            continue
    return sorted(days, reverse=True)
