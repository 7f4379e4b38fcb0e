#!/usr/bin/env python3
"""A Hugging Face Hub-compatible HTTP server for Ingot's tests (python3 standard library only).

Serves model repos from a folder on 127.0.0.1, with the endpoints Ingot and @huggingface/hub use:
whoami-v2, repos/create, repo info, tree (paginated, absolute Link URLs), paths-info, resolve (ETag,
X-Repo-Commit, Range, 302 to a second "CDN" host for LFS files), preupload, LFS batch + upload, commit (NDJSON).
Bearer tokens with private and gated repos, and switchable faults for the next N requests.

    testhub.py --data DIR [--port 0] [--page-size 1000] [--lfs-threshold BYTES]
               [--token hf_xxx:user[:orgs,comma][:read|write]] [--port-file FILE]

Faults: POST /_test/faults {"kind": K, "count": N, ["path": P,] ...} for the next N requests (whose path contains P,
when given; a large N makes a persistent fault) with K one of latency (ms), error5xx (status, retry_after),
drop (close without answering), truncate (half the body), corrupt (a file's body with its first byte flipped, the
same length: only a checksum catches it), ratelimit (429 + Retry-After: retry_after),
html (503 text/html), badjson (200 with broken JSON), redirectloop, badpaths (tree entries with ".." and a
leading "/"), huge (a body of `bytes` bytes), extrafields (unknown JSON fields); and a hostile Hub's:
drip (200, then the body `chunk` (1) byte(s) every `interval` s, `bytes` in all), redirectto (302 to `location`,
e.g. file:///etc/passwd), and for tree listings endlesspages (`entries` per page, a next page forever),
pagecycle (pages whose next links go round in `period` pages), foreignlink (a next page at `base`, another
origin) and badoids (files' oids and LFS sha256s replaced by `oid` / `lfsoid`, by default "../../../../xxx..." of the
right length); movehead (another commit lands just before a commit is processed: the commit gets 412). POST /_test/config
{"multipart_chunk": N} answers LFS batches for objects over N bytes in the multipart form. GET /_test/log returns the
requests seen (method, path, whether a token was sent, host); DELETE /_test/log clears it.
This is a test double of huggingface.co, which cannot be reached here; it is named as such everywhere.
"""
import argparse
import base64
import hashlib
import http.server
import json
import os
import random
import shutil
import socketserver
import sys
import threading
import time
import urllib.parse

STATE = {}
LOCK = threading.RLock()


def git_blob_sha1(data):
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def lfs_pointer(sha256, size):
    return ("version https://git-lfs.github.com/spec/v1\noid sha256:%s\nsize %d\n" % (sha256, size)).encode()


class Repo:
    """A model repo: files under <data>/models/<org>/<name>/files, metadata in repo.json."""

    def __init__(self, base):
        self.base = base
        self.files_dir = os.path.join(base, "files")
        self.meta_path = os.path.join(base, "repo.json")
        with open(self.meta_path) as f:
            self.meta = json.load(f)
        self._index = None

    def save(self):
        tmp = self.meta_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.meta, f)
        os.replace(tmp, self.meta_path)
        self._index = None

    @property
    def sha(self):
        return self.meta["sha"]

    def index(self):
        """path -> entry dict (as the tree API returns it), computed once per commit."""
        if self._index is not None:
            return self._index
        idx = {}
        thr = STATE["lfs_threshold"]
        lfs = self.meta.setdefault("lfs", {})
        for dirpath, dirnames, filenames in os.walk(self.files_dir):
            dirnames.sort()
            rel_dir = os.path.relpath(dirpath, self.files_dir)
            if rel_dir != ".":
                idx[rel_dir] = {"type": "directory", "oid": hashlib.sha1(rel_dir.encode()).hexdigest(), "size": 0, "path": rel_dir}
            for name in sorted(filenames):
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, self.files_dir)
                size = os.path.getsize(full)
                if rel in lfs or size >= thr:
                    sha256 = lfs.get(rel)
                    if sha256 is None:
                        h = hashlib.sha256()
                        with open(full, "rb") as f:
                            for chunk in iter(lambda: f.read(1 << 20), b""):
                                h.update(chunk)
                        sha256 = h.hexdigest()
                        lfs[rel] = sha256
                    ptr = lfs_pointer(sha256, size)
                    idx[rel] = {"type": "file", "oid": git_blob_sha1(ptr), "size": size, "path": rel,
                                "lfs": {"oid": sha256, "size": size, "pointerSize": len(ptr)}}
                else:
                    with open(full, "rb") as f:
                        data = f.read()
                    idx[rel] = {"type": "file", "oid": git_blob_sha1(data), "size": size, "path": rel}
        self._index = dict(sorted(idx.items()))
        return self._index


def repo_dir(repo_id):
    return os.path.join(STATE["data"], "models", *repo_id.split("/"))


def load_repo(repo_id):
    base = repo_dir(repo_id)
    if not os.path.isfile(os.path.join(base, "repo.json")):
        return None
    with LOCK:
        cache = STATE.setdefault("repos", {})
        r = cache.get(repo_id)
        if r is None or r.meta_path != os.path.join(base, "repo.json"):
            r = Repo(base)
            cache[repo_id] = r
        return r


def create_repo(repo_id, private, owner):
    base = repo_dir(repo_id)
    os.makedirs(os.path.join(base, "files"), exist_ok=True)
    meta = {"id": repo_id, "private": bool(private), "gated": False, "owner": owner,
            "sha": "%040x" % random.getrandbits(160), "lfs": {}}
    with open(os.path.join(base, "repo.json"), "w") as f:
        json.dump(meta, f)
    STATE.setdefault("repos", {}).pop(repo_id, None)
    return load_repo(repo_id)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: clients reuse connections
    # Headers and body go out in separate writes: without TCP_NODELAY, Nagle's algorithm and the client's delayed
    # ACK would add ~40 ms to every request, which no real Hub does.
    disable_nagle_algorithm = True

    def log_message(self, fmt, *args):
        if STATE.get("verbose"):
            sys.stderr.write("testhub: " + fmt % args + "\n")

    # ---- helpers -------------------------------------------------------------------------------------------
    def token(self):
        auth = self.headers.get("Authorization", "")
        return auth[7:].strip() if auth.lower().startswith("bearer ") else None

    def user(self):
        return STATE["tokens"].get(self.token() or "")

    def send(self, status, body=b"", ctype="application/json", headers=None, head=False):
        fault = self.take_fault()
        truncate = bool(fault and fault["kind"] == "truncate" and body)
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        if body and not head:
            self.wfile.write(body[: len(body) // 2] if truncate else body)
        if truncate:
            # Half the promised body, then the connection drops: a truncated answer.
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(2)

    def json(self, status, obj, headers=None):
        self.send(status, json.dumps(obj).encode(), "application/json", headers)

    def error(self, status, code, message, extra_headers=None):
        # A header holds one line of ASCII (as the Hub's do): a path with a line break or an escape in the message
        # must not break the answer. The JSON body keeps the message as it is.
        hdrs = {"X-Error-Message": message.encode("ascii", "backslashreplace").decode().replace("\r", "\\r").replace("\n", "\\n")}
        if code:
            hdrs["X-Error-Code"] = code
        hdrs.update(extra_headers or {})
        self.json(status, {"error": message}, hdrs)

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(n) if n else b""

    def base_url(self):
        return "http://%s" % (self.headers.get("Host") or "127.0.0.1:%d" % STATE["port"])

    def take_fault(self):
        """Consumes one pending fault for a non-test path, once per request."""
        if getattr(self, "_fault_taken", False) or self.path.startswith("/_test"):
            return None
        self._fault_taken = True
        with LOCK:
            f = STATE.get("fault")
            if not f or f["count"] <= 0:
                return None
            if f.get("path") and f["path"] not in self.path:
                return None
            f["count"] -= 1
            self._fault = dict(f)
            return self._fault

    def pending_fault(self):
        f = self.take_fault()
        if f and f["kind"] == "truncate":
            # Truncation applies when the body is sent: put it back for send().
            with LOCK:
                STATE["fault"]["count"] += 1
            self._fault_taken = False
            return None
        return f

    def apply_fault(self):
        """Returns True when the fault answered the request."""
        f = self.pending_fault()
        if not f:
            return False
        k = f["kind"]
        if k == "latency":
            time.sleep(f.get("ms", 200) / 1000.0)
            return False
        if k == "error5xx":
            extra = {"Retry-After": str(f["retry_after"])} if "retry_after" in f else None
            self.error(f.get("status", 503), None, "Service temporarily unavailable (test fault)", extra)
        elif k == "ratelimit":
            self.send(429, b'{"error":"Too many requests"}', "application/json", {"Retry-After": str(f.get("retry_after", 1))})
        elif k == "drop":
            self.close_connection = True
            try:
                self.connection.shutdown(2)
            except OSError:
                pass
        elif k == "html":
            self.send(503, b"<!DOCTYPE html><html><body><h1>503 Service Unavailable</h1></body></html>", "text/html")
        elif k == "badjson":
            self.send(200, b'{"type": "user", "name": ', "application/json")
        elif k == "redirectloop":
            self.send(302, b"", "text/plain", {"Location": self.path})
        elif k == "redirectto":
            self.send(302, b"", "text/plain", {"Location": f["location"]})
        elif k == "drip":
            # Headers at once, then the body a byte at a time: bounded by `bytes`, and over when the client leaves.
            size = int(f.get("bytes", 600))
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(size))
            self.end_headers()
            sent, chunk = 0, max(1, int(f.get("chunk", 1)))
            try:
                self.wfile.flush()
                while sent < size:
                    time.sleep(float(f.get("interval", 0.5)))
                    n = min(chunk, size - sent)
                    self.wfile.write(b" " * n)
                    self.wfile.flush()
                    sent += n
            except OSError:
                pass
            self.close_connection = True
        elif k == "huge":
            size = f.get("bytes", 64 << 20)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(size))
            self.end_headers()
            chunk = b"[" + b" " * 65535
            sent = 0
            try:
                while sent < size:
                    part = chunk[: min(len(chunk), size - sent)]
                    self.wfile.write(part)
                    sent += len(part)
            except OSError:
                pass
            self.close_connection = True
        else:
            return False
        return True

    def log_request_seen(self):
        with LOCK:
            STATE["log"].append({"method": self.command, "path": self.path, "token": self.token() is not None,
                                 "host": self.headers.get("Host", ""), "range": self.headers.get("Range")})

    def can_read(self, repo):
        if not repo.meta.get("private"):
            return True
        u = self.user()
        return u is not None and (repo.meta["owner"] == u["name"] or repo.meta["owner"] in u["orgs"] or repo.meta["id"].split("/")[0] in [u["name"]] + u["orgs"])

    def can_write(self, repo_id):
        u = self.user()
        if u is None or u["role"] != "write":
            return False
        return repo_id.split("/")[0] in [u["name"]] + u["orgs"]

    def repo_or_error(self, repo_id):
        repo = load_repo(repo_id)
        if repo is None or not self.can_read(repo):
            if self.user() is None:
                self.error(401, "RepoNotFound", "Repository not found")
            else:
                self.error(404, "RepoNotFound", "Repository not found")
            return None
        return repo

    # ---- routing -------------------------------------------------------------------------------------------
    def do_HEAD(self):
        self.route(head=True)

    def do_GET(self):
        self.route()

    def do_POST(self):
        self.route()

    def do_PUT(self):
        self.route()

    def do_DELETE(self):
        self.route()

    def route(self, head=False):
        # One handler serves every request of a keep-alive connection: reset per-request state.
        self._fault_taken = False
        self._fault = None
        if not self.path.startswith("/_test"):
            self.log_request_seen()
        raw_path, _, query = self.path.partition("?")
        qs = urllib.parse.parse_qs(query)
        # Split the raw path first, then decode each segment (a revision may arrive as refs%2Fpr%2F1).
        segs = [urllib.parse.unquote(s) for s in raw_path.split("/")[1:]]
        try:
            if segs[:1] == ["_test"]:
                return self.test_api(segs[1:])
            if segs[:1] == ["cdn"]:
                return self.cdn(segs[1:], head)
            if self.apply_fault():
                return
            if segs[:2] == ["api", "whoami-v2"]:
                return self.whoami()
            if segs[:3] == ["api", "repos", "create"] and self.command == "POST":
                return self.api_create()
            if segs[:2] == ["api", "models"] and len(segs) >= 4:
                return self.api_models(segs[2:], qs)
            if len(segs) >= 4 and segs[2] == "resolve":
                return self.resolve(segs[0] + "/" + segs[1], segs[3], "/".join(segs[4:]), head)
            if len(segs) >= 5 and segs[1].endswith(".git") and segs[2:5] == ["info", "lfs", "objects"]:
                return self.lfs(segs[0] + "/" + segs[1][:-4], segs[5:])
            self.error(404, None, "Not found: %s" % raw_path)
        except (BrokenPipeError, ConnectionResetError):
            pass

    # ---- endpoints -----------------------------------------------------------------------------------------
    def test_api(self, segs):
        if segs == ["faults"] and self.command == "POST":
            f = json.loads(self.body() or b"{}")
            f.setdefault("count", 1)
            with LOCK:
                STATE["fault"] = f
            return self.json(200, {"ok": True})
        if segs == ["faults"] and self.command == "DELETE":
            with LOCK:
                STATE["fault"] = None
            return self.json(200, {"ok": True})
        if segs == ["log"]:
            with LOCK:
                if self.command == "DELETE":
                    STATE["log"] = []
                    return self.json(200, {"ok": True})
                return self.json(200, STATE["log"])
        if segs == ["config"] and self.command == "POST":
            c = json.loads(self.body() or b"{}")
            with LOCK:
                if "page_size" in c:
                    STATE["page_size"] = int(c["page_size"])
                if "lfs_threshold" in c:
                    STATE["lfs_threshold"] = int(c["lfs_threshold"])
                if "multipart_chunk" in c:
                    # LFS objects larger than this go up in parts of this size (0: one PUT, "basic").
                    STATE["multipart_chunk"] = int(c["multipart_chunk"])
            return self.json(200, {"ok": True})
        self.error(404, None, "no such test endpoint")

    def whoami(self):
        u = self.user()
        if u is None:
            return self.error(401, None, "Invalid credentials in Authorization header")
        body = {"type": "user", "id": hashlib.md5(u["name"].encode()).hexdigest()[:24], "name": u["name"],
                "fullname": u["name"].title(), "email": None, "emailVerified": False, "canPay": False,
                "isPro": False, "periodEnd": None, "avatarUrl": "",
                "orgs": [{"type": "org", "name": o, "fullname": o, "roleInOrg": "write"} for o in u["orgs"]],
                "auth": {"type": "access_token", "accessToken": {"displayName": "test", "role": u["role"],
                                                                  "createdAt": "2026-01-01T00:00:00.000Z"}}}
        f = getattr(self, "_fault", None)
        if f and f["kind"] == "extrafields":
            body["someFutureField"] = {"nested": [1, 2, 3]}
        self.json(200, body)

    def api_create(self):
        u = self.user()
        if u is None:
            return self.error(401, None, "Invalid credentials in Authorization header")
        req = json.loads(self.body() or b"{}")
        if req.get("type", "model") != "model":
            return self.error(400, None, "Only model repos are served here")
        org = req.get("organization") or u["name"]
        name = req.get("name") or ""
        if not name or "/" in name or org not in [u["name"]] + u["orgs"]:
            return self.error(403, None, "You don't have the rights to create a repo under the namespace %s" % org)
        if u["role"] != "write":
            return self.error(403, None, "Your token has read access only")
        repo_id = org + "/" + name
        if load_repo(repo_id) is not None:
            return self.json(409, {"error": "You already created this model repo", "url": "%s/%s" % (self.base_url(), repo_id)},
                             {"X-Error-Message": "You already created this model repo"})
        private = req.get("visibility") == "private" if "visibility" in req else bool(req.get("private", False))
        create_repo(repo_id, private, org)
        self.json(200, {"url": "%s/%s" % (self.base_url(), repo_id), "name": repo_id, "id": repo_id})

    def api_models(self, segs, qs):
        repo_id = segs[0] + "/" + segs[1]
        rest = segs[2:]
        repo = self.repo_or_error(repo_id)
        if repo is None:
            return
        if not rest or rest[0] == "revision":
            rev = rest[1] if len(rest) > 1 else "main"
            if not self.rev_ok(repo, rev):
                return
            idx = repo.index()
            return self.json(200, {"id": repo_id, "modelId": repo_id, "sha": repo.sha, "private": repo.meta["private"],
                                   "gated": repo.meta.get("gated", False), "disabled": False,
                                   "lastModified": "2026-11-01T00:00:00.000Z",
                                   "siblings": [{"rfilename": p} for p, e in idx.items() if e["type"] == "file"]})
        kind = rest[0]
        if kind == "tree":
            if len(rest) < 2:
                return self.error(400, None, "missing revision")
            return self.tree(repo, rest[1], "/".join(rest[2:]), qs)
        if kind == "paths-info":
            return self.paths_info(repo, rest[1] if len(rest) > 1 else "main")
        if kind == "preupload":
            return self.preupload(repo_id)
        if kind == "commit":
            return self.commit(repo_id, rest[1] if len(rest) > 1 else "main")
        if kind == "commits":
            # Newest first, as the Hub lists them (@huggingface/hub listCommits).
            if not self.rev_ok(repo, rest[1] if len(rest) > 1 else "main"):
                return
            return self.json(200, list(reversed(repo.meta.get("commits", []))))
        self.error(404, None, "Not found")

    def rev_ok(self, repo, rev):
        if rev in ("main", repo.sha):
            return True
        self.error(404, "RevisionNotFound", "Invalid rev id: %s" % rev)
        return False

    def tree(self, repo, rev, path, qs):
        if not self.rev_ok(repo, rev):
            return
        recursive = qs.get("recursive", ["false"])[0] in ("true", "1", "True")
        idx = repo.index()
        path = path.strip("/")
        if path and path not in idx:
            return self.error(404, "EntryNotFound", "%s does not exist on \"%s\"" % (path, rev))
        prefix = path + "/" if path else ""
        entries = []
        for p, e in idx.items():
            if not p.startswith(prefix):
                continue
            rest = p[len(prefix):]
            if not rest or (not recursive and "/" in rest):
                continue
            entries.append(e)
        f = getattr(self, "_fault", None)
        if f and f["kind"] in ("endlesspages", "pagecycle", "foreignlink"):
            return self.hostile_tree(f, qs)
        if f and f["kind"] == "badoids":
            entries = [self.bad_oids(e, f) for e in entries]
        if f and f["kind"] == "badpaths":
            entries = [{"type": "file", "oid": "0" * 40, "size": 3, "path": "../escape.txt"},
                       {"type": "file", "oid": "0" * 40, "size": 3, "path": "/etc/passwd"}] + entries
        page = STATE["page_size"]
        start = int(base64.urlsafe_b64decode(qs["cursor"][0]).decode()) if "cursor" in qs else 0
        chunk = entries[start:start + page]
        headers = {}
        if start + page < len(entries):
            q = {k: v[0] for k, v in qs.items()}
            q["cursor"] = base64.urlsafe_b64encode(str(start + page).encode()).decode()
            raw = self.path.partition("?")[0]
            headers["Link"] = '<%s%s?%s>; rel="next"' % (self.base_url(), raw, urllib.parse.urlencode(q))
        self.json(200, chunk, headers)

    @staticmethod
    def bad_oids(e, f):
        """A file entry whose checksum (the git oid, or the LFS sha256) is `oid` / `lfsoid`: by default a path that
        climbs out of the folder it is joined to, of the length a real one has."""
        if e.get("type") != "file":
            return e
        e = dict(e)
        if "lfs" in e:
            e["lfs"] = dict(e["lfs"], oid=f.get("lfsoid", "../../../../" + "x" * 52))
        else:
            e["oid"] = f.get("oid", "../../../../" + "x" * 28)
        return e

    def hostile_tree(self, f, qs):
        """Pages whose Link never ends, goes round, or leaves for another origin. Cursors are plain numbers."""
        raw = self.path.partition("?")[0]
        q = {k: v[0] for k, v in qs.items()}
        page = int(q.get("cursor", "0"))
        base = self.base_url()
        kind = f["kind"]
        if kind == "endlesspages":
            n = int(f.get("entries", 1000))
            entries = [{"type": "file", "oid": "0" * 40, "size": 1, "path": "endless/%d-%d.txt" % (page, i)} for i in range(n)]
            q["cursor"] = str(page + 1)
        elif kind == "pagecycle":
            entries = [{"type": "file", "oid": "0" * 40, "size": 1, "path": "cycle/%d.txt" % page}]
            q["cursor"] = str((page + 1) % int(f.get("period", 1)))
        else:
            entries = [{"type": "file", "oid": "0" * 40, "size": 1, "path": "trusted.txt"}]
            q.pop("cursor", None)
            base = f["base"]
        link = '<%s%s?%s>; rel="next"' % (base, raw, urllib.parse.urlencode(q))
        self.json(200, entries, {"Link": link})

    def paths_info(self, repo, rev):
        if not self.rev_ok(repo, rev):
            return
        raw = self.body()
        ctype = self.headers.get("Content-Type", "")
        if "json" in ctype:
            paths = json.loads(raw or b"{}").get("paths", [])
        else:
            paths = urllib.parse.parse_qs(raw.decode()).get("paths", [])
        idx = repo.index()
        self.json(200, [idx[p.strip("/")] for p in paths if p.strip("/") in idx])

    def resolve(self, repo_id, rev, path, head):
        repo = self.repo_or_error(repo_id)
        if repo is None:
            return
        if not self.rev_ok(repo, rev):
            return
        if repo.meta.get("gated") and self.user() is None:
            return self.error(401, "GatedRepo", "Access to model %s is restricted. You must be authenticated." % repo_id)
        idx = repo.index()
        e = idx.get(path)
        if e is None or e["type"] != "file":
            return self.error(404, "EntryNotFound", "Entry not found")
        common = {"X-Repo-Commit": repo.sha, "Accept-Ranges": "bytes"}
        if "lfs" in e:
            # Large files live on the "CDN": another host, which must never receive the token.
            cdn = "http://%s:%d/cdn/%s/%s?repo=%s" % (STATE["cdn_host"], STATE["port"], e["lfs"]["oid"],
                                                        urllib.parse.quote(os.path.basename(path)), urllib.parse.quote(repo_id))
            hdrs = dict(common)
            hdrs.update({"Location": cdn, "X-Linked-Etag": '"%s"' % e["lfs"]["oid"], "X-Linked-Size": str(e["size"]),
                         "ETag": '"%s"' % e["oid"]})
            return self.send(302, b"", "text/plain", hdrs, head)
        self.serve_file(os.path.join(repo.files_dir, path), '"%s"' % e["oid"], common, head)

    def serve_file(self, full, etag, headers, head):
        size = os.path.getsize(full)
        hdrs = dict(headers)
        hdrs["ETag"] = etag
        rng = self.headers.get("Range")
        start, end, status = 0, size - 1, 200
        if rng and rng.startswith("bytes="):
            a, _, b = rng[6:].partition("-")
            try:
                if a == "":
                    start, end = max(0, size - int(b)), size - 1
                else:
                    start = int(a)
                    end = min(int(b), size - 1) if b else size - 1
            except ValueError:
                return self.send(416, b"", "text/plain", {"Content-Range": "bytes */%d" % size})
            if start >= size and size > 0:
                return self.send(416, b"", "text/plain", {"Content-Range": "bytes */%d" % size})
            status = 206
            hdrs["Content-Range"] = "bytes %d-%d/%d" % (start, end, size)
        length = max(0, end - start + 1)
        fault = self.take_fault() if not head else None
        # A corrupt fault may have been taken by the routing already (resolve and cdn apply faults first).
        corrupt = not head and (fault or getattr(self, "_fault", None) or {}).get("kind") == "corrupt"
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(length))
        for k, v in hdrs.items():
            self.send_header(k, v)
        self.end_headers()
        if head:
            return
        with open(full, "rb") as f:
            f.seek(start)
            left = length if not (fault and fault["kind"] == "truncate") else length // 2
            while left > 0:
                chunk = f.read(min(1 << 20, left))
                if not chunk:
                    break
                if corrupt:
                    chunk, corrupt = bytes([chunk[0] ^ 0xFF]) + chunk[1:], False
                self.wfile.write(chunk)
                left -= len(chunk)
        if fault and fault["kind"] == "truncate":
            self.close_connection = True
            self.connection.shutdown(2)

    def cdn(self, segs, head):
        if len(segs) < 1:
            return self.error(404, None, "Not found")
        sha256 = segs[0]
        if self.token() is not None:
            with LOCK:
                STATE["leaks"] = STATE.get("leaks", 0) + 1
        if self.apply_fault():
            return
        qs = urllib.parse.parse_qs(self.path.partition("?")[2])
        repo = load_repo(qs.get("repo", [""])[0])
        if repo is None:
            return self.error(404, None, "Not found")
        for p, s in repo.meta.get("lfs", {}).items():
            if s == sha256:
                return self.serve_file(os.path.join(repo.files_dir, p), '"%s"' % sha256, {}, head)
        self.error(404, None, "Not found")

    def preupload(self, repo_id):
        if not self.can_write(repo_id):
            return self.error(401 if self.user() is None else 403, None, "You don't have write access to %s" % repo_id)
        req = json.loads(self.body() or b"{}")
        out = []
        for f in req.get("files", []):
            sample = base64.b64decode(f.get("sample", ""))
            lfs = f.get("size", 0) >= STATE["lfs_threshold"] or b"\0" in sample
            out.append({"path": f["path"], "uploadMode": "lfs" if lfs else "regular", "shouldIgnore": False})
        self.json(200, {"files": out, "commitOid": load_repo(repo_id).sha if load_repo(repo_id) else None})

    def lfs(self, repo_id, segs):
        if segs == ["batch"] and self.command == "POST":
            if not self.can_write(repo_id):
                return self.error(401 if self.user() is None else 403, None, "write access needed")
            req = json.loads(self.body() or b"{}")
            objs = []
            for o in req.get("objects", []):
                store = os.path.join(STATE["data"], "lfs", o["oid"])
                entry = {"oid": o["oid"], "size": o["size"], "authenticated": True}
                chunk = STATE.get("multipart_chunk", 0)
                if not os.path.exists(store) and chunk and o["size"] > chunk:
                    # The Hub's multipart form: one URL per part keyed "00001".., the chunk size, and the upload href
                    # is where the parts' ETags are posted when all are up.
                    base = "%s/%s.git/info/lfs/objects" % (self.base_url(), repo_id)
                    header = {"chunk_size": str(chunk)}
                    for n in range(1, (o["size"] + chunk - 1) // chunk + 1):
                        header["%05d" % n] = "%s/part/%s/%d" % (base, o["oid"], n)
                    entry["actions"] = {"upload": {"href": "%s/complete/%s/%d" % (base, o["oid"], o["size"]), "header": header},
                                        "verify": {"href": "%s/verify" % base}}
                elif not os.path.exists(store):
                    entry["actions"] = {"upload": {"href": "%s/%s.git/info/lfs/objects/upload/%s/%d" % (self.base_url(), repo_id, o["oid"], o["size"]),
                                                   "header": {}},
                                        "verify": {"href": "%s/%s.git/info/lfs/objects/verify" % (self.base_url(), repo_id)}}
                objs.append(entry)
            return self.send(200, json.dumps({"transfer": "basic", "objects": objs}).encode(), "application/vnd.git-lfs+json")
        if len(segs) == 3 and segs[0] == "upload" and self.command == "PUT":
            oid, size = segs[1], int(segs[2])
            data = self.body()
            if len(data) != size or hashlib.sha256(data).hexdigest() != oid:
                return self.error(400, None, "LFS object does not match its oid and size")
            os.makedirs(os.path.join(STATE["data"], "lfs"), exist_ok=True)
            tmp = os.path.join(STATE["data"], "lfs", oid + ".part")
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, os.path.join(STATE["data"], "lfs", oid))
            return self.send(200, b"", "text/plain", {"ETag": '"%s"' % oid})
        if len(segs) == 3 and segs[0] == "part" and self.command == "PUT":
            data = self.body()
            d = os.path.join(STATE["data"], "lfs-parts", segs[1])
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, "%05d" % int(segs[2])), "wb") as f:
                f.write(data)
            return self.send(200, b"", "text/plain", {"ETag": '"%s"' % hashlib.md5(data).hexdigest()})
        if len(segs) == 3 and segs[0] == "complete" and self.command == "POST":
            oid, size = segs[1], int(segs[2])
            req = json.loads(self.body() or b"{}")
            if req.get("oid") != oid:
                return self.error(400, None, "oid does not match the upload")
            d = os.path.join(STATE["data"], "lfs-parts", oid)
            h, total, parts = hashlib.sha256(), 0, sorted(req.get("parts", []), key=lambda p: p["partNumber"])
            tmp = os.path.join(STATE["data"], "lfs", oid + ".part")
            os.makedirs(os.path.dirname(tmp), exist_ok=True)
            with open(tmp, "wb") as out:
                for i, p in enumerate(parts):
                    path = os.path.join(d, "%05d" % int(p["partNumber"]))
                    if int(p["partNumber"]) != i + 1 or not os.path.exists(path):
                        return self.error(400, None, "part %s is missing" % p["partNumber"])
                    with open(path, "rb") as f:
                        data = f.read()
                    if p.get("etag", "").strip('"') != hashlib.md5(data).hexdigest():
                        return self.error(400, None, "part %s: wrong ETag" % p["partNumber"])
                    h.update(data)
                    total += len(data)
                    out.write(data)
            if total != size or h.hexdigest() != oid:
                os.remove(tmp)
                return self.error(400, None, "LFS object does not match its oid and size")
            os.replace(tmp, os.path.join(STATE["data"], "lfs", oid))
            shutil.rmtree(d, ignore_errors=True)
            return self.json(200, {"ok": True})
        if segs == ["verify"] and self.command == "POST":
            req = json.loads(self.body() or b"{}")
            ok = os.path.exists(os.path.join(STATE["data"], "lfs", req.get("oid", "")))
            return self.json(200 if ok else 404, {"ok": ok})
        self.error(404, None, "Not found")

    def commit(self, repo_id, rev):
        if not self.can_write(repo_id):
            return self.error(401 if self.user() is None else 403, None, "You don't have write access to %s" % repo_id)
        with LOCK:
            repo = load_repo(repo_id)
            if repo is None:
                return self.error(404, "RepoNotFound", "Repository not found")
            if rev != "main":
                return self.error(404, "RevisionNotFound", "Invalid rev id: %s" % rev)
            lines = [json.loads(l) for l in self.body().decode().splitlines() if l.strip()]
            header = next((l["value"] for l in lines if l.get("key") == "header"), {})
            parent = header.get("parentCommit")
            f = getattr(self, "_fault", None)
            if f and f["kind"] == "movehead":
                # Another client's commit lands between this client's preupload and its commit.
                repo.meta["sha"] = "%040x" % random.getrandbits(160)
                repo.meta.setdefault("commits", []).append({"id": repo.sha, "title": "concurrent commit (test fault)",
                                                            "message": "", "authors": [{"user": "other", "avatar": ""}],
                                                            "date": "2026-11-01T00:00:00.000Z"})
                repo.save()
            if parent and parent != repo.sha:
                return self.error(412, None, "A commit has happened since. Please refresh and try again.")
            for l in lines:
                k, v = l.get("key"), l.get("value", {})
                if k in ("file", "lfsFile", "deletedFile"):
                    p = v.get("path", "")
                    if p.startswith("/") or ".." in p.split("/") or not p:
                        return self.error(400, None, "Invalid path %r" % p)
            for l in lines:
                k, v = l.get("key"), l.get("value", {})
                if k == "file":
                    dest = os.path.join(repo.files_dir, v["path"])
                    os.makedirs(os.path.dirname(dest), exist_ok=True)
                    with open(dest, "wb") as f:
                        f.write(base64.b64decode(v["content"]))
                    repo.meta["lfs"].pop(v["path"], None)
                elif k == "lfsFile":
                    src = os.path.join(STATE["data"], "lfs", v["oid"])
                    if not os.path.exists(src):
                        return self.error(422, None, "LFS object %s was not uploaded" % v["oid"])
                    dest = os.path.join(repo.files_dir, v["path"])
                    os.makedirs(os.path.dirname(dest), exist_ok=True)
                    shutil.copyfile(src, dest)
                    repo.meta["lfs"][v["path"]] = v["oid"]
                elif k == "deletedFile":
                    dest = os.path.join(repo.files_dir, v["path"])
                    if os.path.exists(dest):
                        os.remove(dest)
                    repo.meta["lfs"].pop(v["path"], None)
            repo.meta["sha"] = "%040x" % random.getrandbits(160)
            u = self.user()
            repo.meta.setdefault("commits", []).append({"id": repo.sha, "title": header.get("summary", ""),
                                                        "message": header.get("description", ""),
                                                        "authors": [{"user": u["name"] if u else "", "avatar": ""}],
                                                        "date": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime())})
            repo.save()
            self.json(200, {"success": True, "commitOid": repo.sha, "commitUrl": "%s/%s/commit/%s" % (self.base_url(), repo_id, repo.sha)})


class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 64


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--page-size", type=int, default=1000)
    ap.add_argument("--lfs-threshold", type=int, default=10 * 1000 * 1000)
    ap.add_argument("--cdn-host", default="127.0.0.2")
    ap.add_argument("--token", action="append", default=[], help="hf_xxx:user[:org1,org2][:read|write]")
    ap.add_argument("--port-file")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    tokens = {}
    for t in a.token:
        parts = t.split(":")
        tokens[parts[0]] = {"name": parts[1], "orgs": [o for o in (parts[2] if len(parts) > 2 else "").split(",") if o],
                            "role": parts[3] if len(parts) > 3 else "write"}
    STATE.update(data=os.path.abspath(a.data), page_size=a.page_size, lfs_threshold=a.lfs_threshold, tokens=tokens,
                 cdn_host=a.cdn_host, log=[], fault=None, verbose=a.verbose)
    hub = Server(("127.0.0.1", a.port), Handler)
    STATE["port"] = hub.server_address[1]
    servers = [hub]
    if a.cdn_host != "127.0.0.1":
        try:
            servers.append(Server((a.cdn_host, STATE["port"]), Handler))
        except OSError:
            STATE["cdn_host"] = "127.0.0.1"
    for s in servers[1:]:
        threading.Thread(target=s.serve_forever, daemon=True).start()
    if a.port_file:
        tmp = a.port_file + ".tmp"
        with open(tmp, "w") as f:
            f.write(str(STATE["port"]))
        os.replace(tmp, a.port_file)
    # Never outlive the test that started us (a crashed test must not leave a server behind).
    parent = os.getppid()

    def watch_parent():
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch_parent, daemon=True).start()
    print("testhub listening on http://127.0.0.1:%d (CDN %s)" % (STATE["port"], STATE["cdn_host"]), flush=True)
    try:
        hub.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
