// node benchpush.mjs HUB_URL TOKEN REPO CACHE_DIR
// The reference for run-push.sh: every file of the compile cache at CACHE_DIR uploaded with the official
// @huggingface/hub client's uploadFiles (one call, as huggingface_hub's upload_folder would), under the same paths.
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequire } from "node:module";

const [hubUrl, accessToken, name, root] = process.argv.slice(2);
const require = createRequire(pathToFileURL(join(process.cwd(), "x.js")));
const { uploadFiles } = await import(pathToFileURL(require.resolve("@huggingface/hub")).href);
const files = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p);
    else if (e.isFile()) files.push({ path: relative(root, p), content: pathToFileURL(p) });
  }
};
walk(root);
await uploadFiles({ hubUrl, accessToken, repo: { type: "model", name }, files, useXet: false });
console.log(`uploaded ${files.length} files`);
