// The chat workload's faults on a real tool-calling client: `drill proxy`
// (the built-in fake model as its upstream, which answers as a support
// agent with get_order and get_delivery_status when offered tools) applies
// overloaded, malformed-tool-call or loop to every request (window 0 to
// 1 h), and the official openai npm package's tool helpers call through it
// with their defaults: chat.completions.runTools() (not streamed and
// streamed) and chat.completions.stream() with tools. For each, the
// attempts the proxy's journal counts, the faults it recorded, what the
// tools received and the error the helper ends with must be what the docs
// say (docs/proxy.md, "Chat faults on your own agent"), and overloaded's
// attempts and duration what `drill predict --sdk node` says of a 529.
// Exits non-zero, with the reason, if any differs.
//
// Environment: DRILL (the drill binary), WORK (a directory for journals).

import { spawn, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import OpenAI from "openai";
import { VERSION } from "openai/version";

const DRILL = process.env.DRILL ?? "drill";
const WORK = process.env.WORK ?? ".";
const SLACK = 1.0; // seconds of real-time overhead allowed past the prediction
const MODEL = "gpt-5.4-mini";
const ORDER = { order_id: "DR-123456" };
const MAX_TURNS = 5; // runTools' maxChatCompletions: a looping agent stops here

let failed = false;
function fail(msg) {
  console.error(`interop chat: FAIL: ${msg}`);
  failed = true;
}

async function startProxy(kind, journal) {
  const proc = spawn(DRILL, ["proxy", "--listen", "127.0.0.1:0", "--latency-scale", "0", "--no-tui", "--record", journal,
    "--outage", kind, "--outage-from", "0s", "--outage-to", "1h"], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  const exited = new Promise((r) => proc.on("exit", r));
  const baseURL = await new Promise((resolve, reject) => {
    proc.stderr.on("data", (d) => {
      err += d;
      const m = err.match(/http:\/\/(127\.0\.0\.1:\d+)\/v1 ->/);
      if (m) resolve(`http://${m[1]}/v1`);
    });
    exited.then((code) => reject(new Error(`drill proxy exited ${code}: ${err}`)));
  });
  return { baseURL, stop: async () => { proc.kill("SIGINT"); await exited; } };
}

// journalCounts reads a proxy journal: its attempts and the faults applied.
function journalCounts(journal) {
  const lines = readFileSync(journal, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  return {
    attempts: lines.filter((e) => e.kind === "attempt_start").length,
    faults: lines.filter((e) => e.kind === "fault").map((e) => e.fault),
  };
}

const toolParams = (name) => ({ type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] });
const wireTools = ["get_order", "get_delivery_status"].map((name) => ({ type: "function", function: { name, parameters: toolParams(name) } }));

// The tools runTools runs: they record every call they receive.
function runnableTools(calls) {
  const results = {
    get_order: { order_id: ORDER.order_id, status: "shipped", product: "kettle" },
    get_delivery_status: { order_id: ORDER.order_id, status: "in transit", carrier: "DHL", eta: "tomorrow" },
  };
  return Object.keys(results).map((name) => ({ type: "function", function: { name, parameters: toolParams(name),
    parse: JSON.parse, function: (args) => { calls.push({ name, args }); return results[name]; } } }));
}

const question = [{ role: "user", content: `Where is my order ${ORDER.order_id}? It was due on Monday.` }];
// The second turn of an agent that asked for the order: a tool call to
// repeat (loop), and a next step that is a tool call (malformed-tool-call).
const secondTurn = [...question,
  { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_order", arguments: JSON.stringify(ORDER) } }] },
  { role: "tool", tool_call_id: "call_1", content: JSON.stringify({ order_id: ORDER.order_id, status: "shipped" }) }];

const parses = (s) => { try { JSON.parse(s); return true; } catch { return false; } };

// run makes the helper's call; it returns what the check reads.
async function run(client, helper) {
  const calls = [];
  if (helper === "stream") {
    const s = client.chat.completions.stream({ model: MODEL, messages: secondTurn, tools: wireTools });
    for await (const _ of s) { /* chunk by chunk */ }
    const done = await s.finalChatCompletion();
    return { calls, toolCalls: done.choices[0].message.tool_calls ?? [], completions: 1 };
  }
  const runner = client.chat.completions.runTools({ model: MODEL, messages: question, tools: runnableTools(calls),
    stream: helper === "runTools, streamed" }, { maxChatCompletions: MAX_TURNS });
  const content = await runner.finalContent();
  return { calls, content, completions: runner.allChatCompletions().length, messages: runner.messages };
}

const predicted529 = JSON.parse(execFileSync(DRILL, ["predict", "--sdk", "node", "--outage", "busy", "--fault", "status=529",
  "--policy", "primary-only", "--json"], { encoding: "utf8" }));

// check says what is wrong with a case's outcome ("" if nothing).
function check(kind, helper, out, err, took, j) {
  switch (kind) {
    case "overloaded": {
      const [lo, hi] = predicted529.predicted_failure_s;
      if (!(err instanceof OpenAI.InternalServerError) || err.status !== 529) return `error ${err}, want InternalServerError 529`;
      if (j.attempts !== predicted529.attempts) return `${j.attempts} attempts, predicted ${predicted529.attempts}`;
      if (took < lo - 0.05 || took > hi + SLACK) return `took ${took.toFixed(2)} s, predicted ${lo}–${hi} s`;
      if (j.faults.length !== j.attempts || j.faults.some((f) => f !== kind)) return `faults ${j.faults}, want one per attempt`;
      return "";
    }
    case "malformed-tool-call": {
      if (err) return `error ${err}: the SDK accepts the answer, the arguments are the caller's to parse`;
      if (j.faults.length !== j.attempts || j.attempts !== out.completions) return `${j.attempts} attempts, ${j.faults.length} faults, ${out.completions} completions: want one faulted attempt per completion, no retry`;
      if (helper === "stream") {
        const tc = out.toolCalls[0];
        return tc && tc.function.name === "get_delivery_status" && !parses(tc.function.arguments) ? "" : `tool calls ${JSON.stringify(out.toolCalls)}, want the model's get_delivery_status with arguments that do not parse`;
      }
      // runTools parses each call's arguments with the tool's parse (JSON.parse):
      // it fails, the tool never runs and the error goes back to the model.
      const errors = out.messages.filter((m) => m.role === "tool" && /JSON|Unexpected|Expected/.test(String(m.content)));
      if (out.calls.length !== 0) return `the tools ran ${out.calls.length} times, want never: every call's arguments were cut`;
      if (errors.length === 0) return "no parse error went back to the model as a tool result";
      return "";
    }
    case "loop": {
      if (err) return `error ${err}, want none: a repeated call is a good answer to the SDK`;
      if (helper === "stream") {
        const tc = out.toolCalls;
        if (j.attempts !== 1 || j.faults.length !== 1) return `${j.attempts} attempts, ${j.faults.length} faults, want 1 and 1`;
        return tc.length === 1 && tc[0].function.name === "get_order" && tc[0].function.arguments === JSON.stringify(ORDER) && tc[0].id !== "call_1"
          ? "" : `tool calls ${JSON.stringify(tc)}, want get_order(${JSON.stringify(ORDER)}) again with a fresh id`;
      }
      // The first call has nothing to repeat and passes; every later one
      // repeats get_order, so the runner runs to its maxChatCompletions.
      if (out.completions !== MAX_TURNS || j.attempts !== MAX_TURNS) return `${out.completions} completions, ${j.attempts} attempts, want ${MAX_TURNS}: the loop runs to maxChatCompletions`;
      if (j.faults.length !== MAX_TURNS - 1) return `${j.faults.length} faults, want ${MAX_TURNS - 1} (the first call has no call to repeat)`;
      if (out.calls.length !== MAX_TURNS || out.calls.some((c) => c.name !== "get_order" || c.args.order_id !== ORDER.order_id)) return `tool calls ${JSON.stringify(out.calls)}, want get_order ${MAX_TURNS} times`;
      if (out.content !== null) return `final content ${JSON.stringify(out.content)}, want none: the agent never answered`;
      return "";
    }
  }
  return `unknown kind ${kind}`;
}

console.log(`interop chat: openai ${VERSION} (node ${process.version}) tool helpers through drill proxy's chat faults`);
let n = 0;
const kinds = ["overloaded", "malformed-tool-call", "loop"];
const helpers = ["runTools", "runTools, streamed", "stream"];
for (const kind of kinds) {
  for (const helper of helpers) {
    const journal = `${WORK}/chat-${n++}.jsonl`;
    const proxy = await startProxy(kind, journal);
    const client = new OpenAI({ baseURL: proxy.baseURL, apiKey: "sk-interop-not-a-real-key" });
    const t0 = Date.now();
    let out = null;
    let err = null;
    try {
      out = await run(client, helper);
    } catch (e) {
      err = e;
    }
    const took = (Date.now() - t0) / 1000;
    await proxy.stop();
    const j = journalCounts(journal);
    const why = check(kind, helper, out, err, took, j);
    const line = `${kind}, ${helper}: ${j.attempts} attempts, ${j.faults.length} faulted, ${took.toFixed(2)} s, ${err ? err.constructor.name + " " + (err.status ?? "") : "no error"}` +
      (out?.calls ? `, tools ran ${out.calls.length}×` : "") + (out?.completions ? `, ${out.completions} completions` : "");
    if (why === "") console.log(`interop chat: ok: ${line}`);
    else fail(`${line}: ${why}`);
  }
}
if (failed) process.exit(1);
console.log(`== interop/proxy/chat: ${kinds.length * helpers.length} cases: the npm package's runTools and stream helpers met overloaded, malformed-tool-call and loop through drill proxy as the docs say`);
