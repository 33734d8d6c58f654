from django.urls import path

from tables.accounts import views as account_views
from tables.alerts import views as alert_views
from tables.archive import views as archive_views
from tables.challenges import views as challenge_views
from tables.core import app_shell
from tables.guide import views as guide
from tables.play import views
from tables.practice import views as practice_views
from tables.ratings import views as player_views
from tables.social import views as social_views
from tables.tournaments import views as tournament_views
from tables.variants import staff_views as game_staff_views
from tables.variants import views as game_views

urlpatterns = [
    path("", views.home, name="home"),
    path("manifest.webmanifest", app_shell.manifest, name="manifest"),
    path("sw.js", app_shell.service_worker, name="service_worker"),
    path("new/", views.new_table, name="new_table"),
    path("t/<str:token>/", views.table_page, name="table"),
    path("t/<str:token>/note/", social_views.table_note, name="table_note"),
    path("t/<str:token>/<str:verb>/", views.table_action, name="table_action"),
    path("me/tables/", views.my_tables, name="my_tables"),
    path("me/profile/", views.profile, name="profile"),
    path("me/tokens/<int:token_id>/revoke/", views.revoke_token, name="revoke_token"),
    path("me/sessions/", account_views.sessions_page, name="sessions"),
    path("me/tokens/new/", account_views.create_token, name="create_token"),
    path("me/bot/", account_views.declare_bot_account, name="declare_bot_account"),
    path("me/delete/", account_views.delete_account, name="delete_account"),
    path("me/export/", account_views.data_export_page, name="data_export"),
    path("me/export/<str:key>/", account_views.data_export_download, name="data_export_download"),
    path("lobby/", views.lobby, name="lobby"),
    path("challenges/", challenge_views.challenges_page, name="challenges"),
    path(
        "challenges/<int:challenge_id>/<str:answer>/",
        challenge_views.answer_challenge,
        name="answer_challenge",
    ),
    path("matches/<int:match_id>/", archive_views.match_archive, name="match_archive"),
    path("matches/<int:match_id>/deals/<int:number>/", archive_views.deal_replay, name="deal_replay"),
    path("me/archive/", archive_views.my_archive, name="my_archive"),
    path("me/practice/", practice_views.my_practice, name="my_practice"),
    path("rules/", guide.rules_index, name="rules_index"),
    path("rules/<str:name>/", guide.rules_page, name="rules_page"),
    path("help/", guide.help_page, name="help"),
    path("players/<int:player_id>/", player_views.player, name="player"),
    path("players/<int:player_id>/versus/", social_views.versus_page, name="versus"),
    path("players/<int:player_id>/report/", social_views.report_page, name="report_player"),
    path("players/<int:player_id>/<str:action>/", social_views.player_action, name="player_action"),
    path("me/following/", social_views.following_page, name="following"),
    path("me/inbox/", alert_views.inbox_page, name="inbox"),
    path("me/inbox/<int:line_id>/", alert_views.inbox_open, name="inbox_open"),
    path("me/presence/", social_views.presence_setting, name="presence_setting"),
    path("leaderboard/", player_views.leaderboard, name="leaderboard"),
    path("tournaments/", tournament_views.tournaments_list, name="tournaments"),
    path("tournaments/new/", tournament_views.new_tournament, name="new_tournament"),
    path("tournaments/<str:token>/", tournament_views.tournament_page, name="tournament"),
    path(
        "tournaments/<str:token>/<str:action>/", tournament_views.tournament_action, name="tournament_action"
    ),
    path("g/<str:token>/", game_views.game_page, name="game"),
    path("g/<str:token>/panel/", game_views.game_panel, name="game_panel"),
    path("g/<str:token>/<str:action>/", game_views.game_action, name="game_action"),
    path("staff/replay/<int:deal_id>/", views.replay, name="replay"),
    path("staff/replay/game/<str:token>/", game_staff_views.game_replay, name="game_replay"),
]
