"""A club's season, pure: its stream's events and fold (``state``) and how its evenings' places
become a championship (``counting``). Free of Django, as the rest of the tournaments' core."""
