// Package sdkprofile holds what each official OpenAI client library does
// against a broken provider, as data: its default retries, backoff and
// jitter, how it reads and caps a server's Retry-After, which time limit
// covers what, which failures it retries and the error each fault surfaces
// as. Each profile names the SDK version and the source files it was read
// from; behaviours measured rather than read say so.
//
// drill runs openai-go itself, but the services it drills through drill
// proxy are mostly written against the npm package or openai-python:
// drill predict (--sdk), the proxy's per-client summary and the docs' per-SDK
// tables all read these profiles, through Attempt, Wait and Play.
package sdkprofile

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The names of the profiles (drill predict --sdk).
const (
	Go     = "go"
	Node   = "node"
	Python = "python"
)

// OverCap is what an SDK does with a server's retry hint longer than it
// honours.
type OverCap string

const (
	// StopRetrying returns the error at once (openai-go, openai-python).
	StopRetrying OverCap = "stop"
	// OwnBackoff ignores the hint and waits its own backoff (openai-node).
	OwnBackoff OverCap = "backoff"
)

// Backoff is an SDK's own wait before retry k (0 for the first): Initial
// doubling, capped at Max, then multiplied by (1 - u × Jitter) for a
// uniform u in [0, 1): every SDK here takes off up to 25 %.
type Backoff struct {
	Initial time.Duration
	Max     time.Duration
	Jitter  float64
}

// RetryAfter is how an SDK reads a server's hint of when to retry.
type RetryAfter struct {
	// Headers are read in this order; the first that parses wins.
	Headers []string
	// Max is the longest hint honoured (inclusive).
	Max time.Duration
	// MaxOption is the client option that changes Max; "" when none.
	MaxOption string
	// OverMax is what a longer hint does.
	OverMax OverCap
	// ZeroHonoured is true when a hint of 0 retries at once (false: the
	// SDK's own backoff replaces it).
	ZeroHonoured bool
}

// Timeout is what an SDK's time limit covers. The limit is the client's
// own option (Option); Default is its value when the application sets none
// (0: no limit at all).
type Timeout struct {
	Option  string
	Default time.Duration
	// Connect is the separate limit on opening a connection (0: the same
	// limit, or none).
	Connect time.Duration
	// PerRead is true when the limit restarts on every read from the
	// socket (an idle limit): a slow body that keeps sending never hits it.
	PerRead bool
	// Body is true when the limit covers a non-streamed body, Stream when
	// it covers a stream's body after its headers.
	Body, Stream bool
	// BodyTimeoutRetried is true when the limit, hit while reading a
	// non-streamed body, is retried like a timeout before the headers;
	// BodyResetRetried the same for a connection dropped in that body.
	BodyTimeoutRetried, BodyResetRetried bool
	// Covers says the above in words, for the docs.
	Covers string
}

// Errors are the error types an application sees, by fault.
type Errors struct {
	Status5xx, Status429 string // an error status, once retries are spent
	Timeout              string // the time limit, before the headers
	RequestTimeout       string // openai-go's option.WithRequestTimeout, before the headers
	BodyTimeout          string // the time limit while reading a non-streamed body
	StreamTimeout        string // the time limit while reading a stream
	Conn                 string // a connection error before the headers
	BodyReset            string // the connection dropped in a non-streamed body
	StreamReset          string // the connection dropped in a stream
}

// Profile is one client library.
type Profile struct {
	// Name is the --sdk value: go, node, python.
	Name string
	// Package is the library's name as the docs and the proxy print it.
	Package string
	// Lang is the X-Stainless-Lang header the library sends;
	// UserAgent is the start of its User-Agent ("OpenAI/JS").
	Lang, UserAgent string
	// Version is the release the profile was read from, Sources the
	// files of that release it was read from.
	Version string
	Sources []string
	// Retries is the default number of retries after the first attempt.
	Retries    int
	Backoff    Backoff
	RetryAfter RetryAfter
	Timeout    Timeout
	// RetriedStatuses says in words which statuses are retried; every
	// profile here retries 408, 409, 429 and 5xx, and connection errors,
	// unless the server sends x-should-retry.
	RetriedStatuses string
	Errors          Errors
	// Measured lists the behaviours taken from a measurement rather than
	// from the source, in words; empty when everything was read.
	Measured []string
}

// Label is the profile's package and version: "openai-node 7.60.0".
func (p Profile) Label() string { return p.Package + " " + p.Version }

// Files are the source files of Sources, without the functions named.
func (p Profile) Files() []string {
	out := make([]string, len(p.Sources))
	for i, s := range p.Sources {
		out[i], _, _ = strings.Cut(s, " (")
	}
	return out
}

// retried is what every profile here retries.
const retried = "408, 409, 429, 5xx and connection errors (x-should-retry: true/false overrides)"

var profiles = []Profile{goProfile, nodeProfile, pythonProfile}

// All returns every profile, in the order go, node, python.
func All() []Profile { return slices.Clone(profiles) }

// Names lists the profiles' names (the valid --sdk values).
func Names() []string {
	out := make([]string, len(profiles))
	for i, p := range profiles {
		out[i] = p.Name
	}
	return out
}

// Lookup returns the profile called name (case-insensitive), or an error
// listing the valid names.
func Lookup(name string) (Profile, error) {
	for _, p := range profiles {
		if strings.EqualFold(p.Name, strings.TrimSpace(name)) {
			return p, nil
		}
	}
	return Profile{}, fmt.Errorf("unknown SDK %q (valid: %s)", name, strings.Join(Names(), ", "))
}
