from django.apps import AppConfig


class TablesConfig(AppConfig):
    name = "tables"
    verbose_name = "Tables"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """The wiring point, run once the models are loaded (Django's place for it): the
        receivers of a committed change, every room's Celery tasks (tables.background.registry names
        them), and the guest-adoption signals."""
        from tables.accounts import signals  # noqa: F401
        from tables.accounts import tasks as account_tasks  # noqa: F401
        from tables.accounts.announcements import account_leaving, sessions_ended
        from tables.alerts import inbox
        from tables.alerts import tasks as alert_tasks  # noqa: F401
        from tables.alerts.announcements import inbox_written
        from tables.background import scheduling
        from tables.challenges import alerts as challenge_alerts
        from tables.challenges import tasks as challenge_tasks  # noqa: F401
        from tables.core.announcements import challenge_changed, match_ended, table_changed
        from tables.fairplay import tasks as fairplay_tasks  # noqa: F401
        from tables.live import events
        from tables.play import tasks as play_tasks  # noqa: F401
        from tables.play.selectors import chat_shared
        from tables.reviews import tasks as review_tasks  # noqa: F401
        from tables.tournaments import alerts as tournament_alerts
        from tables.tournaments import tasks as tournament_tasks  # noqa: F401
        from tables.tournaments import watchers as tournament_watchers
        from tables.tournaments.announcements import round_ended, round_opened, tournament_changed
        from tables.variants import tasks as variant_tasks  # noqa: F401
        from tables.variants import watchers as variant_watchers

        # Live publishing first: the sockets hear of a move before any follow-up runs.
        table_changed.connect(events.on_table_change, dispatch_uid="tables.live")
        table_changed.connect(scheduling.on_table_change, dispatch_uid="tables.background")
        challenge_changed.connect(challenge_alerts.on_challenge_change, dispatch_uid="tables.challenges")
        sessions_ended.connect(events.on_sessions_ended, dispatch_uid="tables.live.sessions")
        inbox_written.connect(inbox.on_inbox_written, dispatch_uid="tables.alerts.inbox")
        match_ended.connect(tournament_watchers.on_match_end, dispatch_uid="tables.tournaments")
        match_ended.connect(variant_watchers.on_match_end, dispatch_uid="tables.variants")
        account_leaving.connect(variant_watchers.on_account_leaving, dispatch_uid="tables.variants")
        chat_shared.connect(variant_watchers.on_chat_asked, dispatch_uid="tables.variants")
        account_leaving.connect(tournament_watchers.on_account_leaving, dispatch_uid="tables.tournaments")
        round_ended.connect(tournament_watchers.on_round_ended, dispatch_uid="tables.tournaments")
        round_opened.connect(tournament_alerts.on_round_opened, dispatch_uid="tables.tournaments")
        tournament_changed.connect(
            tournament_watchers.on_tournament_change, dispatch_uid="tables.tournaments"
        )
