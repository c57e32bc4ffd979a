"""Serves the Django app over FastCGI with flup, as Django's removed `runfcgi` did (seed 003).

    python fcgi.py --method prefork|threaded --port PORT

Django 1.2's `runfcgi` defaults are kept: at least 2 and at most 5 spare workers, at most 50 in all.
nginx talks to it with `fastcgi_pass 127.0.0.1:PORT`.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_project.settings")

from django.core.wsgi import get_wsgi_application  # noqa: E402

MIN_SPARE, MAX_SPARE, MAX_CHILDREN = 2, 5, 50


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--method", choices=["prefork", "threaded"], required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    application = get_wsgi_application()
    address = ("127.0.0.1", args.port)
    if args.method == "prefork":
        from flup.server.fcgi_fork import WSGIServer

        server = WSGIServer(
            application, bindAddress=address, minSpare=MIN_SPARE, maxSpare=MAX_SPARE, maxChildren=MAX_CHILDREN
        )
    else:
        from flup.server.fcgi import WSGIServer

        server = WSGIServer(
            application, bindAddress=address, minSpare=MIN_SPARE, maxSpare=MAX_SPARE, maxThreads=MAX_CHILDREN
        )
    server.run()


if __name__ == "__main__":
    main()
