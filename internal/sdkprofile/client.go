package sdkprofile

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/drill-dev/drill/internal/edge"
)

// maxHeader bounds what Identify keeps of a header a client sent.
const maxHeader = 64

// Client is a request's client library, as its headers name it.
type Client struct {
	// Package is the library's package name ("openai-node";
	// "stainless-LANG" for a language no profile covers) and Version its
	// release; both "" when the request names none.
	Package, Version string
	// Timeout is the time limit the client declares: python's read
	// timeout (X-Stainless-Read-Timeout), else X-Stainless-Timeout in
	// whole seconds (node, and go's request timeout); 0 when none.
	Timeout time.Duration
}

// Identify names the client library of a request from the headers the
// official SDKs send: X-Stainless-Lang and X-Stainless-Package-Version,
// else a User-Agent such as "OpenAI/JS 7.60.0". The values are the
// client's: clipped, not trusted.
func Identify(h http.Header) Client {
	lang := strings.ToLower(strings.TrimSpace(h.Get("X-Stainless-Lang")))
	version := strings.TrimSpace(h.Get("X-Stainless-Package-Version"))
	if lang == "" {
		// "OpenAI/JS 7.60.0", "OpenAI/Python 3.3.1", "OpenAI/Go 3.98.0"
		name, ver, _ := strings.Cut(strings.TrimSpace(h.Get("User-Agent")), " ")
		for _, p := range profiles {
			if strings.EqualFold(name, p.UserAgent) {
				lang, version = p.Lang, strings.Fields(ver + " ")[0]
			}
		}
	}
	if lang == "" {
		return Client{}
	}
	c := Client{Version: edge.Clip(version, maxHeader), Timeout: declaredTimeout(h)}
	if p, ok := ByLang(lang); ok {
		c.Package = p.Package
	} else {
		c.Package = edge.Clip("stainless-"+lang, maxHeader)
	}
	return c
}

// declaredTimeout reads the time limit a client declares, in seconds; 0
// when absent, not a number, not positive or past a day.
func declaredTimeout(h http.Header) time.Duration {
	for _, k := range []string{"X-Stainless-Read-Timeout", "X-Stainless-Timeout"} {
		v, err := strconv.ParseFloat(strings.TrimSpace(h.Get(k)), 64)
		if err == nil && v > 0 && v <= 86400 {
			return time.Duration(v * float64(time.Second))
		}
	}
	return 0
}

// Label is the client as the proxy names it: "openai-node 7.60.0", or
// "unknown client" for a request that names no library.
func (c Client) Label() string {
	if c.Package == "" {
		return "unknown client"
	}
	return strings.TrimSpace(c.Package + " " + c.Version)
}

// ByLang returns the profile of the library that sends X-Stainless-Lang
// lang.
func ByLang(lang string) (Profile, bool) {
	for _, p := range profiles {
		if strings.EqualFold(p.Lang, lang) {
			return p, true
		}
	}
	return Profile{}, false
}

// ByPackage returns the profile of package pkg ("openai-node"), as
// Identify names it.
func ByPackage(pkg string) (Profile, bool) {
	for _, p := range profiles {
		if p.Package == pkg {
			return p, true
		}
	}
	return Profile{}, false
}

// FaultOf reads an outage window's kind and parameters (as --fault takes
// them, defaults where absent) as the fault every attempt of a call meets;
// stream is whether the call asks for a stream. Parameters it cannot read
// keep their defaults.
func FaultOf(kind string, params map[string]string, stream bool) Fault {
	f := Fault{Kind: kind, Stream: stream, RetryAfter: time.Second, Delay: 5 * time.Second, AtBody: params["at"] == "body"}
	for key, dst := range map[string]*time.Duration{"retry_after": &f.RetryAfter, "delay": &f.Delay} {
		if v, ok := params[key]; ok {
			if d, err := time.ParseDuration(v); err == nil {
				*dst = d
			}
		}
	}
	if params["spend_cap"] == "true" {
		f.RetryAfter = 0 // the quota 429 sends no hint
	}
	if st, err := strconv.Atoi(params["status"]); err == nil {
		f.Status = st
	}
	return f
}
