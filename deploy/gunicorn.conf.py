"""gunicorn settings of the service: `gunicorn -c deploy/gunicorn.conf.py wsgi:app` (README "Deployment").

The command line wins over this file; KAOMOJI_BIND and WEB_CONCURRENCY change the address and workers.
"""

import contextlib
import json
import os
import re
import tempfile

from gunicorn import util
from gunicorn.http.message import Request
from gunicorn.http.parser import RequestParser
from werkzeug.http import HTTP_STATUS_CODES

# Loopback: nginx (deploy/nginx.conf) is the only client, and the app trusts its X-Forwarded-For.
bind = os.environ.get("KAOMOJI_BIND", "127.0.0.1:8000")
# A request is some reads of memory (rarely SQLite) and some JSON: CPU work, one sync worker per core. nginx
# buffers slow clients.
# Measured with bench/throughput.py --workers N (README "Speed and memory") on 2 cores: 3 or 4 sync workers did no better
# than 2; gthread (2 workers x 4 threads) was slower on every endpoint and used ~10 MB more per worker.
workers = int(os.environ.get("WEB_CONCURRENCY", max(2, os.cpu_count() or 2)))
# Each worker keeps its own per-minute counts under KAOMOJI_RATELIMIT_STORAGE_URI=memory:// (the default),
# each minute starting at a client's first request to that worker: the limits and the Retry-After a client
# is told differ from worker to worker. For exact figures, set redis:// (deploy/env.example, README
# "Rate limits").
worker_class = "sync"
timeout = 30  # a worker silent this long is killed and replaced
# Above nginx's 4 KB (deploy/nginx.conf), so behind nginx an oversized request line is refused there.
limit_request_line = 8190
# Its parser (the Python one, which PercentEncodedTargetRequest below extends; the optional C parser,
# gunicorn_h1c, would skip it).
http_parser = "python"
graceful_timeout = 30  # on HUP or TERM, old workers get this long to finish their requests
keepalive = 5  # nginx keeps its upstream connections open (deploy/nginx.conf: keepalive)
# The app is loaded by each worker, not by the master, so that HUP starts workers with the code and
# settings now on disk and drains the old ones: a graceful reload.
preload_app = False
accesslog = "-"  # stdout: the journal under systemd
errorlog = "-"
# %(h)s is the client (after ProxyFix); %(p)s the worker's process id.
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s" %(p)s'
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
# Managed by signals (HUP reload, TERM stop) and systemd; the control socket in $HOME would be shared by
# every gunicorn the user runs.
control_socket_disable = True

# The workers keep the gate buckets (kaomoji_api/gate.py) in one file, so that together
# they let a client through at the configured rate, not at that rate per worker.
BUCKETS_VARIABLE = "KAOMOJI_GATE_BUCKETS_FILE"
BUCKETS_PREFIX = "kaomoji-gate-buckets-"
BUCKETS_DIR = worker_tmp_dir or tempfile.gettempdir()


def on_starting(server):
    if not os.environ.get(BUCKETS_VARIABLE):
        handle, path = tempfile.mkstemp(prefix=BUCKETS_PREFIX, dir=BUCKETS_DIR)
        os.close(handle)
        # Workers are forked from this process after this hook, so they inherit the variable.
        os.environ[BUCKETS_VARIABLE] = path


def post_request(worker, req, environ, resp):
    # The heap's freed pages go back to the system after a long request, else once a second (kaomoji_api.current.trim_heap).
    # A worker that swapped to a new catalog is replaced by a fresh one after this request: a fresh worker
    # needs ~15 MB less than one that freed an old catalog (kaomoji_api.current.restart_due says why and
    # when). gunicorn's own max_requests ends a worker the same way, after the request it is answering.
    from kaomoji_api.current import restart_due, trim_heap

    trim_heap()
    if restart_due(worker.wsgi):
        worker.log.info("catalog replaced: worker %s restarts to give its memory back", worker.pid)
        worker.alive = False


def on_exit(server):
    path = os.environ.get(BUCKETS_VARIABLE, "")
    # Only the file on_starting made; one named by the operator stays.
    if os.path.dirname(path) == BUCKETS_DIR and os.path.basename(path).startswith(BUCKETS_PREFIX):
        with contextlib.suppress(FileNotFoundError):
            os.remove(path)


# gunicorn refuses a request target with bytes outside printable ASCII (RFC 9112), but curl and other
# clients send `?q=猫` unencoded. Such a request means its percent-encoded form, so it is parsed as that:
# the same request whether it comes straight or through nginx (which passes the client's request line
# upstream unchanged: proxy_pass without a URI), which is why this is done here and not in nginx, whose
# configuration can percent-encode a path but not a query. Werkzeug then decodes it as it would the
# encoded form. gunicorn has no setting for it; its parser makes each request from RequestParser.mesg_class.
NON_ASCII = re.compile(rb"[\x80-\xff]")


class PercentEncodedTargetRequest(Request):
    def parse_request_line(self, line_bytes):
        # Split as gunicorn does (method, target, version); only the target is encoded, so a method or
        # version with such bytes is refused as before.
        bits = line_bytes.split(b" ", 2)
        if len(bits) == 3:
            bits[1] = NON_ASCII.sub(lambda byte: b"%%%02X" % byte[0][0], bits[1])
        super().parse_request_line(b" ".join(bits))


RequestParser.mesg_class = PercentEncodedTargetRequest


# gunicorn answers the requests it refuses itself (a malformed request line or header, too many or too
# long headers, an unknown Transfer-Encoding) with an HTML page. Every one is written by
# gunicorn.util.write_error, for which gunicorn has no setting or hook, so it is replaced: the same
# status, as problem+json with CORS, like every other error of the service (kaomoji_api/errors.py).
def write_problem(sock, status_int, reason, mesg):
    body = json.dumps({
        "type": "about:blank", "title": HTTP_STATUS_CODES.get(status_int, reason), "status": status_int,
        "detail": mesg or reason,
    }).encode()
    head = (
        f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
        f"Content-Length: {len(body)}\r\nCache-Control: no-store\r\nAccess-Control-Allow-Origin: *\r\n\r\n"
    )
    util.write_nonblock(sock, head.encode("latin-1") + body)


util.write_error = write_problem
