#!/usr/bin/python3
"""Checks the test S3 server (tests/s3/tests3.py) with boto3, the official AWS SDK for Python (Debian's python3-boto3),
doing the operations Ingot's S3 store does: if the fake answers these as boto3 expects from S3, Ingot's tests against
it mean something. Also: a wrong secret, a wrong session token and a tampered body are refused, and a 503 SlowDown is
retried by boto3 as by any S3 client. Exit 0 when all hold; the first failure is printed.
  /usr/bin/python3 tests/s3/conformance.py
"""
import base64
import hashlib
import os
import subprocess
import sys
import tempfile
import time

import boto3
import botocore
from botocore.config import Config

HERE = os.path.dirname(os.path.abspath(__file__))


def start(tmp, *extra):
    port_file = os.path.join(tmp, "port-%d" % time.monotonic_ns())
    p = subprocess.Popen([sys.executable, os.path.join(HERE, "tests3.py"), "--access", "AKIDINGOT", "--secret",
                          "s3cr3t/+=", "--token", "tok", "--port-file", port_file, "--bucket", "team-cache", *extra])
    for _ in range(200):
        if os.path.exists(port_file):
            break
        time.sleep(0.05)
    with open(port_file) as f:
        return p, "http://127.0.0.1:" + f.read()


def client(url, secret="s3cr3t/+=", token="tok", retries=0):
    return boto3.client("s3", endpoint_url=url, region_name="us-east-1", aws_access_key_id="AKIDINGOT",
                        aws_secret_access_key=secret, aws_session_token=token,
                        config=Config(s3={"addressing_style": "path"}, retries={"total_max_attempts": retries + 1, "mode": "standard"}))


def expect_error(code, fn):
    try:
        fn()
    except botocore.exceptions.ClientError as e:
        got = e.response["Error"]["Code"]
        assert got == code, "expected %s, got %s" % (code, got)
        return
    raise AssertionError("expected %s, the call succeeded" % code)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        server, url = start(tmp)
        try:
            s3 = client(url)
            prefix = "team/cache/neuronxcc-2.15.128.0+56dc5a86/"
            names = ["MODULE_1+aa", "MODULE_2+bb", "MODULE_3+c c", "MODULE_4+\u00e9"]
            for n in names:
                s3.put_object(Bucket="team-cache", Key=prefix + n + "/model.neff", Body=b"neff " + n.encode())
                s3.put_object(Bucket="team-cache", Key=prefix + n + "/model.done", Body=b"")
            s3.put_object(Bucket="team-cache", Key="team/cache-other/x", Body=b"not ours")
            # Paging with a delimiter: the module folders come as common prefixes, 3 a page.
            seen, token = [], None
            while True:
                kw = {"Bucket": "team-cache", "Prefix": prefix, "Delimiter": "/", "MaxKeys": 3}
                if token:
                    kw["ContinuationToken"] = token
                page = s3.list_objects_v2(**kw)
                seen += [p["Prefix"] for p in page.get("CommonPrefixes", [])]
                if not page["IsTruncated"]:
                    break
                token = page["NextContinuationToken"]
            assert seen == sorted(prefix + n + "/" for n in names), seen
            # The exact prefix: team/cache/ never lists team/cache-other/.
            keys = [o["Key"] for o in s3.list_objects_v2(Bucket="team-cache", Prefix="team/cache/")["Contents"]]
            assert len(keys) == 8 and all(k.startswith("team/cache/") for k in keys), keys
            # Ranged reads, whole reads, heads.
            key = prefix + "MODULE_3+c c/model.neff"
            assert s3.get_object(Bucket="team-cache", Key=key, Range="bytes=5-")["Body"].read() == b"MODULE_3+c c"
            assert s3.get_object(Bucket="team-cache", Key=key, Range="bytes=-3")["Body"].read() == b"c c"
            head = s3.head_object(Bucket="team-cache", Key=key)
            assert head["ContentLength"] == len(b"neff MODULE_3+c c")
            assert head["ETag"] == '"%s"' % hashlib.md5(b"neff MODULE_3+c c").hexdigest()
            expect_error("404", lambda: s3.head_object(Bucket="team-cache", Key=prefix + "nothing"))
            expect_error("NoSuchKey", lambda: s3.get_object(Bucket="team-cache", Key=prefix + "nothing"))
            expect_error("InvalidRange", lambda: s3.get_object(Bucket="team-cache", Key=key, Range="bytes=999-"))
            # Multipart: two parts, completed in order; the ETag is S3's md5-of-md5s with the part count.
            part1, part2 = os.urandom(5 << 20), os.urandom(1 << 20)
            big = prefix + "MODULE_5+big/model.neff"
            up = s3.create_multipart_upload(Bucket="team-cache", Key=big)["UploadId"]
            e1 = s3.upload_part(Bucket="team-cache", Key=big, UploadId=up, PartNumber=1, Body=part1)["ETag"]
            e2 = s3.upload_part(Bucket="team-cache", Key=big, UploadId=up, PartNumber=2, Body=part2)["ETag"]
            # ListParts (how an interrupted upload is resumed): both parts, their ETags and sizes.
            listed = s3.list_parts(Bucket="team-cache", Key=big, UploadId=up)["Parts"]
            assert [(p["PartNumber"], p["ETag"], p["Size"]) for p in listed] == [(1, e1, 5 << 20), (2, e2, 1 << 20)], listed
            done = s3.complete_multipart_upload(Bucket="team-cache", Key=big, UploadId=up,
                                                MultipartUpload={"Parts": [{"PartNumber": 1, "ETag": e1},
                                                                           {"PartNumber": 2, "ETag": e2}]})
            md5s = hashlib.md5(part1).digest() + hashlib.md5(part2).digest()
            assert done["ETag"] == '"%s-2"' % hashlib.md5(md5s).hexdigest(), done["ETag"]
            assert s3.get_object(Bucket="team-cache", Key=big)["Body"].read() == part1 + part2
            up = s3.create_multipart_upload(Bucket="team-cache", Key=big + ".2")["UploadId"]
            s3.abort_multipart_upload(Bucket="team-cache", Key=big + ".2", UploadId=up)
            expect_error("NoSuchUpload", lambda: s3.upload_part(Bucket="team-cache", Key=big + ".2", UploadId=up,
                                                                PartNumber=1, Body=b"x"))
            # A SHA-256 checksum with the object: checked on PutObject, given back with ChecksumMode=ENABLED.
            s3.put_object(Bucket="team-cache", Key=prefix + "sum/model.neff", Body=b"checked", ChecksumAlgorithm="SHA256")
            got = s3.get_object(Bucket="team-cache", Key=prefix + "sum/model.neff", ChecksumMode="ENABLED")
            assert got["ChecksumSHA256"] == base64.b64encode(hashlib.sha256(b"checked").digest()).decode(), got
            assert got["Body"].read() == b"checked"
            expect_error("BadDigest", lambda: s3.put_object(Bucket="team-cache", Key=prefix + "sum/x", Body=b"a",
                                                            ChecksumSHA256=base64.b64encode(hashlib.sha256(b"b").digest()).decode()))
            s3.delete_object(Bucket="team-cache", Key=prefix + "sum/model.neff")
            # DeleteObjects in a batch, then one DeleteObject.
            gone = s3.delete_objects(Bucket="team-cache", Delete={"Objects": [{"Key": prefix + "MODULE_1+aa/model.neff"},
                                                                              {"Key": prefix + "MODULE_1+aa/model.done"}]})
            assert sorted(d["Key"] for d in gone["Deleted"]) == [prefix + "MODULE_1+aa/model.done", prefix + "MODULE_1+aa/model.neff"]
            s3.delete_object(Bucket="team-cache", Key="team/cache-other/x")
            left = [o["Key"] for o in s3.list_objects_v2(Bucket="team-cache")["Contents"]]
            assert not any("MODULE_1+aa" in k or "cache-other" in k for k in left), left
            # Refusals: a wrong secret, a wrong token, another bucket.
            expect_error("SignatureDoesNotMatch", lambda: client(url, secret="wrong").list_objects_v2(Bucket="team-cache"))
            expect_error("InvalidToken", lambda: client(url, token="other").list_objects_v2(Bucket="team-cache"))
            expect_error("NoSuchBucket", lambda: s3.list_objects_v2(Bucket="other-bucket"))
        finally:
            server.kill()
        # The whole prefix without a delimiter, page by page (how Ingot lists a cache): boto3's paginator gets every
        # key once, in order, in ceil(n / page size) pages; with --seed-mtimes a seeded object was last modified when
        # its file was (an old lock, for clear-locks --older-than).
        seed = os.path.join(tmp, "seed")
        for i in range(25):
            path = os.path.join(seed, "team", "cache", "v", "MODULE_%02d+a" % i, "model.neff")
            os.makedirs(os.path.dirname(path))
            with open(path, "wb") as f:
                f.write(b"neff")
        old = time.time() - 3 * 3600
        os.utime(os.path.join(seed, "team", "cache", "v", "MODULE_07+a", "model.neff"), (old, old))
        server, url = start(tmp, "--seed", "team-cache=" + seed, "--page-size", "10", "--seed-mtimes")
        try:
            pages = list(client(url).get_paginator("list_objects_v2").paginate(Bucket="team-cache", Prefix="team/cache/"))
            assert len(pages) == 3, len(pages)
            objects = [o for page in pages for o in page["Contents"]]
            keys = [o["Key"] for o in objects]
            assert keys == sorted(keys) and len(set(keys)) == 25, keys
            when = {o["Key"]: o["LastModified"].timestamp() for o in objects}
            assert abs(when["team/cache/v/MODULE_07+a/model.neff"] - old) < 1, when
            assert abs(when["team/cache/v/MODULE_08+a/model.neff"] - time.time()) < 3600, when
        finally:
            server.kill()
        # A 503 SlowDown on every second request: boto3 retries and succeeds, as against S3.
        server, url = start(tmp, "--slowdown-every", "2")
        try:
            s3 = client(url, retries=3)
            for i in range(4):
                s3.put_object(Bucket="team-cache", Key="k%d" % i, Body=b"v")
            assert len(s3.list_objects_v2(Bucket="team-cache")["Contents"]) == 4
            expect_error("SlowDown", lambda: [client(url).list_objects_v2(Bucket="team-cache") for _ in range(2)])
        finally:
            server.kill()
        # STS AssumeRole, as botocore's STS client asks it: the source pair gets the role's temporary keys, which S3
        # takes; a wrong role and a wrong source secret are refused.
        role = "arn:aws:iam::123456789012:role/neuron-cache"
        server, url = start(tmp, "--sts-access", "AKIDSOURCE", "--sts-secret", "source/secret", "--role-arn", role)
        try:
            sts = boto3.client("sts", endpoint_url=url, region_name="us-east-1", aws_access_key_id="AKIDSOURCE",
                               aws_secret_access_key="source/secret")
            creds = sts.assume_role(RoleArn=role, RoleSessionName="conformance", DurationSeconds=900)["Credentials"]
            assert creds["AccessKeyId"] == "AKIDINGOT" and creds["SessionToken"] == "tok", creds
            s3 = boto3.client("s3", endpoint_url=url, region_name="us-east-1", aws_access_key_id=creds["AccessKeyId"],
                              aws_secret_access_key=creds["SecretAccessKey"], aws_session_token=creds["SessionToken"],
                              config=Config(s3={"addressing_style": "path"}))
            s3.put_object(Bucket="team-cache", Key="role/x", Body=b"by the role")
            expect_error("AccessDenied", lambda: sts.assume_role(RoleArn=role + "-other", RoleSessionName="other"))
            bad = boto3.client("sts", endpoint_url=url, region_name="us-east-1", aws_access_key_id="AKIDSOURCE",
                               aws_secret_access_key="wrong")
            expect_error("SignatureDoesNotMatch", lambda: bad.assume_role(RoleArn=role, RoleSessionName="other"))
        finally:
            server.kill()
        # A bucket in another region than the client's: botocore's S3 region redirector reads the answer (a 400
        # AuthorizationHeaderMalformed with <Region> and x-amz-bucket-region), signs again for eu-west-1, and succeeds.
        server, url = start(tmp, "--region", "eu-west-1")
        try:
            s3 = client(url)
            sent = []
            s3.meta.events.register("before-send.s3.ListObjectsV2", lambda request, **kw: sent.append(request.headers["Authorization"]))
            assert "Contents" not in s3.list_objects_v2(Bucket="team-cache")
            assert len(sent) == 2 and b"/us-east-1/" in sent[0] and b"/eu-west-1/" in sent[1], sent
        finally:
            server.kill()
    print("test S3 server: boto3 %s agrees" % boto3.__version__)


if __name__ == "__main__":
    main()
