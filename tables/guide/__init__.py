"""The rules and help pages."""
