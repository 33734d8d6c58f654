"""The Celery app. Tasks take ids and call services; they never touch models directly.

Production runs workers (`celery -A config worker`) and exactly one beat (`celery -A config
beat`) against REDIS_URL; embedded mode (no REDIS_URL) is eager and tables.embedded runs the
same periodic tasks in the server's process.
"""

import logging
import os

from celery import Celery
from celery.worker.consumer import Consumer
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from tables.periodic import periodic_tasks

log = logging.getLogger(__name__)


class BrokerLossConsumer(Consumer):
    """Celery's consumer, made to survive a broker that vanished while messages were unacked.

    On a lost connection Celery 5.7.0 collects the connection and then closes it; closing its
    channel restores the unacked messages (reserved ETA tasks, the task in hand) through the
    transport already collected, which raises AttributeError, and the worker exits with
    "Unrecoverable error", leaving every clock to the sweeps of a worker that no longer exists
    (tests/faults/test_broker_lost.py). With the broker gone the restore cannot happen anyway:
    Redis hands such messages out again once their visibility timeout passes, and the deadlines
    live on the deals. So the error is logged and the consumer goes on to reconnect.
    """

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        try:
            super().on_connection_error_after_connected(exc)
        except AttributeError:
            log.warning("unacked messages not restored after the broker was lost", exc_info=True)


app = Celery("ginmesa")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.conf.worker_consumer = f"{__name__}:BrokerLossConsumer"
app.autodiscover_tasks()  # tables.apps imports the tasks too, in every Django process

PERIODIC_TASKS = periodic_tasks()
# Clocks have a queue of their own: a backlog of alerts or bot moves never delays a timeout.
# Web pushes too: each posts to outside servers (3 s timeout each), so a dead push service
# holds up only other pushes. A worker started without -Q consumes all three; production
# runs the push queue on workers of its own (see README, "Production").
CLOCK_QUEUE = "clocks"
PUSH_QUEUE = "push"
app.conf.task_queues = (Queue("celery"), Queue(CLOCK_QUEUE), Queue(PUSH_QUEUE))
app.conf.task_default_queue = "celery"
app.conf.task_routes = {
    "tables.tasks.expire_turn": {"queue": CLOCK_QUEUE},
    "tables.tasks.sweep_overdue": {"queue": CLOCK_QUEUE},
    "tables.tasks.send_push": {"queue": PUSH_QUEUE},
}

# A sweep that waited longer than its period is superseded by the next one: drop it.
app.conf.beat_schedule = {
    name.rsplit(".", 1)[1]: {"task": name, "schedule": seconds, "options": {"expires": seconds}}
    for name, seconds in PERIODIC_TASKS.items()
}
