"""Suite-wide fixtures. Engine tests (tests/rules) need no database."""
