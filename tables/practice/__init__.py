"""Practice from your own mistakes: the positions of a player's mistakes and blunders in their
reviewed deals, kept per account, asked again one at a time (docs/archive.md, "Practice")."""
