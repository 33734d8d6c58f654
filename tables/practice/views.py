"""The practice page (/me/practice/): the visitor's practice positions, one at a time, drawn by
static/js/practice.js from the JSON API (tables.practice.api)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tables.accounts import identity
from tables.play import texts


def my_practice(request: HttpRequest) -> HttpResponse:
    player = identity.player_for_request(request)
    return render(request, "tables/my_practice.html", {"player": player, "rule_names": texts.for_page()})
