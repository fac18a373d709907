"""Pure rule engines: standard library only (a test enforces it)."""
