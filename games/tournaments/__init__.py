"""Tournaments, one context: everything a tournament is and does, asked by the faces.

``core`` is its pure part (no Django, like ``games.rules``): the folded state of a tournament
stream, pairing, standings and their tie-breaks, the evening's settlement. Beside it sit its
services, by purpose, over ``games.play`` and the store; its shapes (one JSON shape per thing);
and its rule of who may read its play. The API, the pages, the admin and the printed documents
ask it and decide nothing of a tournament themselves.
"""
