"""``manage.py revoke_tokens USERNAME``: revoke every API token of the user, at once."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.access.models import ApiToken


class Command(BaseCommand):
    help = "Revoke every API token of USERNAME; every process refuses them from the next request."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: object, username: str, **options: object) -> None:
        user_model = get_user_model()
        try:
            user = user_model.objects.get(username=username)
        except user_model.DoesNotExist:
            raise CommandError(f"No user {username!r}.") from None
        count = ApiToken.objects.revoke(user)
        self.stdout.write(f"Revoked {count} token(s) of {username!r}.")
