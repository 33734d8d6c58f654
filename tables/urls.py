from django.urls import path

from . import archive_views, challenge_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.new_table, name="new_table"),
    path("t/<str:token>/", views.table_page, name="table"),
    path("t/<str:token>/<str:verb>/", views.table_action, name="table_action"),
    path("me/tables/", views.my_tables, name="my_tables"),
    path("me/profile/", views.profile, name="profile"),
    path("me/tokens/<int:token_id>/revoke/", views.revoke_token, name="revoke_token"),
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
    path("staff/replay/<int:deal_id>/", views.replay, name="replay"),
]
