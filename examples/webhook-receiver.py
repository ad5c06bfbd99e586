#!/usr/bin/env python3
"""A small smsgw webhook receiver that verifies Standard Webhooks signatures.

Python's standard library only. It listens on loopback, checks each request's
webhook-signature (HMAC-SHA256 of "webhook-id.webhook-timestamp.body" under the
whsec_ secret, compared in constant time) and its timestamp (at most 5 minutes
off), answers 401 to anything that does not verify, and prints one JSON line
per request. smsgw delivers at least once: a request whose webhook-id was seen
before is answered 200 again and marked as a duplicate, never handled twice.

    python3 examples/webhook-receiver.py --port 8650 --secret whsec_...   # or WEBHOOK_SECRET=...

For tests and demos: --fail-every N answers 500 to every Nth request (smsgw
retries it with the same webhook-id), --gone answers 410 (smsgw disables the
endpoint), --delay SECONDS answers each request that much later (a slow
receiver), --output FILE appends the JSON lines to FILE instead of stdout.
"""

import argparse
import base64
import hashlib
import hmac
import json
import os
import signal
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

TOLERANCE_SECONDS = 300


def secret_key(secret):
    """The HMAC key of a whsec_ secret: the bytes its base64 stands for."""
    if not secret.startswith("whsec_"):
        raise ValueError("the secret must start with whsec_")
    return base64.b64decode(secret[len("whsec_"):])


def verify(key, webhook_id, timestamp, body, signatures, now=None):
    """Whether one of the space-separated v1 signatures signs id.timestamp.body under key."""
    now = time.time() if now is None else now
    try:
        if abs(now - int(timestamp)) > TOLERANCE_SECONDS:
            return False
    except ValueError:
        return False
    content = webhook_id.encode() + b"." + timestamp.encode() + b"." + body
    expected = base64.b64encode(hmac.new(key, content, hashlib.sha256).digest()).decode()
    found = False
    for signature in signatures.split(" "):
        version, _, value = signature.partition(",")
        if version == "v1" and hmac.compare_digest(value, expected):
            found = True
    return found


class Receiver(BaseHTTPRequestHandler):
    key = b""
    seen = set()
    requests = 0
    fail_every = 0
    gone = False
    delay = 0.0
    output = sys.stdout

    def do_POST(self):
        Receiver.requests += 1
        length = int(self.headers.get("content-length", "0"))
        body = self.rfile.read(length)
        webhook_id = self.headers.get("webhook-id", "")
        verified = verify(
            Receiver.key, webhook_id, self.headers.get("webhook-timestamp", ""), body,
            self.headers.get("webhook-signature", ""))
        if not verified:
            status = 401
        elif Receiver.gone:
            status = 410
        elif Receiver.fail_every and Receiver.requests % Receiver.fail_every == 0:
            status = 500
        else:
            status = 200
        duplicate = status == 200 and webhook_id in Receiver.seen
        line = {"status": status, "webhookId": webhook_id, "verified": verified, "duplicate": duplicate}
        if status == 200:
            Receiver.seen.add(webhook_id)
            line["event"] = json.loads(body)
        Receiver.output.write(json.dumps(line, sort_keys=True) + "\n")
        Receiver.output.flush()
        time.sleep(Receiver.delay)
        self.send_response(status)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, format, *args):
        pass  # one JSON line per request is the log


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8650, help="port on 127.0.0.1 (0 picks a free one)")
    parser.add_argument("--secret", default=os.environ.get("WEBHOOK_SECRET", ""), help="whsec_ secret (or WEBHOOK_SECRET)")
    parser.add_argument("--fail-every", type=int, default=0, help="answer 500 to every Nth request")
    parser.add_argument("--gone", action="store_true", help="answer 410 Gone to every verified request")
    parser.add_argument("--delay", type=float, default=0.0, help="answer each request this many seconds late")
    parser.add_argument("--output", help="append the JSON lines to this file")
    parser.add_argument("--port-file", help="write the port here once listening")
    arguments = parser.parse_args()
    Receiver.key = secret_key(arguments.secret)
    Receiver.fail_every = arguments.fail_every
    Receiver.gone = arguments.gone
    Receiver.delay = arguments.delay
    if arguments.output:
        Receiver.output = open(arguments.output, "a", encoding="utf-8")
    # Exit on SIGTERM even when started with it ignored or blocked (a background job of some
    # shells, a child of a process that blocks signals).
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM, signal.SIGINT])
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    server = HTTPServer(("127.0.0.1", arguments.port), Receiver)
    port = server.server_address[1]
    if arguments.port_file:
        with open(arguments.port_file + ".tmp", "w", encoding="utf-8") as file:
            file.write(str(port))
        os.replace(arguments.port_file + ".tmp", arguments.port_file)
    print(f"listening on http://127.0.0.1:{port}/", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except (KeyboardInterrupt, SystemExit):
        pass


if __name__ == "__main__":
    main()
