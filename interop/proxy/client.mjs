// The official openai npm package as a client of drill proxy.
//
// It starts a small OpenAI-compatible upstream of its own (so that it can
// open a 429 window with Retry-After when it wants), starts
// `drill proxy --upstream` in front of it with a hang window from 0 to
// HANG_MS, and then, as an application would:
//   1. calls inside the hang: the SDK's own timeout and retry end the call
//      with APIConnectionTimeoutError after 2 attempts;
//   2. streams a completion after the hang: each chunk reaches the client
//      before the upstream sends the next;
//   3. calls inside a 429 window (Retry-After: 1): the SDK waits and retries
//      by itself and gets the answer on its third attempt.
// Then it stops the proxy with SIGINT; the proxy writes its journal to
// JOURNAL. Exits non-zero, with the reason, if any step differs.
//
// Environment: DRILL (the drill binary), JOURNAL (the journal to record).

import { spawn } from "node:child_process";
import http from "node:http";
import OpenAI from "openai";
import { VERSION } from "openai/version";

const DRILL = process.env.DRILL ?? "drill";
const JOURNAL = process.env.JOURNAL ?? "proxy-interop.jsonl";
const HANG_MS = 2500;

function fail(msg) {
  console.error(`interop: FAIL: ${msg}`);
  process.exitCode = 1;
  throw new Error(msg);
}

// --- the upstream: answers chat completions (streamed or not) and models;
// during a 429 window it answers 429 with Retry-After: 1.
let rateLimitedUntil = 0;
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
    if (Date.now() < rateLimitedUntil) {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
      res.end(JSON.stringify({ error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } }));
      return;
    }
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

// --- drill proxy in front of it, with a hang window.
const proxy = spawn(DRILL, ["proxy", "--listen", "127.0.0.1:0", "--upstream", upstreamURL, "--no-tui",
  "--outage", "hang", "--outage-from", "0s", "--outage-to", `${HANG_MS}ms`, "--record", JOURNAL],
  { stdio: ["ignore", "pipe", "pipe"] });
let proxyErr = "";
let proxyOut = "";
proxy.stdout.on("data", (d) => (proxyOut += d));
const baseURL = await new Promise((resolve, reject) => {
  proxy.stderr.on("data", (d) => {
    proxyErr += d;
    const m = proxyErr.match(/http:\/\/(127\.0\.0\.1:\d+)\/v1/);
    if (m) resolve(`http://${m[1]}/v1`);
  });
  proxy.on("exit", (code) => reject(new Error(`drill proxy exited ${code}: ${proxyErr}`)));
});
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

  // 3. A 429 window of 1.5 s with Retry-After: 1: the SDK retries by itself.
  rateLimitedUntil = Date.now() + 1500;
  seen.length = 0;
  const t0 = Date.now();
  const ok = await client.chat.completions.create({ model: "interop-model", messages: [{ role: "user", content: "ping" }] });
  if (ok.choices[0].message.content !== "pong") fail(`429 window: answer ${JSON.stringify(ok.choices[0].message)}`);
  if (seen.join(",") !== "0,1,2") fail(`429 window: upstream saw retry counts ${seen}, want 0,1,2`);
  console.log(`interop: 429: answered on attempt ${seen.length} after ${((Date.now() - t0) / 1000).toFixed(2)} s`);
} finally {
  proxy.kill("SIGINT");
  const code = await new Promise((r) => proxy.on("exit", r));
  upstream.close();
  process.stdout.write(proxyOut);
  if (code !== 0) fail(`drill proxy exited ${code}: ${proxyErr}`);
}
