#!/usr/bin/python3
"""A small S3-compatible server for Ingot's tests (issue 27): a fake, named as such, standing in for AWS S3.

It answers the subset Ingot uses, path-style (http://127.0.0.1:PORT/bucket/key), and checks every request's AWS
Signature Version 4 (header form) against the one key pair it was given: ListObjectsV2 (prefix, delimiter, max-keys,
continuation tokens, encoding-type=url), GetObject with Range, HeadObject, PutObject (Content-MD5 checked),
DeleteObject, DeleteObjects, x-amz-checksum-sha256 on PutObject (checked, kept, given back to a GetObject with
x-amz-checksum-mode: ENABLED), and multipart uploads (create, upload part, list parts, complete, abort). tests/s3/conformance.py
checks it with boto3, the official AWS SDK for Python (Debian's python3-boto3), doing what Ingot does.

Faults and hostile answers, for the client's tests:
  --slowdown-every N   every Nth request is answered 503 SlowDown (a client retries it)
  --page-size N        at most N keys a listing page (S3: 1000), so that small tests page
  --hostile MODE       endless-pages (every listing says there is more, with the same token), dotdot-keys (a key
                       "<prefix>../escape/model.neff" and one with a NUL-like %00 in every listing), huge-body (a
                       listing of 1 GiB of spaces), endless-fresh (the first page, then empty pages that each say
                       there is more, with a new token every time), bad-checksum (a GetObject's
                       x-amz-checksum-sha256 that is not the body's), redirect (every request is sent to 127.0.0.1:1 with a 301)

--sts-access A --sts-secret S [--role-arn ARN]: STS AssumeRole (POST /, signed for sts with that pair) answers the
S3 key pair and --token as the role's temporary keys (a stand-in for STS).
--region R: the buckets are in R; a request signed for another region gets S3's 400 AuthorizationHeaderMalformed
with <Region>R</Region> and x-amz-bucket-region (what a client's region redirector reads).
--journal FILE appends a line per write (PUT key, PART key n, COMPLETE key) and per object read (GET key offset);
with --journal-lists, a line per connection (CONNECTION), per request (REQUEST method) and per listing request
(LIST prefix|delimiter) too: a test counts requests against pages, or shows that nothing reached the server.
Objects live in memory; --seed BUCKET=DIR loads a folder's files as keys (their paths below DIR), with
--seed-mtimes last modified when their files were (else now). The port is
written to --port-file once the server listens.
  /usr/bin/python3 tests/s3/tests3.py --access AKID --secret SECRET [--token T] --port-file F [--seed b=dir]
"""
import argparse
import datetime
import hashlib
import hmac
import os
import threading
import urllib.parse
import xml.etree.ElementTree as ET
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

NS = "http://s3.amazonaws.com/doc/2006-03-01/"
MAX_BODY = 256 << 20  # a single request's body; larger is refused (EntityTooLarge)


class Store:
    def __init__(self):
        self.lock = threading.Lock()
        self.buckets = {}  # bucket -> {key: (bytes, etag, mtime)}
        self.uploads = {}  # upload id -> (bucket, key, {part: (bytes, md5 bytes)})
        self.requests = 0
        self.fresh = 0  # --hostile endless-fresh: the last token given
        self.journal = None
        self.checksums = {}  # (bucket, key) -> base64 sha256 given with the PutObject (x-amz-checksum-sha256)

    def note(self, line):
        # --journal: every write and every object read, in order (what a test asserts about Ingot's requests).
        if self.journal:
            with self.lock, open(self.journal, "a") as f:
                f.write(line + "\n")

    def put(self, bucket, key, data, etag=None, checksum=None, mtime=None):
        etag = etag or '"%s"' % hashlib.md5(data).hexdigest()
        with self.lock:
            self.buckets.setdefault(bucket, {})[key] = (data, etag, mtime or datetime.datetime.now(datetime.timezone.utc))
            if checksum:
                self.checksums[(bucket, key)] = checksum
            else:
                self.checksums.pop((bucket, key), None)
        return etag


def xml_response(root_tag, children):
    # S3's error documents carry no namespace; its results do.
    root = ET.Element(root_tag) if root_tag == "Error" else ET.Element(root_tag, xmlns=NS)

    def add(parent, items):
        for tag, value in items:
            el = ET.SubElement(parent, tag)
            if isinstance(value, list):
                add(el, value)
            else:
                el.text = value
    add(root, children)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root)


def iso(t):
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (t.microsecond // 1000)


def quote(s):
    return urllib.parse.quote(s, safe="-_.~")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "IngotTestS3/1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        if self.server.opts.journal_lists:  # any connection, an https one that never becomes a request included
            self.server.store.note("CONNECTION")

    # -- plumbing --------------------------------------------------------------------------------------------------
    def send(self, status, body=b"", headers=None, head=False):
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("x-amz-request-id", "INGOTTEST%08d" % self.server.store.requests)
        self.end_headers()
        if body and not head:
            self.wfile.write(body)

    def error(self, status, code, message, head=False):
        body = xml_response("Error", [("Code", code), ("Message", message)])
        self.send(status, body, {"Content-Type": "application/xml"}, head)

    def read_body(self):
        n = int(self.headers.get("Content-Length") or 0)
        if n > MAX_BODY:
            return None
        return self.rfile.read(n) if n else b""

    def verify(self, body, access=None, secret=None, service="s3", token=None):
        """SigV4, header form. None when the request is signed by the key pair; else (status, code, message)."""
        opts = self.server.opts
        access = opts.access if access is None else access
        secret = opts.secret if secret is None else secret
        token = opts.token if token is None else token
        auth = self.headers.get("Authorization", "")
        if not auth.startswith("AWS4-HMAC-SHA256 "):
            return 403, "AccessDenied", "Requests must be signed with AWS Signature Version 4."
        try:
            fields = dict(p.strip().split("=", 1) for p in auth[len("AWS4-HMAC-SHA256 "):].split(","))
            _, date, region, signed_service, term = fields["Credential"].split("/")
            signed = fields["SignedHeaders"].split(";")
            signature = fields["Signature"]
        except (KeyError, ValueError):
            return 400, "AuthorizationHeaderMalformed", "The Authorization header is malformed."
        if fields["Credential"].split("/")[0] != access:
            return 403, "InvalidAccessKeyId", "The AWS access key Id you provided does not exist in our records."
        amz_date = self.headers.get("x-amz-date", "")
        try:
            when = datetime.datetime.strptime(amz_date, "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
        except ValueError:
            return 403, "AccessDenied", "x-amz-date is missing or malformed."
        if abs((datetime.datetime.now(datetime.timezone.utc) - when).total_seconds()) > 900 or date != amz_date[:8]:
            return 403, "RequestTimeTooSkewed", "The difference between the request time and the current time is too large."
        if signed_service != service or term != "aws4_request" or "host" not in signed:
            return 400, "AuthorizationHeaderMalformed", "The credential scope is not for %s." % service
        if token and (self.headers.get("x-amz-security-token") != token or "x-amz-security-token" not in signed):
            return 403, "InvalidToken", "The provided token is malformed or otherwise invalid."
        payload = self.headers.get("x-amz-content-sha256", "")
        if not payload and service != "s3":  # other services sign the body's hash without sending it
            payload = hashlib.sha256(body).hexdigest()
        if payload.startswith("STREAMING-"):
            return 501, "NotImplemented", "Chunked uploads are not supported by this test server."
        if payload != "UNSIGNED-PAYLOAD" and payload != hashlib.sha256(body).hexdigest():
            return 400, "XAmzContentSHA256Mismatch", "The provided 'x-amz-content-sha256' header does not match what was computed."
        raw_path, _, raw_query = self.path.partition("?")
        pairs = []
        for item in raw_query.split("&") if raw_query else []:
            k, _, v = item.partition("=")
            pairs.append((quote(urllib.parse.unquote(k)), quote(urllib.parse.unquote(v))))
        canonical_headers = ""
        for name in signed:
            values = self.headers.get_all(name) or []
            canonical_headers += name + ":" + ",".join(" ".join(v.split()) for v in values) + "\n"
        canonical = "\n".join([self.command, raw_path, "&".join("%s=%s" % p for p in sorted(pairs)),
                               canonical_headers, ";".join(signed), payload])
        scope = "/".join([date, region, service, term])
        to_sign = "\n".join(["AWS4-HMAC-SHA256", amz_date, scope, hashlib.sha256(canonical.encode()).hexdigest()])
        key = ("AWS4" + secret).encode()
        for part in (date, region, service, term):
            key = hmac.new(key, part.encode(), hashlib.sha256).digest()
        want = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
        if not hmac.compare_digest(want, signature):
            return 403, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided."
        return None

    def route(self):
        """(bucket, key, query) of a path-style request."""
        raw_path, _, raw_query = self.path.partition("?")
        parts = raw_path.lstrip("/").split("/", 1)
        bucket = urllib.parse.unquote(parts[0])
        key = urllib.parse.unquote(parts[1]) if len(parts) > 1 else ""
        query = dict(urllib.parse.parse_qsl(raw_query, keep_blank_values=True))
        return bucket, key, query

    def handle_any(self):
        store, opts = self.server.store, self.server.opts
        with store.lock:
            store.requests += 1
            n = store.requests
        head = self.command == "HEAD"
        if opts.journal_lists:
            store.note("REQUEST %s" % self.command)
        if opts.hostile == "redirect":
            self.send(301, b"", {"Location": "http://127.0.0.1:1" + self.path})
            return
        body = self.read_body()
        if body is None:
            self.close_connection = True
            self.error(400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed object size.")
            return
        if opts.slowdown_every and n % opts.slowdown_every == 0:
            self.error(503, "SlowDown", "Please reduce your request rate.", head)
            return
        scope = self.headers.get("Authorization", "").split("Credential=", 1)[-1].split(",")[0].split("/")
        if opts.region and len(scope) == 5 and scope[3] == "s3" and scope[2] != opts.region:
            # As S3 answers a request signed for another region than the bucket's.
            body = xml_response("Error", [("Code", "AuthorizationHeaderMalformed"),
                                          ("Message", "The authorization header is malformed; the region '%s' is wrong; "
                                                      "expecting '%s'" % (scope[2], opts.region)),
                                          ("Region", opts.region)])
            self.send(400, body, {"Content-Type": "application/xml", "x-amz-bucket-region": opts.region}, head)
            return
        bad = None if (self.command == "POST" and self.path == "/" and opts.sts_access) else self.verify(body)
        if bad:
            self.error(*bad, head=head)
            return
        if self.command == "POST" and self.path == "/" and opts.sts_access:
            return self.assume_role(body, n)
        bucket, key, query = self.route()
        if bucket not in store.buckets:
            self.error(404, "NoSuchBucket", "The specified bucket does not exist.", head)
            return
        getattr(self, "op_" + self.command.lower())(bucket, key, query, body)

    do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = handle_any

    def assume_role(self, body, n):
        """STS AssumeRole (the query API, form body), signed for service sts with the --sts-access pair: answers the
        S3 key pair (and token) as the role's temporary keys."""
        opts, store = self.server.opts, self.server.store

        def sts_error(status, code, message):  # the query API's error document
            root = ET.Element("ErrorResponse", xmlns="https://sts.amazonaws.com/doc/2011-06-15/")
            err = ET.SubElement(root, "Error")
            for tag, value in (("Type", "Sender"), ("Code", code), ("Message", message)):
                ET.SubElement(err, tag).text = value
            ET.SubElement(root, "RequestId").text = "req-%d" % n
            return self.send(status, ET.tostring(root, xml_declaration=True, encoding="utf-8"), {"Content-Type": "text/xml"})

        bad = self.verify(body, opts.sts_access, opts.sts_secret, "sts", "")
        if bad:
            return sts_error(*bad)
        form = dict(urllib.parse.parse_qsl(body.decode()))
        if form.get("Action") != "AssumeRole" or form.get("Version") != "2011-06-15":
            return sts_error(400, "InvalidAction", "Only AssumeRole is answered here.")
        if opts.role_arn and form.get("RoleArn") != opts.role_arn:
            return sts_error(403, "AccessDenied", "Not authorized to perform sts:AssumeRole on that role.")
        if not form.get("RoleSessionName"):
            return sts_error(400, "ValidationError", "RoleSessionName is required.")
        store.note("ASSUME %s %s" % (form.get("RoleArn"), form.get("RoleSessionName")))
        expires = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=int(form.get("DurationSeconds", "3600")))
        root = ET.Element("AssumeRoleResponse", xmlns="https://sts.amazonaws.com/doc/2011-06-15/")
        result = ET.SubElement(root, "AssumeRoleResult")
        creds = ET.SubElement(result, "Credentials")
        for tag, value in (("AccessKeyId", opts.access), ("SecretAccessKey", opts.secret), ("SessionToken", opts.token),
                           ("Expiration", expires.strftime("%Y-%m-%dT%H:%M:%SZ"))):
            ET.SubElement(creds, tag).text = value
        user = ET.SubElement(result, "AssumedRoleUser")
        ET.SubElement(user, "AssumedRoleId").text = "AROATEST:" + form["RoleSessionName"]
        ET.SubElement(user, "Arn").text = (form.get("RoleArn") or "").replace(":role/", ":assumed-role/") + "/" + form["RoleSessionName"]
        meta = ET.SubElement(root, "ResponseMetadata")
        ET.SubElement(meta, "RequestId").text = "req-%d" % n
        return self.send(200, ET.tostring(root, xml_declaration=True, encoding="utf-8"), {"Content-Type": "text/xml"})

    # -- operations ------------------------------------------------------------------------------------------------
    def op_get(self, bucket, key, query, body, head=False):
        store, opts = self.server.store, self.server.opts
        if not key:
            return self.list_objects(bucket, query)
        if "uploadId" in query:
            return self.list_parts(bucket, key, query)
        with store.lock:
            obj = store.buckets[bucket].get(key)
        if obj is None:
            return self.error(404, "NoSuchKey", "The specified key does not exist.", head)
        data, etag, mtime = obj
        headers = {"ETag": etag, "Last-Modified": formatdate(mtime.timestamp(), usegmt=True),
                   "Content-Type": "application/octet-stream", "Accept-Ranges": "bytes"}
        with store.lock:
            checksum = store.checksums.get((bucket, key))
        if checksum and self.headers.get("x-amz-checksum-mode", "").upper() == "ENABLED" and not self.headers.get("Range"):
            headers["x-amz-checksum-sha256"] = checksum
            if opts.hostile == "bad-checksum":  # bytes that are not what was stored
                headers["x-amz-checksum-sha256"] = __import__("base64").b64encode(hashlib.sha256(b"tampered").digest()).decode()
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes="):
            a, _, b = rng[6:].partition("-")
            size = len(data)
            if a == "":
                start, end = max(0, size - int(b)), size - 1
            else:
                start, end = int(a), min(int(b), size - 1) if b else size - 1
            if start >= size or start > end:
                return self.error(416, "InvalidRange", "The requested range is not satisfiable", head)
            headers["Content-Range"] = "bytes %d-%d/%d" % (start, end, size)
            if not head:
                store.note("GET %s %d" % (key, start))
            return self.send(206, data[start:end + 1], headers, head)
        if not head:
            store.note("GET %s 0" % key)
        return self.send(200, data, headers, head)

    def list_parts(self, bucket, key, query):
        store, opts = self.server.store, self.server.opts
        with store.lock:
            up = store.uploads.get(query["uploadId"])
            parts = sorted(up[2].items()) if up and up[0] == bucket and up[1] == key else None
        if parts is None:
            return self.error(404, "NoSuchUpload", "The specified upload does not exist.")
        marker = int(query.get("part-number-marker") or 0)
        parts = [(n, p) for n, p in parts if n > marker]
        page, more = parts[:opts.page_size], len(parts) > opts.page_size
        items = [("Bucket", bucket), ("Key", key), ("UploadId", query["uploadId"]),
                 ("IsTruncated", "true" if more else "false")]
        if more:
            items.append(("NextPartNumberMarker", str(page[-1][0])))
        for n, (data, md5) in page:
            items.append(("Part", [("PartNumber", str(n)), ("ETag", '"%s"' % md5.hex()), ("Size", str(len(data)))]))
        return self.send(200, xml_response("ListPartsResult", items), {"Content-Type": "application/xml"})

    def op_head(self, bucket, key, query, body):
        if not key:
            return self.send(200, b"", {}, True)
        return self.op_get(bucket, key, query, body, head=True)

    def list_objects(self, bucket, query):
        store, opts = self.server.store, self.server.opts
        if query.get("list-type") != "2":
            return self.error(400, "InvalidArgument", "Only ListObjectsV2 (list-type=2) is supported here.")
        if opts.hostile == "huge-body":
            return self.send_huge()
        prefix, delimiter = query.get("prefix", ""), query.get("delimiter", "")
        max_keys = max(0, min(opts.page_size, int(query.get("max-keys", "1000"))))
        after = query.get("continuation-token") or query.get("start-after", "")
        url = query.get("encoding-type") == "url"
        enc = (lambda s: urllib.parse.quote(s, safe="/")) if url else (lambda s: s)
        if opts.journal_lists:
            store.note("LIST %s|%s" % (prefix, delimiter))
        with store.lock:
            keys = sorted(store.buckets[bucket].items(), key=lambda kv: kv[0].encode())
        if opts.hostile == "dotdot-keys":
            now = datetime.datetime.now(datetime.timezone.utc)
            keys = [(prefix + "../escape/model.neff", (b"x", '"x"', now)), (prefix + "a\x00b/model.neff", (b"x", '"x"', now))] + keys
        items, prefixes, truncated, last = [], [], False, ""
        for k, (data, etag, mtime) in keys:
            if not k.startswith(prefix) or (after and k.encode() <= after.encode() and opts.hostile != "dotdot-keys"):
                continue
            if delimiter:
                rest = k[len(prefix):]
                i = rest.find(delimiter)
                if i >= 0:
                    cp = prefix + rest[:i + len(delimiter)]
                    if prefixes and prefixes[-1] == cp:
                        continue
                    if after and cp.encode() <= after.encode():
                        continue
                    if len(items) + len(prefixes) >= max_keys:
                        truncated = True
                        break
                    prefixes.append(cp)
                    last = cp
                    continue
            if len(items) + len(prefixes) >= max_keys:
                truncated = True
                break
            items.append(("Contents", [("Key", enc(k)), ("LastModified", iso(mtime)), ("ETag", etag),
                                       ("Size", str(len(data))), ("StorageClass", "STANDARD")]))
            last = k
        children = [("Name", bucket), ("Prefix", enc(prefix)), ("KeyCount", str(len(items) + len(prefixes))),
                    ("MaxKeys", str(max_keys))]
        if delimiter:
            children.append(("Delimiter", enc(delimiter)))
        if url:
            children.append(("EncodingType", "url"))
        if opts.hostile == "endless-pages":
            truncated, last = True, "again"
        if opts.hostile == "endless-fresh":  # the first page as it is, then empty pages, each with a new token
            if query.get("continuation-token"):
                items, prefixes = [], []
            with store.lock:
                store.fresh += 1
                truncated, last = True, "fresh-%d" % store.fresh
        children[2] = ("KeyCount", str(len(items) + len(prefixes)))
        children.append(("IsTruncated", "true" if truncated else "false"))
        if query.get("continuation-token"):
            children.append(("ContinuationToken", query["continuation-token"]))
        if truncated:
            children.append(("NextContinuationToken", last))
        children += items + [("CommonPrefixes", [("Prefix", enc(p))]) for p in prefixes]
        return self.send(200, xml_response("ListBucketResult", children), {"Content-Type": "application/xml"})

    def send_huge(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(1 << 30))
        self.end_headers()
        chunk = b" " * (1 << 20)
        try:
            for _ in range(1 << 10):
                self.wfile.write(chunk)
        except OSError:
            pass
        self.close_connection = True

    def op_put(self, bucket, key, query, body):
        store = self.server.store
        md5 = self.headers.get("Content-MD5")
        if md5 and md5 != __import__("base64").b64encode(hashlib.md5(body).digest()).decode():
            return self.error(400, "BadDigest", "The Content-MD5 you specified did not match what we received.")
        if "uploadId" in query:
            with store.lock:
                up = store.uploads.get(query["uploadId"])
                if up is None:
                    return self.error(404, "NoSuchUpload", "The specified upload does not exist.")
                up[2][int(query["partNumber"])] = (body, hashlib.md5(body).digest())
            store.note("PART %s %s" % (key, query["partNumber"]))
            return self.send(200, b"", {"ETag": '"%s"' % hashlib.md5(body).hexdigest()})
        checksum = self.headers.get("x-amz-checksum-sha256")
        if checksum and checksum != __import__("base64").b64encode(hashlib.sha256(body).digest()).decode():
            return self.error(400, "BadDigest", "The SHA256 you specified did not match the calculated checksum.")
        etag = store.put(bucket, key, body, checksum=checksum)
        store.note("PUT %s" % key)
        return self.send(200, b"", {"ETag": etag})

    def op_delete(self, bucket, key, query, body):
        store = self.server.store
        with store.lock:
            if "uploadId" in query:
                store.uploads.pop(query["uploadId"], None)
            else:
                store.buckets[bucket].pop(key, None)
                store.checksums.pop((bucket, key), None)
        return self.send(204)

    def op_post(self, bucket, key, query, body):
        store = self.server.store
        if "delete" in query and not key:
            try:
                root = ET.fromstring(body)
            except ET.ParseError:
                return self.error(400, "MalformedXML", "The XML you provided was not well-formed.")
            quiet = (root.findtext("{%s}Quiet" % NS) or root.findtext("Quiet") or "").lower() == "true"
            deleted = []
            for obj in list(root.iter("{%s}Object" % NS)) + list(root.iter("Object")):
                k = obj.findtext("{%s}Key" % NS) or obj.findtext("Key") or ""
                with store.lock:
                    store.buckets[bucket].pop(k, None)
                    store.checksums.pop((bucket, k), None)
                if not quiet:
                    deleted.append(("Deleted", [("Key", k)]))
            if len(deleted) > 1000:
                return self.error(400, "MalformedXML", "More than 1000 keys in one DeleteObjects.")
            return self.send(200, xml_response("DeleteResult", deleted), {"Content-Type": "application/xml"})
        if "uploads" in query:
            upload = hashlib.sha256(os.urandom(16)).hexdigest()[:32]
            with store.lock:
                store.uploads[upload] = (bucket, key, {})
            return self.send(200, xml_response("InitiateMultipartUploadResult",
                                               [("Bucket", bucket), ("Key", key), ("UploadId", upload)]),
                             {"Content-Type": "application/xml"})
        if "uploadId" in query:
            with store.lock:
                up = store.uploads.pop(query["uploadId"], None)
            if up is None:
                return self.error(404, "NoSuchUpload", "The specified upload does not exist.")
            try:
                root = ET.fromstring(body)
            except ET.ParseError:
                return self.error(400, "MalformedXML", "The XML you provided was not well-formed.")
            numbers = [int(p.findtext("{%s}PartNumber" % NS) or p.findtext("PartNumber"))
                       for p in list(root.iter("{%s}Part" % NS)) + list(root.iter("Part"))]
            if not numbers or numbers != sorted(numbers) or any(n not in up[2] for n in numbers):
                return self.error(400, "InvalidPart", "One or more of the specified parts could not be found.")
            data = b"".join(up[2][n][0] for n in numbers)
            etag = '"%s-%d"' % (hashlib.md5(b"".join(up[2][n][1] for n in numbers)).hexdigest(), len(numbers))
            store.put(bucket, key, data, etag)
            store.note("COMPLETE %s" % key)
            return self.send(200, xml_response("CompleteMultipartUploadResult",
                                               [("Bucket", bucket), ("Key", key), ("ETag", etag)]),
                             {"Content-Type": "application/xml"})
        return self.error(400, "InvalidRequest", "Unsupported POST.")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--access", required=True)
    ap.add_argument("--secret", required=True)
    ap.add_argument("--token", default="")
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--bucket", action="append", default=[])
    ap.add_argument("--seed", action="append", default=[])
    ap.add_argument("--seed-mtimes", action="store_true")  # seeded objects were last modified when their files were
    ap.add_argument("--slowdown-every", type=int, default=0)
    ap.add_argument("--hostile", default="")
    ap.add_argument("--page-size", type=int, default=1000)  # S3 answers at most 1000 keys a page
    ap.add_argument("--journal", default="")
    ap.add_argument("--journal-lists", action="store_true")  # REQUEST method, LIST prefix|delimiter lines too
    ap.add_argument("--sts-access", default="")  # STS AssumeRole at POST / signed with this pair (a role's source keys)
    ap.add_argument("--sts-secret", default="")
    ap.add_argument("--role-arn", default="")
    ap.add_argument("--region", default="")  # the buckets' region: a request signed for another is refused as S3 does
    opts = ap.parse_args()
    store = Store()
    store.journal = opts.journal or None
    for b in opts.bucket:
        store.buckets.setdefault(b, {})
    for s in opts.seed:
        bucket, _, folder = s.partition("=")
        store.buckets.setdefault(bucket, {})
        for dirpath, _, files in os.walk(folder):
            for f in files:
                path = os.path.join(dirpath, f)
                with open(path, "rb") as fh:
                    mtime = None
                    if opts.seed_mtimes:  # the object's LastModified is the file's (an old lock, say)
                        mtime = datetime.datetime.fromtimestamp(os.stat(path).st_mtime, datetime.timezone.utc)
                    store.put(bucket, os.path.relpath(path, folder), fh.read(), mtime=mtime)
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.store, server.opts = store, opts
    tmp = opts.port_file + ".tmp"
    with open(tmp, "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(tmp, opts.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
