// The @huggingface/hub side of run-pull.sh: every file of a repo with downloadFile, PARALLEL at a time, written to
// OUT. Usage: node pull-hubjs.mjs HUBJS_DIR HUB_URL REPO OUT PARALLEL. Prints {"files", "bytes", "seconds"}.
import { createWriteStream, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { pathToFileURL } from "node:url";

const [hubjsDir, hubUrl, repoName, out, parallelArg] = process.argv.slice(2);
const { listFiles, downloadFile } = await import(
  pathToFileURL(join(hubjsDir, "node_modules/@huggingface/hub/dist/index.mjs")).href);
const repo = { type: "model", name: repoName };
const parallel = Number(parallelArg || 4);

const started = performance.now();
const files = [];
for await (const f of listFiles({ repo, hubUrl, recursive: true }))
  if (f.type === "file") files.push(f.path);
let next = 0, bytes = 0;
async function worker() {
  while (next < files.length) {
    const path = files[next++];
    const blob = await downloadFile({ repo, hubUrl, path });
    const dest = join(out, path);
    mkdirSync(dirname(dest), { recursive: true });
    await pipeline(Readable.fromWeb(blob.stream()), createWriteStream(dest));
    bytes += blob.size;
  }
}
await Promise.all(Array.from({ length: Math.min(parallel, files.length) }, worker));
console.log(JSON.stringify({ files: files.length, bytes, seconds: (performance.now() - started) / 1000 }));
