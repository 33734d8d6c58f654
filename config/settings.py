"""Ginmesa settings: embedded defaults for development, the environment for production.

Every variable is read through config.env and documented in README.md.
"""

from __future__ import annotations

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from . import env, vapid

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env.get_str("GINMESA_VAR_DIR", str(BASE_DIR / "var")) or BASE_DIR / "var")

DEBUG = env.get_bool("DEBUG", True)
_DEV_SECRET = "dev-only-insecure-key-ginmesa-do-not-use-in-production"
SECRET_KEY = env.get_str("SECRET_KEY", None if not DEBUG else _DEV_SECRET)
if not SECRET_KEY:
    raise ImproperlyConfigured(
        "Set SECRET_KEY to a long random string (DEBUG is off, so no default is used)."
    )
ALLOWED_HOSTS = env.get_list(
    "ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"] if DEBUG else []
)
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("Set ALLOWED_HOSTS to the comma-separated host names the site answers to.")
CSRF_TRUSTED_ORIGINS = env.get_list("CSRF_TRUSTED_ORIGINS", [])
SITE_URL = (env.get_str("SITE_URL", "http://127.0.0.1:8000") or "").rstrip("/")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",  # allauth.usersessions' own page (/accounts/sessions/) loads it
    "channels",
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "allauth.usersessions",
    "tables",
    "tables.alerts",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "tables.core.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "tables.core.middleware.RefuseNulCharactersMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "tables.accounts.middleware.SessionActivityMiddleware",
    "tables.core.middleware.GuestCookieMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Threads per server process that run HTTP requests (config/http.py); each holds at most one
# database connection during a request, so keep it below DATABASE_POOL_SIZE.
HTTP_THREADS = env.get_int("HTTP_THREADS", 4)

_DATABASE_URL = env.get_str("DATABASE_URL")
if _DATABASE_URL:
    DATABASES = {
        "default": env.parse_database_url(_DATABASE_URL, BASE_DIR, env.get_int("DATABASE_POOL_SIZE", 20))
    }
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(VAR_DIR / "db.sqlite3")}}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # WAL lets page reads proceed while a move commits; the timeout rides out short write locks.
    # IMMEDIATE: a transaction takes the write lock when it begins, so the move service's
    # lock-check-write cannot fail half-way with "database is locked" (SQLite ignores FOR UPDATE).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL;",
        "transaction_mode": "IMMEDIATE",
    }
    if env.get_str("REDIS_URL"):
        # With Redis the live tests start real Celery workers and daphne processes that must open
        # the test database too: a file, not SQLite's private in-memory database.
        DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / "test-db.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

REDIS_URL = env.check_redis_url(env.get_str("REDIS_URL"))

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env.get_str("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
# Following the confirmation link in the browser that signed up logs in and returns to the page of
# the sign-up (its ?next=, carried by allauth's pending login), instead of asking for the password again.
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
# Failed logins are counted per address (10 a minute) and per address and account (5 in 5
# minutes): config.accounts.AccountAdapter makes allauth's "key" the pair, where allauth's own is
# the account alone, from any address (anyone could then lock anyone out).
ACCOUNT_ADAPTER = "config.accounts.AccountAdapter"
ACCOUNT_RATE_LIMITS = {
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
}
# Two-factor login (docs/accounts.md): an authenticator app (TOTP) with recovery codes, and
# passkeys (WebAuthn), which also log in without a password where the browser offers one. A
# second factor's failures count as failed logins (allauth's "login_failed": 10 a minute from an
# address, 5 in 5 minutes for the account).
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes", "webauthn"]
MFA_PASSKEY_LOGIN_ENABLED = True
MFA_TOTP_ISSUER = "Ginmesa"
# Passkeys need a secure origin whose host is a domain: HTTPS, or http://localhost (make run
# HOST=localhost); not http://127.0.0.1, which browsers refuse as a passkey's relying party.
# Where the account is logged in (/me/sessions/): each session's browser, address and last request.
USERSESSIONS_TRACK_ACTIVITY = True
USERSESSIONS_ADAPTER = "config.accounts.UserSessionsAdapter"
# The proxies in front of daphne that append the client's address to X-Forwarded-For: the rate
# limits count the address the last trusted one saw (0: the connection's own address).
ALLAUTH_TRUSTED_PROXY_COUNT = env.get_int("TRUSTED_PROXY_COUNT", 0)

LANGUAGE_CODE = "es"
LANGUAGES = [("es", "Español"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

EMAIL_BACKEND = env.get_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env.get_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env.get_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env.get_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env.get_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env.get_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env.get_str("DEFAULT_FROM_EMAIL", "Ginmesa <noreply@ginmesa.localhost>")

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "config.channel_layer.BatchingPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": env.channel_prefix(REDIS_URL)},
        }
    }
    CACHES = {"default": {"BACKEND": "config.cache.ReusingRedisCache", "LOCATION": REDIS_URL}}
else:
    # A group membership lasts as long as its socket (sockets also re-join on each heartbeat).
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "channels.layers.InMemoryChannelLayer", "CONFIG": {"group_expiry": 7 * 86400}}
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: with Redis a real broker and workers; without it (make run) tasks run in the server's process.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "UTC"

# Live tables and alerts (tables.alerts, docs/live.md).
SWEEP_SECONDS = env.get_int("SWEEP_SECONDS", 2)
VAPID_PUBLIC_KEY = env.get_str("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = env.get_str("VAPID_PRIVATE_KEY", "")
if bool(VAPID_PUBLIC_KEY) != bool(VAPID_PRIVATE_KEY):
    raise ImproperlyConfigured("Set both VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (a key pair), or neither.")
# Embedded mode (no DATABASE_URL: the SQLite file in VAR_DIR) makes a key pair of its own beside
# that file on first start and reuses it; production never invents one: without both keys in
# its environment, web push is off and `manage.py check` says so (tables.alerts.checks).
if not _DATABASE_URL and not VAPID_PUBLIC_KEY:
    VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY = vapid.embedded_keys(VAR_DIR)
VAPID_SUBJECT = env.get_str("VAPID_SUBJECT", "mailto:noreply@ginmesa.localhost")
ALERT_EMAIL_AWAY_SECONDS = env.get_int("ALERT_EMAIL_AWAY_SECONDS", 600)
# The browsers' push services a subscription may point at: a host equal to one of these or
# under it (tables.alerts.push.check_endpoint; never a private or loopback address anyway).
PUSH_SERVICE_HOSTS = env.get_list(
    "PUSH_SERVICE_HOSTS",
    [
        "fcm.googleapis.com",  # Chrome, Edge on Android, Opera, Samsung Internet
        "android.googleapis.com",  # older Chrome subscriptions
        "updates.push.services.mozilla.com",  # Firefox
        "notify.windows.com",  # Edge on Windows (WNS: *.notify.windows.com)
        "push.apple.com",  # Safari (web.push.apple.com, *.push.apple.com)
    ],
)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.get_str("LOG_LEVEL", "INFO")},
    # "django" gets no handler of its own: Django's default one printed each record a second
    # time beside the root's.
    "loggers": {"django": {"level": "INFO"}, "django.db.backends": {"level": "INFO"}},
}

if not DEBUG:
    SESSION_COOKIE_SECURE = env.get_bool("SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # Strict-Transport-Security on every HTTPS answer (Django's SecurityMiddleware sends it only
    # over HTTPS). With DEBUG on none is sent, so http://127.0.0.1 keeps working (make run).
    SECURE_HSTS_SECONDS = env.get_int("SECURE_HSTS_SECONDS", 31_536_000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.get_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
    SECURE_HSTS_PRELOAD = env.get_bool("SECURE_HSTS_PRELOAD", False)
    if SECURE_HSTS_SECONDS < 0:
        raise ImproperlyConfigured("SECURE_HSTS_SECONDS must be 0 (no HSTS) or more seconds.")
    if SECURE_HSTS_PRELOAD and not (SECURE_HSTS_INCLUDE_SUBDOMAINS and SECURE_HSTS_SECONDS >= 31_536_000):
        raise ImproperlyConfigured(
            "SECURE_HSTS_PRELOAD needs SECURE_HSTS_INCLUDE_SUBDOMAINS=true and SECURE_HSTS_SECONDS of "
            "at least 31536000 (browsers' preload lists refuse less)."
        )
