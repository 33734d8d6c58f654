"""The rules and help pages: every number read from the rule sets, every example scored by the
engine, in both languages, linked from the home page, the header and the table's menu."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re

import pytest
from django.test import Client

import rules
from tables.challenges.models import Challenge
from tables.challenges.services import MAX_OPEN_CHALLENGES, MAX_OPEN_SEEKS
from tables.guide import views as guide
from tests.tables.helpers import make_account_client, open_table

pytestmark = pytest.mark.django_db


def text_of(path: str, language: str = "en") -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=language).get(path)
    assert response.status_code == 200, path
    html = response.content.decode()
    main = html[html.index("<main") : html.index("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main)).replace("&#x27;", "'")


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_guide_page_answers_in_both_languages(language):
    titles = {"en": ("Rules of Gin Rummy", "Help"), "es": ("Reglas del Gin Rummy", "Ayuda")}[language]
    assert titles[0] in text_of("/rules/", language)
    assert titles[1] in text_of("/help/", language)
    for name in rules.RULESETS:
        assert name in text_of(f"/rules/{name}/", language)
    assert Client().get("/rules/hollywood-nonsense/").status_code == 404


def test_the_documented_worked_examples_appear_as_the_engine_scores_them():
    page = text_of("/rules/playgridia/")
    assert "(K = 3)" in page and "(D = 15)" in page and "15 − 3 = 12" in page  # docs/rules.md
    assert "(10 − 2) + 25 = 33" in page  # the undercut
    assert "Big gin" not in page.split("Worked examples")[1]  # playgridia does not play it
    reino = text_of("/rules/reino/")
    big_gin = rules.showdown(rules.RULESETS["reino"], *map(rules.parse_cards, guide.BIG_GIN))
    assert big_gin.outcome == "big_gin" and f"31 + 25 = {big_gin.points}" in reino


@pytest.fixture
def oklahoma(monkeypatch) -> rules.Ruleset:
    """The Oklahoma preset as main defines it (classic, the upcard setting limit and multiplier)."""
    preset = rules.RULESETS.get("oklahoma") or dataclasses.replace(
        rules.RULESETS["classic"], name="oklahoma", oklahoma=True
    )
    monkeypatch.setitem(rules.RULESETS, "oklahoma", preset)
    return preset


def test_oklahoma_takes_its_knock_limit_and_multiplier_from_the_engine(oklahoma):
    assert guide.deal_terms(oklahoma, rules.parse_cards("7S")[0]) == (7, 2)
    assert guide.deal_terms(oklahoma, rules.parse_cards("AH")[0]) == (0, 1)
    assert guide.deal_terms(rules.RULESETS["classic"], rules.parse_cards("7S")[0]) == (10, 1)
    page = text_of("/rules/oklahoma/")
    assert "knock limit 7, the deal counts 2 times" in page and "(20 + 25) × 2 = 90" in page
    assert "the first upcard's value (an ace: gin only)" in page
    assert "sets the knock limit; a spade doubles the deal's score" in text_of("/rules/")


def test_the_pages_follow_the_rule_set_values(monkeypatch):
    changed = dataclasses.replace(rules.RULESETS["classic"], gin_bonus=33, undercut_bonus=7, per_deal_bonus=5)
    monkeypatch.setitem(rules.RULESETS, "classic", changed)
    page = text_of("/rules/classic/")
    assert "33 + the defender's deadwood" in page and "33 + 25 = 58" in page  # the gin example
    assert "(10 − 2) + 7 = 15" in page
    assert "5 to each player per deal won" in page
    assert "the winner adds 120" in page  # 100 + 4 deals × 5
    assert "7 + the difference" in text_of("/rules/")


def test_help_states_the_clocks_and_the_forfeit_the_tables_use():
    page = text_of("/help/")
    assert "30 s, 45 s, 1 min, 1 min 30 s, 10 min, 12 h, 1 day, 3 days, 7 days" in page
    assert "New tables get 1 day" in page and "(3 unless" in page


@pytest.mark.parametrize(
    ("language", "says"),
    [
        (
            "en",
            "lapses after {days} days if nobody answers it. You may have up to {challenges} open challenges and {seeks} open seeks",
        ),
        (
            "es",
            "caduca a los {days} días si nadie responde. Puedes tener hasta {challenges} retos y {seeks} búsquedas abiertos",
        ),
    ],
)
def test_help_explains_challenges_and_seeks_with_the_services_figures(monkeypatch, language, says):
    figures = {"days": Challenge.LIFETIME.days, "challenges": MAX_OPEN_CHALLENGES, "seeks": MAX_OPEN_SEEKS}
    page = text_of("/help/", language)
    assert says.format(**figures) in page
    assert {"en": "Challenges and seeks", "es": "Retos y búsquedas"}[language] in page
    assert {"en": "match started", "es": "partida empezada"}[language] in page
    html = Client(HTTP_ACCEPT_LANGUAGE=language).get("/help/").content.decode()
    assert 'href="/challenges/"' in html and 'href="/lobby/"' in html

    monkeypatch.setattr(Challenge, "LIFETIME", dt.timedelta(days=3))
    monkeypatch.setattr(guide, "MAX_OPEN_CHALLENGES", 4)
    monkeypatch.setattr(guide, "MAX_OPEN_SEEKS", 2)
    assert says.format(days=3, challenges=4, seeks=2) in text_of("/help/", language)


def test_the_guide_is_linked_from_home_header_and_table_menu():
    home = Client().get("/").content.decode()
    for name in rules.RULESETS:
        assert f'href="/rules/{name}/"' in home
    assert home.count('href="/rules/"') == 2 and home.count('href="/help/"') == 2  # header and body
    owner = make_account_client("owner@example.com")
    token = open_table(owner, ruleset="reino")["table"]
    table_page = owner.client.get(f"/t/{token}/").content.decode()
    assert 'href="/rules/reino/"' in table_page
