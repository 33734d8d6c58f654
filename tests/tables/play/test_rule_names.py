"""The pages get the names of the engine's moves and outcomes, and the alert defaults, from the
server (json_script), in the page's language: the page's script keeps no copy of them."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse
from django.utils import translation

import rules
from tables.alerts import prefs
from tables.play import texts
from tables.play.models import Match
from tests.tables.helpers import play_match, started

pytestmark = pytest.mark.django_db


def page_data(html: str, element_id: str) -> object:
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', html, re.S)
    assert found, f"no json_script {element_id!r} in the page"
    return json.loads(found.group(1))


def test_every_move_kind_and_outcome_of_the_engine_has_its_names():
    names = texts.for_page()
    assert tuple(names["moves"]) == rules.ACTION_KINDS
    assert tuple(names["outcomes"]) == rules.ALL_OUTCOMES
    for kind, labels in names["moves"].items():
        assert set(labels) == {"done", "unseen", "verb"} and all(labels.values()), kind


def test_the_names_follow_the_active_language():
    with translation.override("es"):
        spanish = texts.for_page()
    with translation.override("en"):
        english = texts.for_page()
    assert english["outcomes"]["dead"] == "dead deal" and spanish["outcomes"]["dead"] == "mano empatada"
    assert english["moves"]["discard"]["verb"] == "discard %(card)s"
    assert spanish["moves"]["discard"]["verb"] == "descartar %(card)s"
    assert spanish["moves"]["draw_stock"]["unseen"] == "robó del mazo"


def test_the_table_page_carries_the_engines_names_in_its_language(alice, bob):
    token, _ = started(alice, bob)
    html = alice.client.get(f"/t/{token}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    with translation.override("es"):
        assert page_data(html, "rule-names") == texts.for_page()


def test_the_replay_page_carries_the_engines_names(alice, bob):
    token, players = started(alice, bob)
    play_match(token, players)
    match = Match.objects.get(table__invite_token=token)
    html = alice.client.get(reverse("deal_replay", args=[match.pk, 1])).content.decode()
    names = page_data(html, "rule-names")
    assert isinstance(names, dict) and tuple(names["moves"]) == rules.ACTION_KINDS


def test_the_profile_page_carries_the_alert_defaults(alice):
    html = alice.client.get(reverse("profile")).content.decode()
    defaults = page_data(html, "alert-defaults")
    assert defaults == {kind: list(prefs.DEFAULT_CHANNELS[kind]) for kind in prefs.KINDS}
    cleaned = prefs.clean({})
    assert all(defaults[kind] == cleaned[kind] for kind in prefs.KINDS)
