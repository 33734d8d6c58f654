"""The Celery app. Tasks take ids and call services; they never touch models directly.

Production runs workers (`celery -A config worker`) and exactly one beat (`celery -A config
beat`) against REDIS_URL; embedded mode (no REDIS_URL) is eager and tables.background.embedded runs the
same periodic tasks in the server's process.
"""

import logging
import os

from celery import Celery
from celery.worker.consumer import Consumer
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from tables.background import registry

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

# The queues, routes and beat schedule of every task: tables.background.registry. A worker
# started without -Q consumes every queue; production runs the push and reviews queues on
# workers of their own, never on the `-Q celery,clocks` workers of clocks and bots (README,
# "Production").
app.conf.task_queues = tuple(Queue(name) for name in registry.QUEUES)
app.conf.task_default_queue = registry.DEFAULT_QUEUE
app.conf.task_routes = registry.routes()
app.conf.beat_schedule = registry.beat_schedule()
