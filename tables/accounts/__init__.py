"""Accounts and guests: who is calling, the profile, vacation, API tokens."""
