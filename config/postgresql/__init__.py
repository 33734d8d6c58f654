"""Django's PostgreSQL backend with a cheaper check of each pooled connection it lends (base.py)."""
