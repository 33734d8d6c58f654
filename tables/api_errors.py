"""The JSON API's refusals: every error answered with one body, ``{"error": code, "detail":
sentence, "field"?: name}`` (docs/api.md, "Errors"; tables.play.schemas.ErrorOut), and JSON
bodies refused when a string holds text no field accepts (tables.core.text_input) or nests too deep."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser

import rules
from tables.core.errors import ServiceError, StaleVersion
from tables.core.text_input import MAX_JSON_DEPTH, json_too_deep, text_location
from tables.play import payloads, selectors
from tables.play.api_caller import caller_of


class TextParser(Parser):
    """JSON bodies, refused with a 400 ``invalid_input`` naming the field when a string holds a NUL,
    another control character or invalid Unicode, or naming the body when it nests deeper than
    MAX_JSON_DEPTH (checked on the raw text, before json.loads recurses into it)."""

    def parse_body(self, request: HttpRequest) -> dict[str, Any]:
        if json_too_deep(request.body):
            raise ValidationError([{"loc": ("body",), "msg": f"nests deeper than {MAX_JSON_DEPTH} levels"}])
        data = super().parse_body(request)
        refused = text_location(data)
        if refused is not None:
            location, problem = refused
            raise ValidationError([{"loc": ("body", *location), "msg": problem}])
        return data


class ErrorAnswers:
    """The API's exception handlers: each refusal a service, the engine or ninja raises, as the
    error body with its status."""

    def __init__(self, api: NinjaAPI) -> None:
        self.api = api
        api.exception_handler(ServiceError)(self.service_error)
        api.exception_handler(rules.IllegalMove)(self.illegal_move)
        api.exception_handler(ValidationError)(self.invalid_input)
        api.exception_handler(AuthenticationError)(self.unauthenticated)
        api.exception_handler(HttpError)(self.http_error)

    def error(self, request: HttpRequest, status: int, code: str, detail: str, **extra: Any) -> HttpResponse:
        return self.api.create_response(request, {"error": code, "detail": detail, **extra}, status=status)

    def service_error(self, request: HttpRequest, exc: ServiceError) -> HttpResponse:
        extra: dict[str, Any] = {}
        if exc.field:
            extra["field"] = exc.field
        if isinstance(exc, StaleVersion) and "table" in exc.extra:
            extra["state"] = payloads.table_state(
                selectors.get_table(exc.extra["table"]), caller_of(request).player
            )
        if "retry_after" in exc.extra:
            extra["retry_after"] = exc.extra["retry_after"]
        response = self.error(request, exc.status, exc.code, exc.message, **extra)
        if "retry_after" in exc.extra:
            response["Retry-After"] = str(exc.extra["retry_after"])  # HTTP's own header, for generic clients
        return response

    def illegal_move(self, request: HttpRequest, exc: rules.IllegalMove) -> HttpResponse:
        return self.error(request, 400, "illegal_move", str(exc), field="action")

    def invalid_input(self, request: HttpRequest, exc: ValidationError) -> HttpResponse:
        first = exc.errors[0] if exc.errors else {}
        location = [str(part) for part in first.get("loc", ()) if part not in ("body", "payload", "query")]
        field = ".".join(location) or "body"
        return self.error(
            request, 400, "invalid_input", f"{field}: {first.get('msg', 'invalid')}", field=field
        )

    def unauthenticated(self, request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
        return self.error(request, 401, "not_authenticated", "Log in, or send an API token.")

    def http_error(self, request: HttpRequest, exc: HttpError) -> HttpResponse:
        if isinstance(exc.__cause__, ValidationError):  # ninja wraps what TextParser refused
            return self.invalid_input(request, exc.__cause__)
        if exc.status_code == 400:  # ninja's "Cannot parse request body"
            return self.error(
                request, 400, "invalid_json", "The request body is not valid JSON.", field="body"
            )
        code = "csrf_failed" if exc.status_code == 403 else "error"
        return self.error(request, exc.status_code, code, str(exc))
