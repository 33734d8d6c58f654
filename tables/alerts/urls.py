from django.urls import path

from . import views

app_name = "alerts"

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
