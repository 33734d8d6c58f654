"""Server-rendered pages: home, open a table, the invite link / table page, my tables, the
lobby and the staff replay. Forms post to `table_action`, which calls tables.play.services like
the API does; the browser issue replaces the table page with the live UI later."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils import timezone, translation
from django.views.decorators.http import require_POST

import rules
from rules.ruleset import RULESETS
from tables.accounts import identity
from tables.accounts import payloads as account_payloads
from tables.accounts import selectors as account_selectors
from tables.accounts import services as account_services
from tables.accounts.models import Player
from tables.alerts import prefs as alert_prefs
from tables.bank import engine as bank
from tables.challenges import forms as challenge_forms
from tables.challenges import payloads as challenge_payloads
from tables.challenges import selectors as challenge_selectors
from tables.core.errors import BadRequest, ServiceError
from tables.offline import keeping
from tables.play import engine, payloads, selectors, services, texts, verbs
from tables.play.models import Deal, Table
from tables.social import selectors as social
from tables.tournaments import selectors as tournament_selectors
from tables.variants import forms as variant_forms


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"rulesets": RULESETS.values()})


def new_table(request: HttpRequest) -> HttpResponse:
    """ABRIR MESA: name (for a guest), rule set and clock, then CREAR INVITACIÓN."""
    player = identity.player_for_request(request)
    if request.method == "POST":
        try:
            with transaction.atomic():  # a refused table leaves no guest behind
                options = _table_options(request.POST)
                offered = variant_forms.post_game(request, player, options)
                offered = offered or challenge_forms.post_offer(request, player, options)
                if offered is not None:
                    return offered
                owner = player or identity.become_guest(request, request.POST.get("name"))
                table = services.create_table(owner, **options)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            return redirect("table", token=table.invite_token)
    context = {
        "player": player,
        "rulesets": RULESETS,
        "clocks": Table.TURN_CLOCKS,
        "bank": bank.slow_days(),
        "opponent": challenge_forms.opponent_for_form(request),
    }
    return render(request, "tables/new.html", context)


# The move log's and the time bank's choices; auto: by the clock (services.create_table).
MOVE_LOG_CHOICES = {"auto": None, "on": True, "off": False}


def _table_options(data: QueryDict) -> dict[str, Any]:
    options: dict[str, Any] = {
        "ruleset": data.get("ruleset", "playgridia"),
        "visibility": data.get("visibility", Table.Visibility.INVITE),
        "spectator_chat": data.get("spectator_chat") == "on",
        "rated": data.get("rated") == "on",
    }
    if data.get("to_100"):  # the form's former playgridia checkbox
        options["target"] = 100
    log = data.get("move_log", "auto")
    if log not in MOVE_LOG_CHOICES:
        raise ServiceError("move_log must be auto, on or off.", field="move_log")
    options["move_log"] = MOVE_LOG_CHOICES[log]
    bank_choice = data.get("time_bank", "auto")
    if bank_choice not in MOVE_LOG_CHOICES:
        raise ServiceError(
            translation.gettext("The time bank must be by the clock, on or off."), field="time_bank"
        )
    options["time_bank"] = MOVE_LOG_CHOICES[bank_choice]
    for name in ("turn_seconds", "forfeit_after", "target"):
        raw = data.get(name)
        if raw:
            try:
                options[name] = int(raw)
            except ValueError:
                raise ServiceError(f"{name} must be a whole number.", field=name) from None
    if data.get("hollywood"):
        options.update(_hollywood_options(options))
    return options


def _hollywood_options(options: dict[str, Any]) -> dict[str, Any]:
    """Hollywood scoring needs a target: a one-deal preset (playgridia) plays its three games to 100."""
    preset = RULESETS.get(options["ruleset"])
    if options.get("target") is None and preset is not None and preset.single_deal:
        return {"hollywood": True, "target": 100}
    return {"hollywood": True}


def table_page(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: a name prompt for a new visitor while a seat is free, else the table."""
    try:
        table = selectors.get_table(token)
    except ServiceError:
        raise Http404("There is no such table.") from None
    player = identity.player_for_request(request)
    state = payloads.table_state(table, player)
    chat = [payloads.chat_message(m) for m in selectors.chat_history(table, player)]
    context = {
        "table": table,
        "state": state,
        "player": player,
        "chat": chat,
        "table_verbs": verbs.for_page(),
        "rule_names": texts.for_page(),
        "can_take_seat": state["you"]["seat"] is None and state["status"] == "waiting",
        "invite_url": request.build_absolute_uri(),
    }
    response = render(request, "tables/table.html", context)
    return keeping.keep_offline(response) if keeping.may_keep_table(state) else response


# The page's own forms besides the table verbs: each (token, player, form data) -> the writer's answer.
_FORMS: dict[str, Callable[[str, Player, QueryDict], object]] = {
    "chat": lambda token, player, data: services.post_chat(token, player, data.get("text")),
    "move": lambda token, player, data: services.apply_move(
        token,
        player,
        data.get("action", ""),
        _version(data),
        client_move_id=_move_id(data),
    ),
}


# Every verb a table page's form may post to /t/<token>/<verb>/.
PAGE_VERBS = ("join", *verbs.BY_NAME, *_FORMS)


def _version(data: QueryDict) -> int | None:
    raw = data.get("expected_version")
    return int(raw) if raw and raw.isascii() and raw.isdigit() else None  # not "²", which int() refuses


def _move_id(data: QueryDict) -> str | None:
    """The form's client_move_id, held to the API's limit (MoveIn: 1 to 64 characters)."""
    raw = data.get("client_move_id") or None
    if raw is not None and len(raw) > 64:
        raise BadRequest("client_move_id: 1 to 64 characters.", field="client_move_id")
    return raw


@require_POST
def table_action(request: HttpRequest, token: str, verb: str) -> HttpResponse:
    """One form button of the table page; errors come back as a message on the page."""
    player: Player | None
    try:
        if verb == "join":
            selectors.get_table(token)
            player = identity.player_for_request(request) or identity.become_guest(
                request, request.POST.get("name")
            )
            services.join_table(token, player)
        elif verb in verbs.BY_NAME or verb in _FORMS:
            player = identity.player_for_request(request)
            if player is None:
                raise ServiceError("Type your name first.")
            if verb in _FORMS:
                _FORMS[verb](token, player, request.POST)
            else:
                verbs.BY_NAME[verb].run(token, player, _version(request.POST), request.POST.get("level", ""))
        else:
            raise Http404("Unknown action.")
    except (ServiceError, rules.IllegalMove) as error:
        messages.error(request, getattr(error, "message", str(error)))
    return redirect("table", token=token)


def my_tables(request: HttpRequest) -> HttpResponse:
    player = identity.player_for_request(request)
    rows = []
    if player is not None:
        rows = [payloads.my_table_row(table, player) for table in selectors.tables_of(player)]
        rows.sort(
            key=lambda row: (not row["your_move"], row["seconds_left"] is None, row["seconds_left"] or 0)
        )
    tournaments = tournament_selectors.events_of(player, player) if player is not None else []
    context = {"player": player, "rows": rows, "tournaments": tournaments}
    response = render(request, "tables/my_tables.html", context)
    return keeping.keep_offline(response) if player is not None else response


def lobby(request: HttpRequest) -> HttpResponse:
    away = account_payloads.away_until
    player = identity.player_for_request(request)
    apart = social.blocked_either_way(player)
    rows = [
        payloads.lobby_row(table) | {"away": away(table.owner)}
        for table in selectors.lobby_tables()
        if table.owner_id not in apart
    ]
    ruleset = request.GET.get("ruleset") or None
    pace = request.GET.get("pace") if request.GET.get("pace") in ("slow", "live") else None
    now = timezone.now()
    # An account sees which seeks' rating ranges admit it, and may list only those.
    ratings, taker = None, None
    if player is not None and player.user_id is not None:
        ratings = challenge_selectors.ratings_by_pace(player)
        taker = (player, ratings) if request.GET.get("takeable") == "1" else None
    found = challenge_selectors.open_seeks(ruleset, pace, takeable_by=taker, viewer=player)
    seeks = []
    for seek in found:
        row = challenge_payloads.challenge_row(seek, now)
        row["admits_you"] = ratings is None or seek.admits(ratings[seek.pace])
        row["away"] = away(seek.challenger)
        row["followed"] = bool(getattr(seek, "followed", False))  # open_seeks puts them first
        seeks.append(row)
    context = {
        "rows": rows,
        "seeks": seeks,
        "takeable": taker is not None,
        "rated_viewer": ratings is not None,
        "rulesets": RULESETS,
        "ruleset": ruleset or "",
        "pace": pace or "",
        "player": player,
    }
    return render(request, "tables/lobby.html", context)


@staff_member_required
def replay(request: HttpRequest, deal_id: int) -> HttpResponse:
    """Staff: step through a deal's move log with both hands, the stock and the pile shown."""
    deal = Deal.objects.select_related("match__table").filter(pk=deal_id).first()
    if deal is None:
        raise Http404("There is no such deal.")
    moves = list(deal.moves.select_related("actor").order_by("seq"))
    try:
        step = min(max(int(request.GET.get("step", len(moves))), 0), len(moves))
    except ValueError:
        step = len(moves)
    state = engine.replay_row(deal, [move.action for move in moves[:step]])
    position = _replay_position(state)
    context = {
        "deal": deal,
        "table": deal.match.table,
        "moves": moves,
        "step": step,
        "steps": range(len(moves) + 1),
        "previous": step - 1 if step > 0 else None,
        "next": step + 1 if step < len(moves) else None,
        "position": position,
        "hands": list(zip(_seat_names(deal.match.table), position["hands"], strict=True)),
        "events": [event.to_dict() for event in state.history()],
        "result": json.dumps(state.result.to_dict(), indent=2) if state.result else None,
    }
    return render(request, "tables/replay.html", context)


def _seat_names(table: Table) -> list[str]:
    return [player.name if player else "—" for player in table.seats]


def _replay_position(state: rules.Deal) -> dict[str, Any]:
    stock = state.deck[52 - state.stock_count :]
    return {
        "hands": [[str(card) for card in state.hand(seat)] for seat in (0, 1)],
        "stock": [str(card) for card in stock],
        "discard_pile": [str(card) for card in state.discard_pile],
        "phase": state.phase,
        "to_play": state.to_play,
        "version": state.version,
    }


def profile(request: HttpRequest) -> HttpResponse:
    player: Player | None = identity.player_for_request(request)
    if player is None:
        return redirect("new_table")
    language = translation.get_language()
    if request.method == "POST" and request.POST.get("vacation"):
        _change_vacation(request, player)
        return redirect("profile")
    status = 200
    if request.method == "POST" and request.POST.get("alerts") in ("quiet_hours", "reminder_at"):
        if _change_alert_timing(request, player):
            return redirect("profile")
        status = 400  # the page again, with what was wrong
    elif request.method == "POST":
        changes = {
            name: request.POST[name]
            for name in ("display_name", "deck_design", "language", "time_zone")
            if request.POST.get(name)
        }
        try:
            account_services.update_profile(player, **changes)
            language = player.language  # the page answers in the language just chosen
            with translation.override(language):  # for this response only, not the thread
                messages.success(request, translation.gettext("Saved."))
        except ServiceError as error:
            messages.error(request, error.message)
    context = {
        "player": player,
        "designs": Player.DeckDesign.choices,
        "languages": Player.Language.choices,
        "api_tokens": identity.live_api_tokens(player.user) if player.user is not None else [],
        "security": account_selectors.security_of(player.user) if player.user is not None else None,
        "may_become_bot": player.user is not None and not account_selectors.has_played(player),
        "now": timezone.now(),
        "vacation": (vacation := account_payloads.vacation(player)),
        "vacation_last_day": dt.date.fromisoformat(vacation["last_day"]) if vacation["last_day"] else None,
        "alert_defaults": alert_prefs.defaults_for_page(),
        "quiet_hours": alert_prefs.quiet_hours_for_page(player.alert_prefs),
        "reminder": alert_prefs.reminder_for_page(player.alert_prefs),
    }
    with translation.override(language):
        response = render(request, "tables/profile.html", context, status=status)
    response.headers["Content-Language"] = language
    if request.method == "POST":
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, player.language, samesite="Lax")
    return response


def _change_vacation(request: HttpRequest, player: Player) -> None:
    """The profile's vacation form: go on vacation until a day, move that day, or come back."""
    try:
        if request.POST["vacation"] == "automatic":
            on = request.POST.get("automatic") == "on"
            account_services.set_automatic_vacation(player, on)
            done = (
                translation.gettext("Automatic vacation is on.")
                if on
                else translation.gettext("Automatic vacation is off.")
            )
            messages.success(request, done)
            return
        if request.POST["vacation"] == "end":
            account_services.end_vacation(player)
            messages.success(request, translation.gettext("Welcome back: your clocks run again."))
            return
        try:
            last_day = dt.date.fromisoformat(request.POST.get("until", ""))
        except ValueError:
            raise BadRequest(
                translation.gettext("Choose the last day of your vacation."), field="until"
            ) from None
        account_services.declare_vacation(player, last_day)
        messages.success(request, translation.gettext("You are on vacation: your slow clocks have stopped."))
    except ServiceError as error:
        messages.error(request, error.message)


def _change_alert_timing(request: HttpRequest, player: Player) -> bool:
    """The profile's quiet hours form (off, or from and to a time of the account's time zone)
    or its reminder form (when before a deadline the reminder comes)."""
    form = request.POST
    try:
        if form["alerts"] == "quiet_hours":
            on, start, end = (
                form.get("quiet_on") == "on",
                form.get("quiet_start", ""),
                form.get("quiet_end", ""),
            )
            changed = alert_prefs.with_quiet_hours(player.alert_prefs, on, start, end)
            done = translation.gettext("Quiet hours saved.")
        else:
            chosen, hours = form.get("reminder_at", ""), form.get("reminder_hours", "")
            changed = alert_prefs.with_reminder_at(player.alert_prefs, chosen, hours)
            done = translation.gettext("Reminder saved.")
        account_services.update_profile(player, alert_prefs=changed)
    except ServiceError as error:
        messages.error(request, error.message)
        return False
    messages.success(request, done)
    return True


@require_POST
def revoke_token(request: HttpRequest, token_id: int) -> HttpResponse:
    """The profile's REVOKE button: the account's token stops working at once."""
    player = identity.player_for_request(request)
    if player is not None and player.user is not None and identity.revoke_api_token(player.user, token_id):
        messages.success(request, translation.gettext("The token is revoked."))
    return redirect("profile")
