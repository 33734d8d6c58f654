"""Django's HTTP handler for daphne, run the way a WSGI server runs it: one hop per request to a
fixed pool of threads.

Django's own ASGIHandler opens a thread-sensitive context per request, which starts a new thread
for each request and hops to it three times (request_started, the middleware chain, the
response's close). Measured on the table-state endpoint, thread starts and hops were a large
part of a request's cost under daphne. Every view of the site is synchronous, so nothing is
lost by running the whole request, signals included, in one call on a long-lived thread.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix


class PooledASGIHandler(ASGIHandler):
    def __init__(self, threads: int) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="http")

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django serves only HTTP connections, not {scope['type']}.")
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            response = await self._in_pool(self._respond, scope, body_file)
            try:
                await self.send_response(response, send)
            except asyncio.CancelledError:
                pass  # the client went away while the body was being sent
            finally:
                if response.streaming:
                    await self._in_pool(response.close)
        finally:
            body_file.close()

    def _respond(self, scope: dict[str, Any], body_file: Any) -> HttpResponseBase:
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, error_response = self.create_request(scope, body_file)
        # create_request gives either a request or the response refusing it
        response = cast(HttpResponseBase, error_response) if request is None else self.get_response(request)
        response._handler_class = self.__class__  # type: ignore[attr-defined]
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        if not response.streaming:
            # A rendered body survives close(); closing here sends request_finished on this
            # thread, so its database connections go back before the next request takes it.
            response.close()
        return response

    async def _in_pool(self, func: Any, *args: Any) -> Any:
        return await sync_to_async(func, thread_sensitive=False, executor=self._pool)(*args)
