"""The yardstick of bench/throughput.py: a bare Flask route returning constant JSON.

`/bare` returns a small body; `/bare?size=N` a body of N bytes (a constant dict made once per size), so that
the strict bench compares an endpoint with a bare route that sends as much as it does. `&headers=api`, `pick` or
`page` adds the headers the service sends with a stored JSON response, an unseeded random pick or a page (CORS,
caching, language, nosniff, and a page's Content-Security-Policy), as a Flask route adds headers, so that the
strict bench can also tell what those headers cost from what the service's own code costs.
"""

from flask import Flask, jsonify, request

from kaomoji_api.http import CONTENT_SECURITY_POLICY, CORS_HEADERS, NOSNIFF

app = Flask(__name__)
PAYLOAD = {"data": [{"id": 1, "text": "(◕‿◕)", "category": "happy"}]}
SIZED: dict[int, dict] = {}
ETAG = ("ETag", '"%s"' % ("0" * 40))  # as long as the service's (a SHA-1 in hex)
LANGUAGE = ("Content-Language", "en")
HEADERS = {
    "api": [*CORS_HEADERS, ("Cache-Control", "public, max-age=86400"), ETAG, NOSNIFF, LANGUAGE, ("Vary", "Accept-Language")],
    "pick": [*CORS_HEADERS, ("Cache-Control", "no-store"), NOSNIFF, LANGUAGE, ("Vary", "Accept-Language")],
    "page": [*CORS_HEADERS, ("Cache-Control", "public, max-age=3600"), ETAG, NOSNIFF, CONTENT_SECURITY_POLICY, LANGUAGE],
}


@app.get("/bare")
def bare():
    size = request.args.get("size", type=int)
    if not size:
        return jsonify(PAYLOAD)
    if size not in SIZED:
        # jsonify adds a newline: the padding makes the whole body `size` bytes.
        SIZED[size] = {"data": "x" * max(0, size - len('{"data":""}\n'))}
    # Looked for first: MultiDict.get finds an absent key by raising and catching an exception, which cost this route
    # a few microseconds a request (the service avoids them: tests/test_api.py) until session 21.
    headers = HEADERS.get(request.args["headers"]) if "headers" in request.args else None
    return (jsonify(SIZED[size]), headers) if headers else jsonify(SIZED[size])
