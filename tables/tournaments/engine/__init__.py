"""A tournament's arithmetic on plain values: no Django, no other project module."""
