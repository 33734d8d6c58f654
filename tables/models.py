"""Every model of the tables app, for Django's registry: each lives in its subject's room
(``tables/<room>/models.py``) and keeps the app label ``tables`` and its table name."""

from tables.accounts.models import ApiToken, DataExport, Player, Vacation
from tables.challenges.models import Challenge
from tables.fairplay.models import FairPlaySignal, ScreenedDecision, Screening
from tables.play.models import ChatMessage, ChatMute, Deal, Match, Move, Pace, Table, new_invite_token
from tables.practice.models import PracticePosition
from tables.ratings.models import Rating, RatingChange
from tables.records.models import PairRecord, PlayerRecord, RecordedMatch
from tables.reviews.models import DealReview
from tables.social.models import Block, Follow, MatchNote, ModerationAction, Report, SocialSettings
from tables.tournaments.models import Entry, Pairing, Round, Tournament
from tables.variants.models import Board, GameSeat, GameTable

__all__ = [
    "ApiToken",
    "Block",
    "Board",
    "Challenge",
    "ChatMessage",
    "ChatMute",
    "DataExport",
    "Deal",
    "DealReview",
    "Entry",
    "FairPlaySignal",
    "Follow",
    "GameSeat",
    "GameTable",
    "Match",
    "MatchNote",
    "ModerationAction",
    "Move",
    "Pace",
    "PairRecord",
    "Pairing",
    "Player",
    "PlayerRecord",
    "PracticePosition",
    "Rating",
    "RatingChange",
    "RecordedMatch",
    "Report",
    "Round",
    "ScreenedDecision",
    "Screening",
    "SocialSettings",
    "Table",
    "Tournament",
    "Vacation",
    "new_invite_token",
]
