package plain

import (
	"fmt"
	"io"
	"strings"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/sdkprofile"
)

// SDKBehaviour is the per-SDK table: a row per fault (sdkprofile.Cases),
// a column per SDK profile, each cell what one call of that SDK does when
// every attempt meets the fault. md escapes what Markdown would read as
// emphasis.
func SDKBehaviour(md bool) Table {
	profs := sdkprofile.All()
	t := Table{Head: []string{"fault (SDK defaults, 2 retries)"}}
	for _, p := range profs {
		t.Head = append(t.Head, p.Label())
	}
	for _, c := range sdkprofile.Cases() {
		row := []string{c.Label}
		for _, p := range profs {
			row = append(row, mdCell(p.Cell(c), md))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// SDKFacts is the per-SDK table of what each profile was read from and
// says: a row per fact, a column per SDK profile.
func SDKFacts(md bool) Table {
	profs := sdkprofile.All()
	t := Table{Head: []string{"profile"}}
	for _, p := range profs {
		t.Head = append(t.Head, p.Label())
	}
	facts := []struct {
		name string
		of   func(p sdkprofile.Profile) string
	}{
		{"read from", func(p sdkprofile.Profile) string { return strings.Join(p.Sources, "; ") }},
		{"headers it sends", func(p sdkprofile.Profile) string {
			return fmt.Sprintf("X-Stainless-Lang: %s, User-Agent: %s %s", p.Lang, p.UserAgent, p.Version)
		}},
		{"retries", func(p sdkprofile.Profile) string { return fmt.Sprint(p.Retries) }},
		{"backoff", func(p sdkprofile.Profile) string {
			b := p.Backoff
			return fmt.Sprintf("%s doubling, capped at %s, minus up to %s jitter", format.Setting(b.Initial), format.Setting(b.Max), format.Percent(b.Jitter))
		}},
		{"Retry-After", func(p sdkprofile.Profile) string {
			r := p.RetryAfter
			s := fmt.Sprintf("%s, else %s; honoured up to %s", strings.Join(r.Headers[:len(r.Headers)-1], ", "), r.Headers[len(r.Headers)-1], format.Setting(r.Max))
			if r.MaxOption != "" {
				s += " (" + r.MaxOption + ")"
			}
			switch r.OverMax {
			case sdkprofile.StopRetrying:
				s += "; a longer hint: no retry, the error at once"
			case sdkprofile.OwnBackoff:
				s += "; a longer hint is ignored: its own backoff"
			}
			if !r.ZeroHonoured {
				s += "; a hint of 0: its own backoff"
			}
			return s
		}},
		{"time limit", func(p sdkprofile.Profile) string { return p.Timeout.Option + ": " + p.Timeout.Covers }},
		{"retried", func(p sdkprofile.Profile) string { return p.RetriedStatuses }},
		{"measured, not read", func(p sdkprofile.Profile) string { return strings.Join(p.Measured, "; ") }},
	}
	for _, f := range facts {
		row := []string{f.name}
		for _, p := range profs {
			row = append(row, mdCell(f.of(p), md))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// mdCell escapes a cell for Markdown: an asterisk (*openai.Error) and a
// pipe.
func mdCell(s string, md bool) string {
	if !md {
		return s
	}
	return strings.NewReplacer("*", `\*`, "|", `\|`).Replace(s)
}

// sdkCaseJSON is one case of one SDK in drill sdks --json.
type sdkCaseJSON struct {
	Case     string      `json:"case"`
	Kind     string      `json:"kind"`
	Stream   bool        `json:"stream"`
	TimeoutS float64     `json:"timeout_s"` // the application's time limit in the case; 0: the SDK's default
	Attempts int         `json:"attempts"`
	TookS    *[2]float64 `json:"took_s"` // low and high over the jitter; null: never ends
	Failed   bool        `json:"failed"`
	Error    string      `json:"error"`
}

// sdkJSON is one profile in drill sdks --json.
type sdkJSON struct {
	SDK     string        `json:"sdk"`
	Package string        `json:"package"`
	Version string        `json:"version"`
	Sources []string      `json:"sources"`
	Retries int           `json:"retries"`
	Cases   []sdkCaseJSON `json:"cases"`
}

// SDKJSON writes every profile and what one call of it does in each case,
// as JSON: an array with sdk, package, version, sources, retries and
// cases (case, kind, stream, timeout_s, attempts, took_s, failed, error).
func SDKJSON(w io.Writer) error {
	var out []sdkJSON
	for _, p := range sdkprofile.All() {
		j := sdkJSON{SDK: p.Name, Package: p.Package, Version: p.Version, Sources: p.Sources, Retries: p.Retries}
		for _, c := range sdkprofile.Cases() {
			call := p.Play(c.Fault, c.Settings)
			cj := sdkCaseJSON{Case: c.Label, Kind: c.Fault.Kind, Stream: c.Fault.Stream, TimeoutS: c.Settings.Timeout.Seconds(),
				Attempts: call.Attempts, Failed: call.Failed, Error: call.Error}
			if call.Took[0] != sdkprofile.Forever {
				cj.TookS = &[2]float64{call.Took[0].Seconds(), call.Took[1].Seconds()}
			}
			j.Cases = append(j.Cases, cj)
		}
		out = append(out, j)
	}
	return JSON(w, out)
}
