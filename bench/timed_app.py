"""A WSGI app with the CPU time of its calls added up inside its worker: what bench/ab.py reads beside requests per
second.

    TIMED_APP=wsgi:app TIMED_ROOT=/a/tree PYTHONPATH=bench gunicorn timed_app:app

TIMED_APP names the app as gunicorn would, imported from the tree TIMED_ROOT. Each call's thread CPU time is added up:
the app's code (Flask's and the view's), without what gunicorn and the kernel spend on a request, which weighs the
same for every app and makes most of the noise of requests per second. GET /__timing answers "calls seconds" and
starts the count again.

TIMED_FUNCTIONS, when set, names functions whose calls are timed too, as `module:qualname` separated by spaces
(`kaomoji_api.pieces:ItemWriter.items kaomoji_api.web.render:cards`): each is replaced, where it is defined, by a
wrapper that adds up its CPU time, and /__timing answers a line "seconds name" for each after the first. A function
called by name through its module or class is timed; a copy imported with `from … import` before the wrapping is not
(the app is imported first, so such copies exist: name the function where it is looked up). Time spent in a timed
function called by another is counted in both. The wrapper's own cost (two reads of the thread's clock a call,
~0.56 µs each) is in the app call's time and, in part, the function's.
"""

from __future__ import annotations

import functools
import importlib
import os
import sys
import time

sys.path.insert(0, os.environ["TIMED_ROOT"])
_module, _name = os.environ["TIMED_APP"].split(":")
_app = getattr(importlib.import_module(_module), _name)
_calls, _seconds = 0, 0.0
_spent: dict[str, float] = {}


def _timed(name: str, function):
    clock = time.thread_time

    @functools.wraps(function)
    def timed(*args, **kwargs):
        started = clock()
        try:
            return function(*args, **kwargs)
        finally:
            _spent[name] += clock() - started

    return timed


for _function_name in os.environ.get("TIMED_FUNCTIONS", "").split():
    _owner_name, _, _qualname = _function_name.partition(":")
    *_path, _attribute = _qualname.split(".")
    _owner = importlib.import_module(_owner_name)
    for _part in _path:
        _owner = getattr(_owner, _part)
    _spent[_function_name] = 0.0
    setattr(_owner, _attribute, _timed(_function_name, getattr(_owner, _attribute)))


def app(environ, start_response):
    global _calls, _seconds
    if environ["PATH_INFO"] == "/__timing":
        body = "\n".join([f"{_calls} {_seconds}", *(f"{seconds} {name}" for name, seconds in _spent.items())]).encode()
        _calls, _seconds = 0, 0.0
        _spent.update(dict.fromkeys(_spent, 0.0))
        start_response("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
        return [body]
    started = time.thread_time()
    body = _app(environ, start_response)
    _seconds += time.thread_time() - started
    _calls += 1
    return body
