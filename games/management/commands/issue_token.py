"""``manage.py issue_token USERNAME``: create (or print) the user's API token."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from rest_framework.authtoken.models import Token


class Command(BaseCommand):
    help = "Create or print USERNAME's API token; a missing user is created without a password."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: object, username: str, **options: object) -> None:
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(username=username)
        if created:
            user.set_unusable_password()
            user.save()
            self.stderr.write(f"Created user {username!r} (no password; API token only).")
        token, _ = Token.objects.get_or_create(user=user)
        self.stdout.write(token.key)
