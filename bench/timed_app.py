"""A WSGI app with the CPU time of its calls added up inside its worker: what bench/ab.py reads beside requests per
second.

    TIMED_APP=wsgi:app TIMED_ROOT=/a/tree PYTHONPATH=bench gunicorn timed_app:app

TIMED_APP names the app as gunicorn would, imported from the tree TIMED_ROOT. Each call's thread CPU time is added up:
the app's code (Flask's and the view's), without what gunicorn and the kernel spend on the request, which weighs the
same for every app and makes most of the noise of requests per second. GET /__timing answers "calls seconds" and
starts the count again.
"""

from __future__ import annotations

import importlib
import os
import sys
import time

sys.path.insert(0, os.environ["TIMED_ROOT"])
_module, _name = os.environ["TIMED_APP"].split(":")
_app = getattr(importlib.import_module(_module), _name)
_calls, _seconds = 0, 0.0


def app(environ, start_response):
    global _calls, _seconds
    if environ["PATH_INFO"] == "/__timing":
        body = f"{_calls} {_seconds}".encode()
        _calls, _seconds = 0, 0.0
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
        return [body]
    started = time.thread_time()
    body = _app(environ, start_response)
    _seconds += time.thread_time() - started
    _calls += 1
    return body
