// Interoperability check: the official openai npm package against
// `drill fake-model`. It streams (with and without include_usage), parses a
// triage with zodResponseFormat, lists models, gets typed errors, and runs
// the chat workload's agent with tools (by hand, streamed, and with
// runTools).
// Usage: node check.mjs /path/to/drill   (run.sh builds drill and calls it)
import { spawn } from "node:child_process";
import assert from "node:assert/strict";
import OpenAI from "openai";
import { LengthFinishReasonError } from "openai/core/error";
import { zodResponseFormat } from "openai/helpers/zod";
import { z } from "zod";

const drill = process.argv[2] ?? "drill";
const key = "sk-interop-test";

// Start the fake model on a free port and read its address from the start line.
const server = spawn(drill, ["fake-model", "--listen", "127.0.0.1:0", "--latency-scale", "0", "--require-key", key, "--log"], {
  stdio: ["ignore", "ignore", "pipe"],
});
let log = "";
const baseURL = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error("drill fake-model did not start within 20 s:\n" + log)), 20000);
  server.stderr.on("data", (b) => {
    log += b.toString();
    const m = log.match(/on (http:\/\/[^ ]+\/v1)/);
    if (m) {
      clearTimeout(timer);
      resolve(m[1]);
    }
  });
  server.on("exit", (code) => reject(new Error(`drill fake-model exited with ${code}:\n${log}`)));
});

const client = new OpenAI({ baseURL, apiKey: key, maxRetries: 0 });
const email = "From: marcus@example.com\nSubject: URGENT - return\n\nHi,\n\nURGENT: I want to return the Cloudrest sleeping pad I bought. It's too narrow for me. Order DR-131422.\n\nMarcus";
const system = "You triage customer support emails for an outdoor-gear shop. Answer with a JSON object with four fields: intent, order_number, product, urgency.";
const messages = [
  { role: "system", content: system },
  { role: "user", content: email },
];
const Triage = z.object({
  intent: z.enum(["return", "refund", "exchange", "order_status", "cancel", "change_order", "warranty_claim", "product_question", "complaint", "feedback"]),
  order_number: z.string(),
  product: z.string(),
  urgency: z.enum(["low", "normal", "high"]),
});
let passed = 0;
const check = async (name, fn) => {
  await fn();
  passed++;
  console.log("ok  " + name);
};

try {
  await check("models.list", async () => {
    const ids = [];
    for await (const m of client.models.list()) ids.push(m.id);
    assert.deepEqual(ids, ["gpt-5.4-mini", "gpt-5.4-nano"]);
  });

  await check("parse with zodResponseFormat", async () => {
    const completion = await client.chat.completions.parse({
      model: "gpt-5.4-mini",
      messages,
      response_format: zodResponseFormat(Triage, "email_triage"),
    });
    const parsed = completion.choices[0].message.parsed;
    assert.deepEqual(parsed, { intent: "return", order_number: "DR-131422", product: "Cloudrest Sleeping Pad", urgency: "normal" });
    assert.match(completion._request_id ?? "", /^req_[0-9a-f]{32}$/);
  });

  await check("stream without include_usage: every chunk has a choice", async () => {
    const stream = await client.chat.completions.create({ model: "gpt-5.4-nano", messages, stream: true, response_format: zodResponseFormat(Triage, "email_triage") });
    let text = "";
    for await (const chunk of stream) {
      assert.ok(chunk.choices.length > 0, "a chunk without choices");
      assert.equal(chunk.usage, undefined);
      text += chunk.choices[0].delta.content ?? "";
    }
    const a = Triage.parse(JSON.parse(text));
    assert.equal(a.urgency, "high"); // nano takes "URGENT" at its word
  });

  await check("stream with include_usage: usage last, null before", async () => {
    const stream = await client.chat.completions.create({ model: "gpt-5.4-mini", messages, stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const last = chunks.at(-1);
    assert.equal(last.choices.length, 0);
    assert.ok(last.usage.total_tokens > 0);
    for (const c of chunks.slice(0, -1)) assert.equal(c.usage, null);
  });

  await check("stream helper with zod: finalChatCompletion parsed", async () => {
    const runner = client.chat.completions.stream({ model: "gpt-5.4-mini", messages, response_format: zodResponseFormat(Triage, "email_triage") });
    const final = await runner.finalChatCompletion();
    assert.equal(final.choices[0].message.parsed.product, "Cloudrest Sleeping Pad");
  });

  await check("typed errors: AuthenticationError, NotFoundError, BadRequestError", async () => {
    const bad = new OpenAI({ baseURL, apiKey: "wrong", maxRetries: 0 });
    await assert.rejects(bad.models.list(), (e) => e instanceof OpenAI.AuthenticationError && e.status === 401 && e.code === "invalid_api_key");
    await assert.rejects(client.chat.completions.create({ model: "gpt-nope", messages }), (e) => e instanceof OpenAI.NotFoundError && e.code === "model_not_found");
    await assert.rejects(client.chat.completions.create({ model: "gpt-5.4-mini", messages, temperature: 9 }), (e) => e instanceof OpenAI.BadRequestError && e.param === "temperature");
    await assert.rejects(
      client.chat.completions.create({ model: "gpt-5.4-mini", messages, functions: [{ name: "f", parameters: { type: "object", properties: {} } }] }),
      (e) => e instanceof OpenAI.BadRequestError && e.param === "functions" && /fake model/.test(e.message),
    );
    await assert.rejects(client.chat.completions.create({ model: "gpt-5.4-mini", messages, max_completion_tokens: 0 }), (e) => e instanceof OpenAI.BadRequestError);
    const cut = await client.chat.completions.create({ model: "gpt-5.4-mini", messages, max_completion_tokens: 2 });
    assert.equal(cut.choices[0].finish_reason, "length");
    await assert.rejects(
      client.chat.completions.parse({ model: "gpt-5.4-mini", messages, max_completion_tokens: 2, response_format: zodResponseFormat(Triage, "email_triage") }),
      (e) => e instanceof LengthFinishReasonError,
    );
  });

  await check("n choices", async () => {
    const c = await client.chat.completions.create({ model: "gpt-5.4-mini", messages, n: 3 });
    assert.equal(c.choices.length, 3);
  });

  // The chat workload's agent: tools, tool_choice, tool messages, streamed
  // tool-call deltas (internal/fakemodel/agent.go has the protocol).
  const orderParams = {
    type: "object",
    properties: { order_id: { type: "string", description: "The order number, as DR-123456." } },
    required: ["order_id"],
    additionalProperties: false,
  };
  const toolDefs = ["get_order", "get_delivery_status", "get_tracking_events"].map((name) => ({
    type: "function",
    function: { name, description: "Look up " + name.slice(4).replaceAll("_", " ") + " by order number.", parameters: orderParams, strict: true },
  }));
  // The services' answers for Marcus's order, as internal/tools writes them.
  const results = {
    get_order: { order_id: "DR-131422", product: "Cloudrest Sleeping Pad", status: "shipped", placed: "2026-11-10" },
    get_delivery_status: { order_id: "DR-131422", carrier: "Parcelway", status: "in_transit", eta: "2026-11-15", last_update: "2026-11-12" },
    get_tracking_events: { order_id: "DR-131422", carrier: "Parcelway", events: [{ time: "2026-11-12", place: "Denver hub", event: "arrived at hub" }] },
  };
  const chat = [{ role: "user", content: email }];

  await check("tools: interpret, get_order, get_delivery_status, answer (four calls)", async () => {
    const msgs = [...chat];
    const steps = [];
    for (let turn = 0; turn < 10; turn++) {
      const c = await client.chat.completions.create({ model: "gpt-5.4-mini", messages: msgs, tools: toolDefs, tool_choice: turn === 0 ? "none" : "auto" });
      const m = c.choices[0].message;
      msgs.push(m);
      if (!m.tool_calls?.length) {
        steps.push({ content: m.content, finish: c.choices[0].finish_reason });
        if (turn > 0) break;
        continue;
      }
      assert.equal(c.choices[0].finish_reason, "tool_calls");
      assert.equal(m.content, null);
      for (const tc of m.tool_calls) {
        assert.equal(tc.type, "function");
        assert.deepEqual(JSON.parse(tc.function.arguments), { order_id: "DR-131422" });
        msgs.push({ role: "tool", tool_call_id: tc.id, content: JSON.stringify(results[tc.function.name]) });
      }
      steps.push({ calls: m.tool_calls.map((tc) => tc.function.name) });
    }
    assert.equal(steps.length, 4);
    assert.match(steps[0].content, /intent return/);
    assert.deepEqual(steps[1].calls, ["get_order"]);
    assert.deepEqual(steps[2].calls, ["get_delivery_status"]);
    assert.match(steps[3].content, /Cloudrest Sleeping Pad/);
    assert.match(steps[3].content, /Parcelway/);
  });

  await check("streamed tool call: id and name first, arguments in pieces, finish_reason tool_calls", async () => {
    const stream = await client.chat.completions.create({ model: "gpt-5.4-mini", messages: chat, tools: toolDefs, stream: true, stream_options: { include_usage: true } });
    const deltas = [];
    let finish = null;
    let usage = null;
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      for (const ch of chunk.choices) {
        if (ch.finish_reason) finish = ch.finish_reason;
        for (const tc of ch.delta.tool_calls ?? []) deltas.push(tc);
      }
    }
    assert.ok(deltas.length >= 3, `only ${deltas.length} tool-call deltas`);
    assert.equal(deltas[0].function.name, "get_order");
    assert.match(deltas[0].id, /^call_/);
    for (const d of deltas.slice(1)) assert.equal(d.id, undefined);
    assert.equal(deltas.map((d) => d.function.arguments ?? "").join(""), '{"order_id":"DR-131422"}');
    assert.equal(finish, "tool_calls");
    assert.ok(usage.prompt_tokens > 0 && usage.completion_tokens > 0);

    const runner = client.chat.completions.stream({ model: "gpt-5.4-mini", messages: chat, tools: toolDefs, tool_choice: { type: "function", function: { name: "get_tracking_events" } } });
    const final = await runner.finalChatCompletion();
    assert.equal(final.choices[0].message.tool_calls[0].function.name, "get_tracking_events");
  });

  await check("runTools runs the agent to its answer, streamed and not", async () => {
    for (const stream of [false, true]) {
      const called = [];
      const runnable = toolDefs.map((t) => ({
        type: "function",
        function: {
          name: t.function.name,
          parameters: orderParams,
          parse: JSON.parse,
          function: (args) => {
            called.push(t.function.name + ":" + args.order_id);
            return JSON.stringify(results[t.function.name]);
          },
        },
      }));
      const runner = client.chat.completions.runTools({ model: "gpt-5.4-nano", messages: chat, tools: runnable, stream });
      const content = await runner.finalContent();
      assert.deepEqual(called, ["get_order:DR-131422", "get_delivery_status:DR-131422"]);
      assert.match(content, /Cloudrest Sleeping Pad/);
    }
  });

  await check("tool messages: a result for no call is a BadRequestError", async () => {
    await assert.rejects(
      client.chat.completions.create({ model: "gpt-5.4-mini", messages: [...chat, { role: "tool", tool_call_id: "call_nobody", content: "{}" }], tools: toolDefs }),
      (e) => e instanceof OpenAI.BadRequestError && e.param === "messages[1].role" && /call_nobody/.test(e.message),
    );
    await assert.rejects(
      client.chat.completions.create({ model: "gpt-5.4-mini", messages: chat, tools: toolDefs, tool_choice: { type: "function", function: { name: "refund" } } }),
      (e) => e instanceof OpenAI.BadRequestError && e.param === "tool_choice",
    );
  });

  console.log(`interop: ${passed} checks passed against ${baseURL}`);
} catch (e) {
  console.error("interop FAILED:", e);
  console.error("fake-model log:\n" + log);
  process.exitCode = 1;
} finally {
  server.kill("SIGTERM");
}
