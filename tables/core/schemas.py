"""What every endpoint of the JSON API may answer when it refuses: one error body
(docs/api.md, "Errors"), and the error answers an endpoint declares, by status."""

from __future__ import annotations

from ninja import Schema
from pydantic import Field

from tables.play.state_schema import (
    TableStateOut,
)


class ErrorOut(Schema):
    """Every refusal (docs/api.md, "Errors"); a refused request changes nothing."""

    error: str = Field(description="the error's code, e.g. not_found or stale_version")
    detail: str = Field(description="a sentence saying why")
    field: str | None = Field(None, description="the input field at fault, when one is")


class ConflictOut(ErrorOut):
    state: TableStateOut | None = Field(None, description="stale_version: the caller's state now")


class RateLimitedOut(ErrorOut):
    retry_after: int = Field(description="seconds to wait")


ERROR_BODIES: dict[int, type[ErrorOut]] = {409: ConflictOut, 429: RateLimitedOut}


def errors(*statuses: int) -> dict[int, type[ErrorOut]]:
    """The error answers of an endpoint, by status."""
    return {status: ERROR_BODIES.get(status, ErrorOut) for status in statuses}


# What an endpoint may answer besides its success: 400 (a NUL in the URL, a malformed parameter
# or body) and 401 (an unknown API token) from any; 403 (the CSRF check) from any unsafe method.
READ_ERRORS = errors(400, 401)
TABLE_READ_ERRORS = errors(400, 401, 404)
WRITE_ERRORS = errors(400, 401, 403)
TABLE_WRITE_ERRORS = errors(400, 401, 403, 404, 409)
