// Package scoring is drill's one fold: the only package that interprets a
// run's events. Every figure drill shows — live on the dashboard, in the
// progress lines, in drill run's table and JSON, in a journal's summary
// line, in drill replay, reports, sweeps, history and recommend — comes
// from here, so a number means the same everywhere.
//
// The package's files, by what they fold or judge:
//
//   - The triage fold: fold.go (Fold and its options), emails.go (who
//     served each email), quality.go (answers against the truth, Wilson
//     intervals), summary.go (the run's Summary, whose JSON keys are
//     documented in docs/keys.md and stable), elapsed.go (waits at the
//     run's clock), breakers.go (states, opens, probes), series.go
//     (per-second series, bounded), windows.go (outage windows, injected and
//     observed), attempts.go (pairing HTTP attempts), inflight.go (what was
//     in flight), cost.go (tokens and spend), classes.go (per-class
//     figures), metrics.go (calls and SDK requests as metrics),
//     predicted.go (the prediction a run logged), alerts.go (alerts scoped
//     to the run), hand.go (what the hand changed live), reclaim.go (a work
//     queue's finished emails), validate.go (bounds every recorded event
//     keeps).
//   - Figures and checks: registry.go (the one registry of figures: name,
//     unit, direction, doc line and how to read it), hypothesis.go and
//     difference.go (checks and abort conditions), verdict.go (a summary
//     with its checks judged), baseline.go (a run beside its baseline),
//     recommend.go (the bounds recommend judges a setting by).
//   - Many runs: sweep.go (figures over repeated runs and the trade-off
//     front's rule), front.go (that rule over many settings, in dense
//     form), paired.go (exact McNemar tests on paired outcomes).
//   - Other workloads and topologies: conversations.go, chatfigures.go and
//     chatstops.go (the chat workload), fleet.go (a drill fleet's replicas),
//     proxy.go and proxyfleet.go (requests through drill proxy).
//
// Folding never panics and never allocates without bound, whatever the
// events' offsets.
package scoring
