"""``manage.py load_demo``: load the demo club once, then print how to log in."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from games.access.models import ApiToken
from games.demo import evening, loading
from games.store import outbox


class Command(BaseCommand):
    help = "Load the demo club (players, a finished match, the end games, a game in progress)."

    def handle(self, *args: Any, **options: Any) -> None:
        if loading.is_loaded():
            self.stdout.write("The demo club is already loaded.")
        else:
            made = loading.load()
            # The sheets' matches close after the commit, in this process's publisher (without
            # a broker) or a worker's: waited for here, or the command would end before them
            # and the evenings would show their finished tables still playing.
            outbox.publisher.join(timeout=60)
            demo = get_user_model().objects.get(username=loading.DEMO_USER)
            if not evening.close_last_week(demo, made["last_week"]):
                self.stdout.write("Last week's evening still has a table playing: left open.")
            self.stdout.write(f"Loaded the demo club: match {made['match']}.")
        user = get_user_model().objects.get(username=loading.DEMO_USER)
        _token, key = ApiToken.objects.issue(user)  # a new one each time: keys are kept hashed
        self.stdout.write(
            f"Demo login: {loading.DEMO_USER} / {loading.DEMO_PASSWORD} "
            f"(admin at /admin/, API token {key})"
        )
