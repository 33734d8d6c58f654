"""A newcomer's first pages: the turn clocks of the new-table form read apart in both languages,
and /favicon.ico (which the admin pages and some browsers ask for) is not a 404."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from tables.play.models import Table
from tables.templatetags.ginmesa import clock_label


@pytest.mark.parametrize("language", ["en", "es"])
def test_every_turn_clock_has_its_own_label(language: str) -> None:
    with translation.override(language):
        labels = [clock_label(seconds) for seconds in Table.TURN_CLOCKS]
    assert len(set(labels)) == len(labels), labels


def test_a_minute_and_a_half_reads_as_such() -> None:
    with translation.override("en"):
        assert clock_label(60) == "1 min"
        assert clock_label(90) == "1 min 30 s"
        assert clock_label(600) == "10 min"
        assert clock_label(45) == "45 s"


@pytest.mark.django_db
def test_favicon_ico_is_the_sites_icon_not_a_404() -> None:
    response = Client().get("/favicon.ico")
    assert response.status_code in (301, 302), response.status_code
    assert response["Location"].endswith("img/favicon.svg")


@pytest.mark.django_db
def test_the_headers_log_in_and_sign_up_links_come_back_to_the_page() -> None:
    page = Client().get("/lobby/?sort=new").content.decode()
    assert 'href="/accounts/login/?next=/lobby/%3Fsort%3Dnew"' in page
    assert 'href="/accounts/signup/?next=/lobby/%3Fsort%3Dnew"' in page
    login_page = Client().get("/accounts/login/").content.decode()
    assert 'href="/accounts/signup/"' in login_page  # no way back to the log-in page itself
