"""Seed 002's plain WSGI app, byte for byte the same response: 14 bytes of text, nothing else.

Kept free of any framework so the closed-loop plans that use it measure the server and the interpreter.
"""


def application(environ, start_response):
    body = b"Hello, World!\n"
    start_response(
        "200 OK",
        [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))],
    )
    return [body]
