"""gunicorn settings of the service: `gunicorn -c deploy/gunicorn.conf.py wsgi:app` (README "Deployment").

The command line wins over this file; KAOMOJI_BIND and WEB_CONCURRENCY change the address and workers.
"""

import contextlib
import os
import tempfile

# Loopback: nginx (deploy/nginx.conf) is the only client, and the app trusts its X-Forwarded-For.
bind = os.environ.get("KAOMOJI_BIND", "127.0.0.1:8000")
# A request is some reads of memory (rarely SQLite) and some JSON: CPU work, one sync worker per core. nginx
# buffers slow clients.
# Measured with bench/throughput.py --workers N (README "Speed and memory") on 2 cores: 3 or 4 sync workers did no better
# than 2; gthread (2 workers x 4 threads) was slower on every endpoint and used ~10 MB more per worker.
workers = int(os.environ.get("WEB_CONCURRENCY", max(2, os.cpu_count() or 2)))
worker_class = "sync"
timeout = 30  # a worker silent this long is killed and replaced
# Above nginx's 4 KB (deploy/nginx.conf), so nginx refuses an oversized request line in JSON before
# gunicorn would in HTML.
limit_request_line = 8190
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


def on_exit(server):
    path = os.environ.get(BUCKETS_VARIABLE, "")
    # Only the file on_starting made; one named by the operator stays.
    if os.path.dirname(path) == BUCKETS_DIR and os.path.basename(path).startswith(BUCKETS_PREFIX):
        with contextlib.suppress(FileNotFoundError):
            os.remove(path)
