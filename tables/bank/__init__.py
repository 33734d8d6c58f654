"""The time bank of slow clocks (issue 56): the arithmetic in ``engine``, kept apart from the
writers that store it on the deal and match rows (tables/play/services)."""
