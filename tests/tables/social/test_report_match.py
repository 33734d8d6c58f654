"""Report a match (not only a player or a chat message): who may report which match, the link on
the match's archive page, the form quoting it, and the staff queue showing its move log and
replays beside the account's earlier reports."""

from __future__ import annotations

import pytest

from tables.core.errors import BadRequest, Conflict, NotFound
from tables.play import services as play_services
from tables.play.models import Deal, Match
from tables.social import services
from tables.social.models import Report
from tests.tables.helpers import make_account_client, started

from .conftest import named

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


def _finished(one, other) -> tuple[str, Match]:
    token, _ = started(one, other)
    play_services.resign(token, one.player)
    return token, Match.objects.get(table__invite_token=token)


def test_a_player_reports_a_match_from_its_archive_page(ana, ben):
    _, match = _finished(ana, ben)
    page = ana.client.get(f"/matches/{match.pk}/", headers=EN).content.decode()
    link = f"/players/{ben.player.pk}/report/?match={match.pk}"
    assert link in page and f"/players/{ana.player.pk}/report/" not in page  # not oneself
    spanish = ana.client.get(f"/matches/{match.pk}/", headers={"accept-language": "es"}).content.decode()
    assert "Denunciar a Ben por esta partida" in spanish
    form = ana.client.get(link, headers=EN).content.decode()
    assert 'id="reported-match"' in form and f"/matches/{match.pk}/" in form
    assert f'name="match" value="{match.pk}"' in form
    response = ana.client.post(
        f"/players/{ben.player.pk}/report/", {"reason": "stalling", "text": "waits", "match": str(match.pk)}
    )
    assert response.status_code == 302
    report = Report.objects.get()
    assert (report.match, report.table_id, report.chat_message) == (match, match.table_id, None)


def test_the_api_reports_a_match_and_refuses_clearly(ana, ben, carla):
    token, _ = started(ana, ben)
    match = Match.objects.get(table__invite_token=token)
    body = ana.ok(
        "post", f"/players/{ben.player.pk}/report", {"reason": "stalling", "match_id": match.pk}, status=201
    )
    assert Report.objects.get(pk=body["id"]).match == match  # a running match too: stalling
    again = ana.post(f"/players/{ben.player.pk}/report", {"reason": "stalling", "match_id": match.pk})
    assert again.status_code == 409
    # Carla never sat there and the table is invite-only: the match is not hers to see.
    assert (
        carla.post(
            f"/players/{ben.player.pk}/report", {"reason": "cheating", "match_id": match.pk}
        ).status_code
        == 404
    )
    assert (
        ana.post(f"/players/{ben.player.pk}/report", {"reason": "abuse", "match_id": 10**17}).status_code
        == 404
    )
    message = play_services.post_chat(token, ben.player, "hi")
    both = {"reason": "abuse", "match_id": match.pk, "chat_message_id": message.id}
    assert ana.post(f"/players/{ben.player.pk}/report", both).status_code == 400
    with pytest.raises(BadRequest):
        services.report(ana.player, ben.player, "abuse", chat_message_id=message.id, match_id=match.pk)
    with pytest.raises(Conflict):
        services.report(ana.player, ben.player, "stalling", match_id=match.pk)
    # A match Carla did not play is not hers to be reported for.
    with pytest.raises(NotFound):
        services.report(ana.player, carla.player, "cheating", match_id=match.pk)
    stranger = carla.client.get(f"/players/{ben.player.pk}/report/?match={match.pk}").content.decode()
    assert 'id="reported-match"' not in stranger and 'name="match"' not in stranger


def test_the_staff_queue_shows_the_matchs_move_log_replays_and_earlier_reports(ana, ben, carla):
    staff = make_account_client("staff@example.com", staff=True)
    staff.user.is_superuser = True
    staff.user.save()
    earlier = services.report(carla.player, ben.player, "name")
    _, match = _finished(ana, ben)
    report = services.report(ana.player, ben.player, "cheating", "too lucky", match_id=match.pk)
    page = staff.client.get(f"/admin/tables/report/{report.pk}/change/").content.decode()
    deal = Deal.objects.get(match=match)
    assert f"/admin/tables/deal/{deal.pk}/change/" in page  # the deal's move log
    assert f"/staff/replay/{deal.pk}/" in page  # its staff replay
    assert f"/matches/{match.pk}/" in page
    assert f"/admin/tables/report/{earlier.pk}/change/" in page  # earlier reports of Ben
    spanish = named(make_account_client("eva@example.com"), "Eva")
    assert spanish.client.get(f"/matches/{match.pk}/").status_code == 404  # still private
