"""``manage.py issue_token USERNAME``: issue a new API token and print its key (once)."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from games.access.models import ApiToken


class Command(BaseCommand):
    help = (
        "Issue a new API token for USERNAME and print its key. Keys are stored hashed, so an "
        "earlier key cannot be shown again; earlier tokens keep working until they expire or are "
        "revoked (manage.py revoke_tokens). A missing user is created without a password."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--days",
            type=int,
            default=None,
            help=f"lifetime in days (default: {settings.API_TOKEN_LIFETIME_DAYS})",
        )
        parser.add_argument(
            "--staff",
            action="store_true",
            help="make the user staff: a director (who reads the feed)",
        )

    def handle(
        self, *args: object, username: str, days: int | None, staff: bool, **options: object
    ) -> None:
        user_model = get_user_model()
        user, created = user_model.objects.get_or_create(username=username)
        if created:
            user.set_unusable_password()
            user.save()
            self.stderr.write(f"Created user {username!r} (no password; API token only).")
        if staff and not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
            self.stderr.write(f"{username!r} is now staff (a director).")
        ApiToken.objects.filter(user=user, expires__lte=timezone.now()).delete()
        earlier = ApiToken.objects.filter(user=user).count()
        lifetime = None if days is None else timedelta(days=days)
        token, key = ApiToken.objects.issue(user, lifetime)
        self.stderr.write(
            f"Issued a new token for {username!r}, valid until {token.expires:%Y-%m-%d %H:%M} UTC. "
            "The key is shown only now (only its hash is stored)"
            + (f"; the {earlier} earlier token(s) still work." if earlier else ".")
        )
        self.stdout.write(key)
