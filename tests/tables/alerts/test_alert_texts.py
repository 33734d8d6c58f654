"""Alert texts are on gettext: rendered in the player's language from the catalogues."""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import translation

from tables.accounts.identity import player_for_user
from tables.alerts import emails, prefs
from tables.alerts.texts import digest_subject, duration, match_result, reminder_then, render, turn_clock
from tests.tables.helpers import make_account_client

CONTEXT = {"opponent": "Ana", "left": "2 h", "text": "hola", "rules": "classic", "lapses": "2026-01-01 10:00"}
CONTEXT["name"] = "Weekly"  # a tournament's
CONTEXT["then"] = "If you do not move, the server plays for you."  # a reminder's (reminder_then)
CHALLENGE_KINDS = ("challenge_accepted", "seek_taken", "challenge_declined")


@pytest.mark.parametrize("kind", [*prefs.KINDS, *CHALLENGE_KINDS])
@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_alert_renders_whole_in_both_languages(kind, lang):
    title, body = render(kind, lang, **CONTEXT, result="")
    assert title and "%(" not in title + body and "{" not in title + body


def test_the_player_language_chooses_the_catalogue_whatever_is_active():
    with translation.override("en"):
        assert render("your_move", "es", opponent="Ana") == (
            "Te toca contra Ana",
            "Ana ha jugado: es tu turno.",
        )
    with translation.override("es"):
        assert render("your_move", "en", opponent="Ana") == (
            "Your move against Ana",
            "Ana has played: it is your turn.",
        )
    then = reminder_then("xx", vacation_day=False)
    assert render("reminder", "xx", opponent="Ana", left="5 h", then=then) == (
        "Quedan 5 h para jugar contra Ana",
        "Si no juegas, el servidor jugará por ti.",
    )  # Spanish


@pytest.mark.parametrize(
    ("lang", "vacation_day", "says"),
    [
        ("en", False, "If you do not move, the server plays for you."),
        ("es", False, "Si no juegas, el servidor jugará por ti."),
        ("en", True, "If you do not move, a day of your vacation starts instead (automatic vacation)"),
        ("es", True, "Si no juegas, empieza en su lugar un día de tus vacaciones (vacaciones automáticas)"),
    ],
)
def test_the_reminder_says_what_the_deadline_brings_in_the_players_language(lang, vacation_day, says):
    assert reminder_then(lang, vacation_day).startswith(says)


def test_a_chat_message_is_sent_as_written():
    assert render("chat", "en", opponent="Ana", text="50% {odds}")[1] == "50% {odds}"


def test_results_clocks_and_the_digest_subject():
    assert match_result("won", "es", 120, 40) == "Has ganado 120–40."
    assert match_result("lost_games", "en", 90, 300) == "You lost 90–300 over three games."
    assert duration(2 * 86400, "en") == "2 d" and duration(30, "es") == "1 min"
    assert turn_clock(86400, "es") == "1 d por turno" and turn_clock(45, "en") == "45 s per turn"
    assert digest_subject(1, "es") == "Es tu turno en 1 mesa"
    assert digest_subject(3, "en") == "It is your move at 3 tables"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("es", ("Abrir la mesa", 'lang="es"', "No recibir más correos como este")),
        ("en", ("Open the table", 'lang="en"')),
    ],
)
def test_an_alert_email_is_written_in_the_players_language(lang, words):
    player = player_for_user(make_account_client(f"reader-{lang}@example.com").user)
    player.language = lang
    player.save(update_fields=["language"])
    title, body = render("your_move", lang, opponent="Ana")
    assert emails.send_alert_email(player, "your_move", title, body, "https://example.com/t/x/")
    [email] = mail.outbox
    html = email.alternatives[0][0]
    assert all(word in html for word in words)
    assert words[0] in email.body and title in email.body
