package sdkprofile

import (
	"net/http"
	"strings"

	"github.com/drill-dev/drill/internal/edge"
)

// maxHeader bounds what Identify keeps of a header a client sent.
const maxHeader = 64

// Identify names the client library of a request from the headers the
// official SDKs send: X-Stainless-Lang and X-Stainless-Package-Version,
// else a User-Agent such as "OpenAI/JS 7.60.0". pkg is the library's
// package name ("openai-node"; "stainless-LANG" for a language no profile
// covers) and version its release; both "" when the request names none.
// The values are the client's: clipped, not trusted.
func Identify(h http.Header) (pkg, version string) {
	lang := strings.ToLower(strings.TrimSpace(h.Get("X-Stainless-Lang")))
	version = strings.TrimSpace(h.Get("X-Stainless-Package-Version"))
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
		return "", ""
	}
	version = edge.Clip(version, maxHeader)
	if p, ok := ByLang(lang); ok {
		return p.Package, version
	}
	return edge.Clip("stainless-"+lang, maxHeader), version
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
