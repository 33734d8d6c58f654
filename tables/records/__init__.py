"""Players' records kept as matches end: each player's totals (the statistics of a player page)
and each pair's record against each other (head-to-head), so no page aggregates over all matches."""
