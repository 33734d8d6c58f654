"""Play at a table: seats, moves, clocks, matches, rematch, chat, the table page and its API."""
