"""Settings of the closed-loop Django app: seed 001's REST framework quickstart (`/users/`) and seed 003's
page with a form (`/`). Production-like: DEBUG off, no sessions or admin, SQLite at MEASURE_DB."""
import os

SECRET_KEY = "measure-closed-loop-not-secret"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "site_project.urls"
WSGI_APPLICATION = "site_project.wsgi.application"
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "rest_framework",
    "quickstart",
]
MIDDLEWARE = ["django.middleware.common.CommonMiddleware"]
TEMPLATES = [{"BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [], "APP_DIRS": True}]
# One fresh database per run (the harness runs `migrate` into the run's folder), as seed 003 cleared its
# table before every test. Seed 003 used MySQL; SQLite needs no server.
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("MEASURE_DB", "/tmp/measure-closed.sqlite3"),
        "OPTIONS": {"timeout": 30},
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
USE_TZ = True
REST_FRAMEWORK = {"DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"]}
LOGGING = {"version": 1, "disable_existing_loggers": False, "root": {"level": "WARNING"}}
