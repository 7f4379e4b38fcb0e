#!/usr/bin/python3
"""A stand-in for the EC2 instance metadata service (IMDSv2), on 127.0.0.1, for Ingot's tests: a fake, named as
such. PUT /latest/api/token needs X-aws-ec2-metadata-token-ttl-seconds and gives a token; every GET needs that
token (IMDSv1 requests get 401, as on an instance that requires v2). The role "ingot-test-role" has the keys given,
expiring --expires-in seconds after each request for them. GET /count (no token) says how many times keys were asked.
  /usr/bin/python3 tests/s3/imds_standin.py --access A --secret S --token T --port-file F [--expires-in 3600] [--no-role]
"""
import argparse
import datetime
import json
import os
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body=b""):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_PUT(self):
        if self.path != "/latest/api/token" or not self.headers.get("X-aws-ec2-metadata-token-ttl-seconds"):
            return self.send(400)
        token = secrets.token_hex(16)
        with self.server.lock:
            self.server.tokens.add(token)
        return self.send(200, token.encode())

    def do_GET(self):
        srv, opts = self.server, self.server.opts
        if self.path == "/count":
            return self.send(200, str(srv.asked).encode())
        if self.headers.get("X-aws-ec2-metadata-token") not in srv.tokens:
            return self.send(401)
        base = "/latest/meta-data/iam/security-credentials/"
        if self.path == base:
            return self.send(404) if opts.no_role else self.send(200, b"ingot-test-role")
        if self.path == base + "ingot-test-role" and not opts.no_role:
            with srv.lock:
                srv.asked += 1
            expires = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=opts.expires_in)
            return self.send(200, json.dumps({"Code": "Success", "Type": "AWS-HMAC", "AccessKeyId": opts.access,
                                              "SecretAccessKey": opts.secret, "Token": opts.token,
                                              "Expiration": expires.strftime("%Y-%m-%dT%H:%M:%SZ")}).encode())
        return self.send(404)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--access", required=True)
    ap.add_argument("--secret", required=True)
    ap.add_argument("--token", required=True)
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--expires-in", type=int, default=3600)
    ap.add_argument("--no-role", action="store_true")
    opts = ap.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.opts, server.tokens, server.asked, server.lock = opts, set(), 0, threading.Lock()
    with open(opts.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(opts.port_file + ".tmp", opts.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
