// The npm package's profile, checked against the real client: for each
// fault, streamed and not, and through the chat.completions.stream() and
// runTools() helpers, `drill proxy` applies it to every request (window 0
// to 1 h), the official openai npm package calls through it with its
// defaults (2 retries) and the timeout given, and the attempts the proxy
// saw, the call's duration and the error class must be what
// `drill predict --sdk node --json` says of the same fault and settings.
// Exits non-zero, with the reason, if any differs.
//
// malformed (which drill predict does not read) is checked against the
// catalogue: one attempt, no error, the content not the upstream's.
//
// Environment: DRILL (the drill binary), WORK (a directory for journals).

import { spawn, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import OpenAI from "openai";
import { VERSION } from "openai/version";

const DRILL = process.env.DRILL ?? "drill";
const WORK = process.env.WORK ?? ".";
const SLACK = 1.0; // seconds of real-time overhead allowed past the prediction (process start, sockets)

let failed = false;
function fail(msg) {
  console.error(`interop sdk: FAIL: ${msg}`);
  failed = true;
}

// The upstream answers every chat completion, streamed or not.
const UPSTREAM_CONTENT = "pong pong pong pong pong pong";
const STREAM_CONTENT = "one two three four five";
const upstream = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    const r = JSON.parse(body || "{}");
    const usage = { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 };
    if (!r.stream) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "c1", object: "chat.completion", created: 0, model: r.model,
        choices: [{ index: 0, message: { role: "assistant", content: UPSTREAM_CONTENT }, finish_reason: "stop" }], usage }));
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const w of ["one ", "two ", "three ", "four ", "five"]) {
      res.write(`data: ${JSON.stringify({ id: "c2", object: "chat.completion.chunk", created: 0, model: r.model,
        choices: [{ index: 0, delta: { content: w }, finish_reason: null }] })}\n\n`);
    }
    res.end("data: [DONE]\n\n");
  });
});
await new Promise((r) => upstream.listen(0, "127.0.0.1", r));
const upstreamURL = `http://127.0.0.1:${upstream.address().port}/v1`;

async function startProxy(args, journal) {
  const proc = spawn(DRILL, ["proxy", "--listen", "127.0.0.1:0", "--upstream", upstreamURL, "--no-tui",
    "--record", journal, "--outage-from", "0s", "--outage-to", "1h", ...args], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  const exited = new Promise((r) => proc.on("exit", r));
  const baseURL = await new Promise((resolve, reject) => {
    proc.stderr.on("data", (d) => {
      err += d;
      const m = err.match(/http:\/\/(127\.0\.0\.1:\d+)\/v1/);
      if (m) resolve(`http://${m[1]}/v1`);
    });
    exited.then((code) => reject(new Error(`drill proxy exited ${code}: ${err}`)));
  });
  return { baseURL, stop: async () => { proc.kill("SIGINT"); await exited; } };
}

function predict(outage, faults, timeoutMs, stream) {
  const args = ["predict", "--sdk", "node", "--outage", outage, "--policy", "primary-only", "--json"];
  for (const f of faults) args.push("--fault", f);
  if (timeoutMs) args.push("--primary-timeout", `${timeoutMs}ms`);
  if (stream) args.push("--stream");
  return JSON.parse(execFileSync(DRILL, args, { encoding: "utf8" }));
}

const cases = [
  { name: "rate-limit, Retry-After 90 s", outage: "rate-limit", faults: ["retry_after=90s"], error: OpenAI.RateLimitError },
  { name: "busy", outage: "busy", faults: [], error: OpenAI.InternalServerError },
  { name: "hang, 800 ms timeout", outage: "hang", faults: [], timeout: 800, error: OpenAI.APIConnectionTimeoutError },
  { name: "stall, not streamed, 800 ms timeout", outage: "stall", faults: ["after_chunks=2"], timeout: 800, error: OpenAI.APIConnectionTimeoutError },
  { name: "stall, streamed, 800 ms timeout", outage: "stall", faults: [], timeout: 800, stream: true, never: true },
  { name: "reset before the headers", outage: "reset", faults: [], error: OpenAI.APIConnectionError },
  { name: "reset mid-body, not streamed", outage: "reset", faults: ["at=body", "after_chunks=2"], errorName: "TypeError" },
  { name: "slow, 800 ms timeout", outage: "slow", faults: [], timeout: 800, error: OpenAI.APIConnectionTimeoutError },
  // drill predict does not read malformed: the SDK accepts the broken
  // answer (one attempt, no error) and its content is the caller's to find.
  { name: "malformed, not streamed", outage: "malformed", faults: [], accepts: true },
  // Streamed: everything before the headers is retried as for a plain call.
  { name: "slow, streamed, 800 ms timeout", outage: "slow", faults: [], timeout: 800, stream: true, error: OpenAI.APIConnectionTimeoutError },
  { name: "malformed, streamed", outage: "malformed", faults: [], stream: true, accepts: true },
  { name: "busy, streamed", outage: "busy", faults: [], stream: true, error: OpenAI.InternalServerError },
  { name: "rate-limit, Retry-After 90 s, streamed", outage: "rate-limit", faults: ["retry_after=90s"], stream: true, error: OpenAI.RateLimitError },
  { name: "hang, streamed, 800 ms timeout", outage: "hang", faults: [], timeout: 800, stream: true, error: OpenAI.APIConnectionTimeoutError },
  { name: "reset before the headers, streamed", outage: "reset", faults: [], stream: true, error: OpenAI.APIConnectionError },
  { name: "reset mid-stream", outage: "reset", faults: ["at=body", "after_chunks=2"], stream: true, errorName: "TypeError" },
  // The helpers: chat.completions.stream() and runTools() make the same
  // calls, so they meet the same retries.
  { name: "stall, chat.completions.stream(), 800 ms timeout", outage: "stall", faults: [], timeout: 800, stream: true, helper: "stream", never: true },
  { name: "busy, chat.completions.stream()", outage: "busy", faults: [], stream: true, helper: "stream", error: OpenAI.InternalServerError },
  { name: "busy, runTools()", outage: "busy", faults: [], helper: "runTools", error: OpenAI.InternalServerError },
  { name: "rate-limit, Retry-After 90 s, runTools()", outage: "rate-limit", faults: ["retry_after=90s"], helper: "runTools", error: OpenAI.RateLimitError },
  // drill predict does not read a trickle: these two check the profile's
  // own rows (drill sdks --json). Not streamed, the timeout covers the
  // whole body and is retried; streamed, nothing covers the body.
  { name: "trickle, not streamed, 1 s timeout", outage: "trickle", faults: ["tokens_per_s=2"], timeout: 1000,
    profile: "trickle (20 s body), not streamed, 1 s timeout", error: OpenAI.APIConnectionTimeoutError },
  { name: "trickle, streamed, 1 s timeout", outage: "trickle", faults: ["tokens_per_s=2"], timeout: 1000, stream: true,
    profile: "trickle (20 s body), streamed, 1 s timeout", answers: true },
];

const nodeProfile = JSON.parse(execFileSync(DRILL, ["sdks", "--json"], { encoding: "utf8" })).find((p) => p.sdk === "node");

// fromProfile is a profile row as drill predict --json would say it: the
// attempts and, for a call that fails, how long it takes.
function fromProfile(label) {
  const row = nodeProfile.cases.find((c) => c.case === label);
  if (!row) throw new Error(`drill sdks --json has no node row ${label}`);
  return { attempts: row.attempts, predicted_failure_s: row.failed ? row.took_s : null, answers: !row.failed };
}

// call makes case c's call with client, as the application would.
async function call(client, c, signal) {
  const params = { model: "interop-model", messages: [{ role: "user", content: "ping" }] };
  if (c.helper === "runTools") {
    const runner = client.chat.completions.runTools({ ...params,
      tools: [{ type: "function", function: { name: "lookup", description: "look an order up", parameters: { type: "object", properties: {} }, function: () => "{}" } }] },
    { signal });
    return runner.finalContent();
  }
  if (c.helper === "stream") {
    const s = client.chat.completions.stream(params, { signal });
    for await (const _ of s) { /* chunk by chunk */ }
    return s.finalChatCompletion();
  }
  if (c.stream) {
    const s = await client.chat.completions.create({ ...params, stream: true }, { signal });
    let content = "";
    for await (const chunk of s) { content += chunk.choices[0]?.delta?.content ?? ""; /* the stall holds the stream open */ }
    return content;
  }
  return (await client.chat.completions.create(params, { signal })).choices[0].message.content;
}

console.log(`interop sdk: openai ${VERSION} (node ${process.version}) against drill predict --sdk node`);
let n = 0;
for (const c of cases) {
  const want = c.accepts ? { attempts: 1, predicted_failure_s: null } : c.profile ? fromProfile(c.profile) : predict(c.outage, c.faults, c.timeout, c.stream);
  const journal = `${WORK}/sdk-${n++}.jsonl`;
  const proxy = await startProxy(["--outage", c.outage, ...c.faults.flatMap((f) => ["--fault", f])], journal);
  const client = new OpenAI({ baseURL: proxy.baseURL, apiKey: "sk-interop-not-a-real-key", ...(c.timeout ? { timeout: c.timeout } : {}) });
  const t0 = Date.now();
  let err = null;
  let took;
  let got;
  let guarded = false;
  try {
    const ac = new AbortController();
    const guard = c.never ? setTimeout(() => { guarded = true; ac.abort(); }, 3 * c.timeout + 1500) : undefined;
    try {
      got = await call(client, c, ac.signal);
    } finally {
      clearTimeout(guard);
    }
  } catch (e) {
    err = e;
  }
  took = (Date.now() - t0) / 1000;
  await proxy.stop();
  const attempts = readFileSync(journal, "utf8").split("\n").filter((l) => l.includes('"kind":"attempt_start"')).length;
  const fs = want.predicted_failure_s;
  const errName = err ? err.constructor.name : "none";
  let ok = attempts === want.attempts;
  if (c.accepts) {
    // Accepted, with content that is not the upstream's.
    ok = ok && err === null && typeof got === "string" && got !== UPSTREAM_CONTENT && got !== STREAM_CONTENT;
  } else if (c.answers) {
    // Answered, after longer than the timeout: no limit covered the body.
    ok = ok && want.answers && err === null && took > c.timeout / 1000;
  } else if (c.never) {
    // Predicted never to end: still open when the guard aborted it, long
    // after three of its timeouts.
    ok = ok && fs === null && guarded && took >= 3 * c.timeout / 1000;
  } else {
    ok = ok && fs !== null && took >= fs[0] - 0.05 && took <= fs[1] + SLACK;
    ok = ok && (c.error ? err instanceof c.error && err.constructor === c.error : err?.constructor?.name === c.errorName);
  }
  const said = fs ? fs.join("–") + " s" : c.accepts ? "accepted, content broken" : want.answers ? "answers" : "never ends";
  const line = `${c.name}: measured ${attempts} attempts, ${took.toFixed(2)} s, ${errName}; predicted ${want.attempts} attempts, ${said}`;
  if (ok) console.log(`interop sdk: ok: ${line}`);
  else fail(line);
}
upstream.close();
if (failed) process.exit(1);
console.log(`== interop/proxy/sdk: ${cases.length} faults through drill proxy: the npm package did what drill predict --sdk node and its profile say`);
