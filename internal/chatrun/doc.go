// Package chatrun is the chat workload's commands past their flags: drill
// run, compare, replay, report and predict of conversations, each from one
// options struct, run through internal/session, shown in the Conversations
// view and printed as the triage commands print theirs (tables in the
// format asked for, verdicts, JSON).
//
// It is a view: it shows the dashboards and prints the reports, and
// imports no engine package; the chat presets' names come in with the
// options, from cmd/drill.
package chatrun
