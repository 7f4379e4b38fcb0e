#!/usr/bin/python3
"""What an S3 cache holds, and a compile on another machine taking an entry's lock, through boto3 (Debian's
python3-boto3, the official AWS SDK for Python), so tst_fleetgc checks the test S3 server's bucket with the client
people use rather than with Ingot's own.
  s3_objects.py ENDPOINT list BUCKET PREFIX   -> one "KEY<TAB>SIZE" line per object below PREFIX
  s3_objects.py ENDPOINT put BUCKET KEY       -> an empty object at KEY
The keys come from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, as for any boto3 program.
"""
import os
import sys

import boto3
from botocore.config import Config


def main():
    endpoint, action, bucket, name = sys.argv[1:5]
    s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                      aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"],
                      aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"],
                      config=Config(s3={"addressing_style": "path"}))
    if action == "list":
        for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=name):
            for o in page.get("Contents", []):
                print("%s\t%d" % (o["Key"], o["Size"]))
    elif action == "put":
        s3.put_object(Bucket=bucket, Key=name, Body=b"")
    else:
        sys.exit("unknown action " + action)


if __name__ == "__main__":
    main()
