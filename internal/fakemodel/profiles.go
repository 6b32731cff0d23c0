package fakemodel

import (
	"time"
)

// ModelMini is the careful profile: it follows the shop's written rules,
// with its own blind spots (RuleImpliedDeadline, RuleNickname,
// RuleWrappedNumber).
const ModelMini = "gpt-5.4-mini"

// ModelNano is the cheap profile: cruder rules, mostly wrong on urgency.
const ModelNano = "gpt-5.4-nano"

// profile is one fake model: how it reads an email and how fast it answers.
type profile struct {
	Name    string
	Reader  *reader
	Latency LatencyProfile
}

var profiles = map[string]profile{
	ModelMini: {
		Name:   ModelMini,
		Reader: miniReader,
		Latency: LatencyProfile{
			Median: 1200 * time.Millisecond, Sigma: 0.3, Max: 2900 * time.Millisecond,
			TailProb: 0.03, TailMin: 3 * time.Second, TailMax: 5 * time.Second,
			TokensPerSecond: 90,
		},
	},
	ModelNano: {
		Name:   ModelNano,
		Reader: nanoReader,
		Latency: LatencyProfile{
			Median: 900 * time.Millisecond, Sigma: 0.25, Max: 2800 * time.Millisecond,
			TokensPerSecond: 160,
		},
	},
}

// Models returns the built-in profiles' names, mini first.
func Models() []string { return []string{ModelMini, ModelNano} }

// Profile returns the latency profile of a built-in model.
func Profile(model string) (LatencyProfile, bool) {
	p, ok := profiles[model]
	return p.Latency, ok
}
