// node pushcheck.mjs HUB_URL TOKEN REPO OUT.json
// What the official @huggingface/hub client sees of a repo after Ingot pushed to it: every file (listFiles,
// recursive) downloaded with downloadFile and hashed, and the commits (listCommits). Written to OUT.json for the
// C++ test to compare with the cache it pushed.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { listFiles, downloadFile, listCommits } from "@huggingface/hub";

const [hubUrl, accessToken, name, out] = process.argv.slice(2);
const repo = { type: "model", name };
const creds = { hubUrl, accessToken };
const files = {};
for await (const f of listFiles({ ...creds, repo, recursive: true })) {
  if (f.type !== "file") continue;
  const blob = await downloadFile({ ...creds, repo, path: f.path });
  const bytes = Buffer.from(await blob.arrayBuffer());
  files[f.path] = { size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex"), lfs: !!f.lfs };
}
const commits = [];
for await (const c of listCommits({ ...creds, repo }))
  commits.push({ oid: c.oid, title: c.title, author: c.authors.map((a) => a.username).join(",") });
writeFileSync(out, JSON.stringify({ files, commits }, null, 2));
console.log(`pushcheck: ${Object.keys(files).length} files, ${commits.length} commits`);
