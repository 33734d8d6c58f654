"""Challenges to one account and seeks to the lobby, and their alerts."""
