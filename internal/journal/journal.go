// Package journal is drill's run record on disk: the run's event log as JSON
// Lines, written while the drill runs and read back by replay and reports.
//
// A journal has three kinds of line, each a JSON object with a "type":
//
//	{"type":"header","format":1,"drill_version":...,"config":{...},"start":...}
//	{"type":"event","seq":0,"at_ns":0,"kind":"run_start",...}   one per event, in log order
//	{"type":"summary","status":"completed","summary":{...}}      the run summary
//
// The writer flushes at least once a second, so a crash, a kill or Ctrl-C
// leaves a journal that reads back up to its last whole line; a journal with
// no summary line was cut short and its run counts as interrupted. No API key
// or authorization header ever reaches a journal: the configuration is
// scrubbed of secret-looking fields and every line of known secrets.
package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/drill-dev/drill/scoring"
)

// Format is the journal format version this package writes. Readers accept
// this version and older ones, and refuse newer ones with ErrNewerFormat.
const Format = 1

// Line types.
const (
	TypeHeader  = "header"
	TypeEvent   = "event"
	TypeSummary = "summary"
)

// openaiModule is the SDK's module path, whose version the header records.
const openaiModule = "github.com/openai/openai-go/v3"

// openaiPinned is the SDK version go.mod pins, used when the binary carries no
// build information (as in some test binaries).
const openaiPinned = "v3.98.0"

// Errors a reader returns, wrapped with the file name and line.
var (
	// ErrNotJournal means the input does not start with a journal header.
	ErrNotJournal = errors.New("not a drill journal")
	// ErrNewerFormat means the journal was written by a newer drill.
	ErrNewerFormat = errors.New("journal format is newer than this drill reads")
	// ErrCorrupt means a line in the middle of the journal cannot be read.
	ErrCorrupt = errors.New("corrupt journal line")
)

// Header is a journal's first line: what wrote it and the full effective
// configuration of the run.
type Header struct {
	Type            string          `json:"type"`
	Format          int             `json:"format"`
	DrillVersion    string          `json:"drill_version"`
	GoVersion       string          `json:"go_version"`
	OpenAIGoVersion string          `json:"openai_go_version"`
	Start           time.Time       `json:"start"`
	Config          json.RawMessage `json:"config,omitempty"`
	// Clock is the clock the run's offsets were measured on, "real" or
	// "virtual" (see package vclock); empty in journals from before it was
	// recorded, which ran in real time. A virtual run's Start is the wall
	// time it was started at.
	Clock string `json:"clock,omitempty"`
}

// SummaryLine is a journal's last line: the run summary (the object
// `drill run --json` prints) and how the run ended.
type SummaryLine struct {
	Type    string          `json:"type"`
	Status  string          `json:"status"`
	Summary scoring.Summary `json:"summary"`
	// Hypotheses are the drill's hypotheses judged on Summary ({expr,
	// value, pass}); absent when the drill had none.
	Hypotheses []scoring.Verdict `json:"hypotheses,omitempty"`
	// Chat is a chat workload's figures (scoring.FoldChat); Summary is
	// then empty.
	Chat *scoring.ChatSummary `json:"chat,omitempty"`
}

// UnmarshalJSON reads a summary line of any version: its summary through
// scoring.DecodeSummary, which fills the keys older drills did not write.
func (l *SummaryLine) UnmarshalJSON(b []byte) error {
	type bare SummaryLine // without this method
	var v struct {
		bare
		Summary json.RawMessage `json:"summary"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*l = SummaryLine(v.bare)
	if len(v.Summary) > 0 && string(v.Summary) != "null" {
		s, err := scoring.DecodeSummary(v.Summary)
		if err != nil {
			return fmt.Errorf("reading the summary line's summary: %w", err)
		}
		l.Summary = s
	}
	return nil
}

// NewHeader returns a header for a run that started at start with the given
// configuration, filled with this binary's versions. The configuration is
// marshalled to JSON and scrubbed of secret-looking fields (see Scrub).
func NewHeader(config any, start time.Time) (Header, error) {
	h := Header{
		Type:            TypeHeader,
		Format:          Format,
		DrillVersion:    DrillVersion(),
		GoVersion:       runtime.Version(),
		OpenAIGoVersion: OpenAIGoVersion(),
		Start:           start,
	}
	if config != nil {
		raw, err := json.Marshal(config)
		if err != nil {
			return Header{}, fmt.Errorf("journal: encoding the configuration: %w", err)
		}
		clean, err := Scrub(raw)
		if err != nil {
			return Header{}, err
		}
		h.Config = clean
	}
	return h, nil
}

// Version, when set (by the drill command, from its build-time version),
// is the drill version headers record and errors quote.
var Version string

// DrillVersion is the version of the running drill binary: Version if set,
// else its module version from the build information, or "devel".
func DrillVersion() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

// OpenAIGoVersion is the version of openai-go linked into the binary, or the
// version go.mod pins when the binary does not link it or carries no build
// information.
func OpenAIGoVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == openaiModule {
				if d.Replace != nil && d.Replace.Version != "" {
					return d.Replace.Version
				}
				return d.Version
			}
		}
	}
	return openaiPinned
}
