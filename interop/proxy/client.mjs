// The official openai npm package as a client of drill proxy.
//
// It starts a small OpenAI-compatible upstream of its own, then, as an
// application would:
//   1. through `drill proxy --outage hang` (0 to HANG_MS), calls inside the
//      hang: the SDK's own timeout and retry end the call with
//      APIConnectionTimeoutError after 2 attempts;
//   2. through the same proxy after the hang, streams a completion: each
//      chunk reaches the client before the upstream sends the next;
//   3. through `drill proxy --outage rate-limit --fault retry_after=1s`
//      (0 to 1.5 s), calls inside the 429 window: the SDK waits as told and
//      retries by itself, and gets the answer on its third attempt.
// Each proxy is stopped with SIGINT and writes its journal: JOURNAL for the
// first, JOURNAL with "-429" before ".jsonl" for the second. Exits non-zero,
// with the reason, if any step differs.
//
// Environment: DRILL (the drill binary), JOURNAL (the first journal).

import { spawn } from "node:child_process";
import http from "node:http";
import OpenAI from "openai";
import { VERSION } from "openai/version";

const DRILL = process.env.DRILL ?? "drill";
const JOURNAL = process.env.JOURNAL ?? "proxy-interop.jsonl";
const JOURNAL_429 = JOURNAL.replace(/\.jsonl$/, "") + "-429.jsonl";
const HANG_MS = 2500;

function fail(msg) {
  console.error(`interop: FAIL: ${msg}`);
  process.exitCode = 1;
  throw new Error(msg);
}

// --- the upstream: answers chat completions (streamed or not) and models.
let acked = () => {}; // resolves when the client has read the last chunk sent
let stalled = false;
const seen = []; // retry counts of the chat requests the upstream received
const upstream = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    if (req.url.endsWith("/models")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "interop-model", object: "model", created: 0, owned_by: "interop" }] }));
      return;
    }
    seen.push(Number(req.headers["x-stainless-retry-count"] ?? 0));
    const req_ = JSON.parse(body || "{}");
    const usage = { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 };
    if (!req_.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "c1", object: "chat.completion", created: 0, model: req_.model,
        choices: [{ index: 0, message: { role: "assistant", content: "pong" }, finish_reason: "stop" }], usage }));
      return;
    }
    // Each chunk is sent only once the client has read the one before
    // (acked): a proxy that held chunks back would stall the stream.
    res.writeHead(200, { "content-type": "text/event-stream" });
    const chunk = (delta, finish = null, extra = {}) =>
      `data: ${JSON.stringify({ id: "c2", object: "chat.completion.chunk", created: 0, model: req_.model,
        choices: delta ? [{ index: 0, delta, finish_reason: finish }] : [], ...extra })}\n\n`;
    (async () => {
      for (const w of ["one ", "two ", "three"]) {
        const read = new Promise((r) => (acked = r));
        res.write(chunk({ content: w }));
        const timeout = new Promise((r) => setTimeout(() => r("timeout"), 5000));
        if ((await Promise.race([read, timeout])) === "timeout") {
          stalled = true;
          break;
        }
        await new Promise((r) => setTimeout(r, 100)); // the upstream's pace
      }
      res.write(chunk({}, "stop"));
      res.write(chunk(null, null, { usage }));
      res.end("data: [DONE]\n\n");
    })();
  });
});
await new Promise((r) => upstream.listen(0, "127.0.0.1", r));
const upstreamURL = `http://127.0.0.1:${upstream.address().port}/v1`;

// startProxy runs drill proxy in front of the upstream with args and
// returns its base URL and a stop function that ends it with SIGINT (as
// Ctrl-C would), prints its request lines and checks it exited 0.
async function startProxy(args, journal) {
  const proc = spawn(DRILL, ["proxy", "--listen", "127.0.0.1:0", "--upstream", upstreamURL, "--no-tui",
    "--record", journal, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let err = "";
  let out = "";
  proc.stdout.on("data", (d) => (out += d));
  const exited = new Promise((r) => proc.on("exit", r));
  const baseURL = await new Promise((resolve, reject) => {
    proc.stderr.on("data", (d) => {
      err += d;
      const m = err.match(/http:\/\/(127\.0\.0\.1:\d+)\/v1/);
      if (m) resolve(`http://${m[1]}/v1`);
    });
    exited.then((code) => reject(new Error(`drill proxy exited ${code}: ${err}`)));
  });
  const stop = async () => {
    proc.kill("SIGINT");
    const code = await exited;
    process.stdout.write(out);
    if (code !== 0) fail(`drill proxy exited ${code}: ${err}`);
  };
  return { baseURL, stop };
}

const hangProxy = await startProxy(["--outage", "hang", "--outage-from", "0s", "--outage-to", `${HANG_MS}ms`], JOURNAL);
const baseURL = hangProxy.baseURL;
const started = Date.now();
const since = () => ((Date.now() - started) / 1000).toFixed(2);
console.log(`interop: openai ${VERSION} through ${baseURL} -> ${upstreamURL}`);

try {
  // 1. The hang: the SDK's 800 ms timeout, one retry.
  const hung = new OpenAI({ baseURL, apiKey: "sk-interop-not-a-real-key", timeout: 800, maxRetries: 1 });
  try {
    await hung.chat.completions.create({ model: "interop-model", messages: [{ role: "user", content: "ping" }] });
    fail("a call inside the hang window got an answer");
  } catch (e) {
    if (!(e instanceof OpenAI.APIConnectionTimeoutError)) fail(`inside the hang: ${e}, want APIConnectionTimeoutError`);
    console.log(`interop: hang: ${e.constructor.name} after ${since()} s`);
  }

  // 2. After the hang: a stream, chunk by chunk.
  await new Promise((r) => setTimeout(r, Math.max(0, HANG_MS + 200 - (Date.now() - started))));
  const client = new OpenAI({ baseURL, apiKey: "sk-interop-not-a-real-key", maxRetries: 3 });
  const stream = await client.chat.completions.create({ model: "interop-model", stream: true,
    messages: [{ role: "user", content: "count" }], stream_options: { include_usage: true } });
  const arrivals = [];
  let text = "";
  for await (const ch of stream) {
    const d = ch.choices[0]?.delta?.content;
    if (d) {
      text += d;
      arrivals.push(Date.now());
      acked();
    }
  }
  if (stalled) fail("the stream stalled: a chunk did not reach the client before the next was due (the proxy buffered)");
  if (text !== "one two three") fail(`stream text ${JSON.stringify(text)}`);
  const gaps = arrivals.slice(1).map((t, i) => t - arrivals[i]);
  console.log(`interop: stream: ${arrivals.length} chunks, gaps ${gaps.join(", ")} ms`);

} finally {
  await hangProxy.stop();
}

// 3. A second proxy with a 429 window of 1.5 s, Retry-After 1 s: the SDK
// waits as told and retries by itself; only its third attempt reaches the
// upstream.
const rlProxy = await startProxy(["--outage", "rate-limit", "--fault", "retry_after=1s",
  "--outage-from", "0s", "--outage-to", "1500ms"], JOURNAL_429);
try {
  const client = new OpenAI({ baseURL: rlProxy.baseURL, apiKey: "sk-interop-not-a-real-key", maxRetries: 3 });
  seen.length = 0;
  const t0 = Date.now();
  const ok = await client.chat.completions.create({ model: "interop-model", messages: [{ role: "user", content: "ping" }] });
  if (ok.choices[0].message.content !== "pong") fail(`429 window: answer ${JSON.stringify(ok.choices[0].message)}`);
  if (seen.join(",") !== "2") fail(`429 window: upstream saw retry counts ${seen}, want only the SDK's retry 2`);
  console.log(`interop: 429: answered on attempt 3 after ${((Date.now() - t0) / 1000).toFixed(2)} s`);
} finally {
  await rlProxy.stop();
  upstream.close();
}
