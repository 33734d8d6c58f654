"""The social room's bodies in the JSON API: presence, the following list, blocks, head-to-head
(/api/openapi.json)."""

from __future__ import annotations

from ninja import Schema
from pydantic import Field


class PresenceOut(Schema):
    hidden: bool = Field(description="the account hides its presence: online and last_seen are null")
    online: bool | None = Field(description="a page of the site is open now")
    last_seen: str | None = Field(description="when last on the site (ISO 8601); null: never, or hidden")


class PlayerPresenceOut(Schema):
    id: int
    name: str
    player_url: str | None
    presence: PresenceOut
    presence_text: str = Field(
        description='"online now", "last seen 3 hours ago", or empty, in the language asked'
    )


class FollowedOut(PlayerPresenceOut):
    since: str = Field(description="when the caller began to follow them")


class FollowingOut(Schema):
    following: list[FollowedOut]
    limit: int = Field(description="how many accounts one account may follow")


class BlockedOut(Schema):
    id: int
    name: str
    player_url: str | None
    since: str


class BlocksOut(Schema):
    blocked: list[BlockedOut]


class HeadToHeadOut(Schema):
    opponent_id: int
    opponent: str
    won: int = Field(description="finished matches the caller won against them")
    lost: int
    matches: int = Field(description="finished matches between the two the caller may see")
    last_on: str | None = Field(description="when the latest of them ended")


class PlayerSocialOut(PlayerPresenceOut):
    following: bool = Field(description="the caller follows them")
    blocked: bool = Field(description="the caller blocks them")
    head_to_head: HeadToHeadOut | None = Field(description="the caller's record against them (null: oneself)")


class PresenceSettingIn(Schema):
    hide_presence: bool = Field(description='show no "online now" nor "last seen" of this account')


class PresenceSettingOut(Schema):
    hide_presence: bool


class ReportIn(Schema):
    reason: str = Field(description="abuse, cheating, stalling, spam, name or other")
    text: str = Field("", description="what happened, in the reporter's words (at most 1000 characters)")
    chat_message_id: int | None = Field(
        None, description="one chat message of theirs, at a table where the caller could read it"
    )
    match_id: int | None = Field(
        None, description="one match they played, that the caller may see (not with chat_message_id)"
    )


class ReportOut(Schema):
    id: int
    reason: str
    status: str = Field(description="open until staff dismiss or handle it")
    created_at: str


class RelationOut(Schema):
    """What the caller's follow and block of an account are, after a change."""

    id: int
    name: str
    following: bool = Field(description="the caller follows them")
    blocked: bool = Field(description="the caller blocks them")


class NoteIn(Schema):
    text: str = Field(..., description="the whole note, replacing the last one (at most 4000 characters)")


class NoteOut(Schema):
    """The caller's own notes on the table's current match: never anyone else's."""

    match_id: int | None = Field(description="null: no match has begun at this table")
    text: str
    updated_at: str | None
    max_chars: int
