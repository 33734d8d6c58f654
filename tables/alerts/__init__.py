"""Turn alerts: preferences, presence (is the player looking?), web push and email."""
