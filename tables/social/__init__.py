"""Players who know each other: follow, who is around (online now, last seen), head-to-head, block."""
