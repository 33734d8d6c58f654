"""The JSON API under /api/ (django-ninja; schema at /api/openapi.json, described in docs/api.md).

Each subject's endpoints live in its room (``<room>/api.py``, a ninja Router) and are mounted
here; what they take and answer is declared in the room's ``schemas.py``. Every endpoint
resolves the caller (an API token, or the browser's session or guest cookie with CSRF) and calls
the room's writers; none of them writes a model itself.
"""

from __future__ import annotations

from ninja import NinjaAPI

from tables.accounts.api import router as accounts_router
from tables.alerts.api import inbox_router
from tables.alerts.api import router as push_router
from tables.api_errors import ErrorAnswers, TextParser
from tables.archive.api import router as archive_router
from tables.challenges.api import router as challenges_router
from tables.play.api import router as play_router
from tables.play.api_caller import BearerToken, BrowserSession
from tables.practice.api import router as practice_router
from tables.reviews.api import archive_router as archive_review_router
from tables.reviews.api import router as review_router
from tables.social.api import router as social_router
from tables.tournaments.api import router as tournaments_router
from tables.variants.api import router as games_router

api = NinjaAPI(
    parser=TextParser(),
    title="Ginmesa API",
    version="1",
    description="Gin Rummy at persistent tables. See docs/api.md for versions, errors and auth.",
    urls_namespace="api",
    auth=[BearerToken(), BrowserSession()],
)

ErrorAnswers(api)
api.add_router("", archive_router)  # /matches/..., /me/archive
api.add_router("", play_router)  # /tables/..., /me/tables, /lobby
api.add_router("", accounts_router)  # /me, /me/vacation, /tokens
api.add_router("/me/push", push_router)
api.add_router("/me/inbox", inbox_router)
api.add_router("/tables", review_router)
api.add_router("", archive_review_router)  # /matches/{id}/deals/{n}/review
api.add_router("", practice_router)  # /matches/{id}/deals/{n}/practice, /me/practice
api.add_router("/", challenges_router)
api.add_router("", tournaments_router)  # /tournaments, /tournaments/{token}/...
api.add_router("", games_router)  # /games, /games/{token}/...: tables of three and four
api.add_router("", social_router)  # /me/following, /me/blocks, /me/presence, /players/{id}/...
