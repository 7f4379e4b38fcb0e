// node conformance.mjs HUB_URL TOKEN REPO OUT.json
// Uses the official @huggingface/hub client against Ingot's test Hub: whoAmI, createRepo, uploadFiles (a regular
// and an LFS file), listFiles across pages, pathsInfo, downloadFile. Writes what it read to OUT.json so the C++
// test can compare it with what Ingot's own client reads from the same server.
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { whoAmI, createRepo, uploadFiles, listFiles, pathsInfo, downloadFile } from "@huggingface/hub";

const [hubUrl, accessToken, repo, out] = process.argv.slice(2);
const creds = { hubUrl, accessToken };
const result = {};

const me = await whoAmI(creds);
result.whoami = { name: me.name, orgs: me.orgs.map((o) => o.name), role: me.auth?.accessToken?.role };

const created = await createRepo({ ...creds, repo: { type: "model", name: repo }, private: true });
result.created = created.repoUrl;

// A small text file (regular upload) and a binary one (LFS upload), plus a nested tree for paging.
const big = new Uint8Array(300 * 1024);
for (let i = 0; i < big.length; i++) big[i] = (i * 7919) % 251;
const files = [
  { path: "registry.json", content: new Blob([JSON.stringify({ hello: "neuron" })]) },
  { path: "neuronxcc-2.15.128.0+56dc5a86/MODULE_1+abcd1234/model.neff", content: new Blob([big]) },
];
for (let i = 0; i < 25; i++)
  files.push({ path: `neuronxcc-2.15.128.0+56dc5a86/MODULE_${100 + i}+d41d8cd9/compile_flags.json`, content: new Blob([`["--opt=${i}"]`]) });
const commit = await uploadFiles({ ...creds, repo: { type: "model", name: repo }, files, useXet: false });
result.commit = commit.commit.oid;

const listed = [];
for await (const f of listFiles({ ...creds, repo: { type: "model", name: repo }, recursive: true }))
  listed.push({ path: f.path, type: f.type, size: f.size, oid: f.oid, lfs: f.lfs ? f.lfs.oid : null });
listed.sort((a, b) => a.path.localeCompare(b.path));
result.listed = listed;

const info = await pathsInfo({ ...creds, repo: { type: "model", name: repo }, paths: ["registry.json", "neuronxcc-2.15.128.0+56dc5a86/MODULE_1+abcd1234/model.neff", "missing.txt"] });
result.pathsInfo = info.map((i) => ({ path: i.path, type: i.type, size: i.size, oid: i.oid, lfs: i.lfs ? i.lfs.oid : null })).sort((a, b) => a.path.localeCompare(b.path));

result.downloads = {};
for (const path of ["registry.json", "neuronxcc-2.15.128.0+56dc5a86/MODULE_1+abcd1234/model.neff"]) {
  const blob = await downloadFile({ ...creds, repo: { type: "model", name: repo }, path });
  const bytes = Buffer.from(await blob.arrayBuffer());
  result.downloads[path] = { size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
}
writeFileSync(out, JSON.stringify(result, null, 2));
console.log(`conformance: ${listed.length} entries listed, ${Object.keys(result.downloads).length} downloads`);
