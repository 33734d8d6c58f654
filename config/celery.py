"""The Celery app. Tasks take ids and call services; they never touch models directly."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("ginmesa")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
