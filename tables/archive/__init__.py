"""The players' archive: finished matches and their deals replayed step by step."""
