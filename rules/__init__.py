"""Ginmesa's Gin Rummy engine: pure Python, standard library only."""
