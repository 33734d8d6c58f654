"""Tournaments: Swiss events and round-robin groups that advance, their entries, rounds and
standings. The arithmetic (pairing, groups, standings, advancement) lives in ``engine/`` on
plain values, so it can be checked against brute force without a database."""
