// node listfiles.mjs HUB_URL TOKEN REPO -> prints "<entries> <milliseconds>" for a recursive listFiles.
import { listFiles } from "@huggingface/hub";

const [hubUrl, accessToken, repo] = process.argv.slice(2);
const start = performance.now();
let n = 0;
for await (const _ of listFiles({ hubUrl, accessToken, repo: { type: "model", name: repo }, recursive: true })) n++;
console.log(`${n} ${(performance.now() - start).toFixed(1)}`);
