"""The yardstick of bench/throughput.py: a bare Flask route returning constant JSON.

`/bare` returns a small body; `/bare?size=N` a body of N bytes (a constant dict made once per size), so that
the strict bench compares an endpoint with a bare route that sends as much as it does.
"""

from flask import Flask, jsonify, request

app = Flask(__name__)
PAYLOAD = {"data": [{"id": 1, "text": "(◕‿◕)", "category": "happy"}]}
SIZED: dict[int, dict] = {}


@app.get("/bare")
def bare():
    size = request.args.get("size", type=int)
    if not size:
        return jsonify(PAYLOAD)
    if size not in SIZED:
        # jsonify adds a newline: the padding makes the whole body `size` bytes.
        SIZED[size] = {"data": "x" * max(0, size - len('{"data":""}\n'))}
    return jsonify(SIZED[size])
