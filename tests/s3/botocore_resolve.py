"""Resolves AWS credentials and region with botocore (Debian's python3-botocore) for tst_awsconfig.

stdin: a JSON list of {"env": {...}, "profile": name or null}. stdout: one JSON line per case, {"access", "secret",
"token", "region"} (empty strings for none) or {"error": the exception's class}. The instance role is never asked
(AWS_EC2_METADATA_DISABLED), nor anything but the environment given.
"""
import json
import os
import sys

import botocore.session

for case in json.load(sys.stdin):
    os.environ.clear()
    os.environ.update(case["env"])
    os.environ["AWS_EC2_METADATA_DISABLED"] = "true"
    try:
        s = botocore.session.Session(profile=case.get("profile"))
        c = s.get_credentials()
        f = c.get_frozen_credentials() if c else None
        print(json.dumps({"access": f.access_key if f else "", "secret": f.secret_key if f else "",
                          "token": (f.token or "") if f else "", "region": s.get_config_variable("region") or ""}))
    except Exception as e:  # noqa: BLE001 - the class is the answer
        print(json.dumps({"error": type(e).__name__}))
