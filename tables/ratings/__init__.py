"""Glicko-2 ratings, player pages, the leaderboard and players' statistics."""
