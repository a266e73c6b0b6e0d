"""The yardstick of bench/throughput.py: a bare Flask route returning constant JSON."""

from flask import Flask, jsonify

app = Flask(__name__)
PAYLOAD = {"data": [{"id": 1, "text": "(◕‿◕)", "category": "happy"}]}


@app.get("/bare")
def bare():
    return jsonify(PAYLOAD)
