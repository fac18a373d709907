"""Manchester Piccadilly and Manchester Truffle, RULES.md 20-21: ``game`` the engine, ``state``
the hand and its scores, ``play`` the deals and discards, ``tricks`` the tricks and the Fool's
payment, ``match`` the game of hands, ``shapes`` what the games and the match take and show."""
