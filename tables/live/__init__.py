"""Live publishing and the sockets: the table socket and the user socket (docs/live.md)."""
