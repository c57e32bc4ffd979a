"""Serves the Django app over FastCGI with flup, as Django's removed `runfcgi` did (seed 003).

    python fcgi.py --method prefork|threaded --port PORT

Django 1.2's `runfcgi` defaults are kept: at least 2 and at most 5 spare workers, at most 50 in all.
nginx talks to it with `fastcgi_pass 127.0.0.1:PORT`.
"""
import argparse
import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_project.settings")

from django.core.wsgi import get_wsgi_application  # noqa: E402

MIN_SPARE, MAX_SPARE, MAX_CHILDREN = 2, 5, 50


def install_prefork_stop(server):
    """Make SIGTERM stop flup's prefork master.

    flup's own handler only clears a flag, and since Python 3.5 (PEP 475) the select() it interrupts is
    resumed without a timeout, so the master would never look at the flag. This handler ends the children
    the way flup's shutdown does (close their sockets, SIGINT the busy ones, SIGKILL what is left after 10 s)
    and then leaves run().
    """
    original = server._installSignalHandlers

    def install():
        original()

        def stop(signum, frame):
            server._keepGoing = False
            server._cleanupChildren()
            sys.exit(0)

        signal.signal(signal.SIGTERM, stop)

    server._installSignalHandlers = install


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
        install_prefork_stop(server)
    else:
        from flup.server.fcgi import WSGIServer

        server = WSGIServer(
            application, bindAddress=address, minSpare=MIN_SPARE, maxSpare=MAX_SPARE, maxThreads=MAX_CHILDREN
        )
    server.run()


if __name__ == "__main__":
    main()
