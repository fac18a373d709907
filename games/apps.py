"""The games app: its reactions across contexts are registered here, once Django has loaded.

Play publishes what happened (``games.store.reactions``); the tournaments' services answer and react
to it without play importing them.
"""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games and tournaments"

    def ready(self) -> None:
        from games.api import answer_cache
        from games.pages import scoreboard
        from games.store import reactions
        from games.tournaments import results, rounds

        # A closed match at a tournament table records its result on the tournament.
        reactions.subscribe(reactions.MATCH_CLOSED, results.result_from_match)
        # A table's agreement to its match's result is counted by the tournament.
        reactions.subscribe(reactions.RESULT_CONFIRMED, results.confirmation_from_match)
        # A duplicate round's games start on the round's layouts.
        reactions.answer(reactions.DUPLICATE_LAYOUT, rounds.duplicate_layout)
        # Rebuilt read models keep their versions: the answers a process kept are dropped.
        reactions.subscribe(reactions.REBUILT, answer_cache.forget_all)
        # A tournament published or unpublished: its room's board tag, kept in the cache, goes.
        reactions.subscribe(reactions.PUBLICATION, scoreboard.forget_tag)
