// Package present prints and shows what drill's triage commands produced:
// a finished run judged against its hypotheses (its verdicts, summary
// table and the calls that did not answer, or JSON), runs side by side, a
// journal replayed in the dashboard or as its recomputed summary, and a
// fleet run with its summaries.
//
// It is a view: figures come from scoring and internal/plain, runs from
// internal/session, and it imports no engine package.
package present
