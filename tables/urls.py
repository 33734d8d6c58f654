from django.urls import path

from . import player_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.new_table, name="new_table"),
    path("t/<str:token>/", views.table_page, name="table"),
    path("t/<str:token>/<str:verb>/", views.table_action, name="table_action"),
    path("me/tables/", views.my_tables, name="my_tables"),
    path("me/profile/", views.profile, name="profile"),
    path("me/tokens/<int:token_id>/revoke/", views.revoke_token, name="revoke_token"),
    path("lobby/", views.lobby, name="lobby"),
    path("players/<int:player_id>/", player_views.player, name="player"),
    path("leaderboard/", player_views.leaderboard, name="leaderboard"),
    path("staff/replay/<int:deal_id>/", views.replay, name="replay"),
]
