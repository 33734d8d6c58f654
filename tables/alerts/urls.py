from django.urls import path

from tables.alerts import views

app_name = "alerts"

urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
