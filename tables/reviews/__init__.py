"""LUNA's review of a finished deal."""
