"""Fair play: each account's signal from LUNA's reviews of its rated decisions, for staff only."""
