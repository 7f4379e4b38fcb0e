"""Signs requests with botocore (Debian's python3-botocore, the AWS SDK for Python's signer) for tst_sigv4.

stdin: a JSON list of {"method", "url" (path and query already percent-encoded), "headers", "body" (text),
"access", "secret", "token", "region", "when" ("YYYYmmddTHHMMSSZ")}. stdout: one Authorization header per line.
The payload is signed (http:// URLs: botocore hashes the body), as Ingot does for requests it can hash.
"""
import datetime
import json
import sys
from unittest import mock

from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

for r in json.load(sys.stdin):
    when = datetime.datetime.strptime(r["when"], "%Y%m%dT%H%M%SZ")
    creds = Credentials(r["access"], r["secret"], r.get("token") or None)
    req = AWSRequest(method=r["method"], url=r["url"], headers=r["headers"], data=r["body"].encode())
    with mock.patch("botocore.auth.datetime") as d:
        d.datetime.utcnow.return_value = when
        d.datetime.now.return_value = when
        S3SigV4Auth(creds, "s3", r["region"]).add_auth(req)
    print(req.headers["Authorization"])
