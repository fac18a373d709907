"""API access: hashed, expiring tokens (models), per-token and per-address throttles, checks."""
