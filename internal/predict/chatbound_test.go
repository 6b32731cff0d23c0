package predict_test

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/event"
	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/fakemodel"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/internal/tools"
)

// boundPolicies are the presets and single checks a chat prediction must
// bound.
var boundPolicies = []string{chat.PresetDefaults, chat.PresetBreaker, chat.PresetAllChecks,
	chat.PresetDefaults + "+" + chat.CheckBudget, chat.PresetDefaults + "+" + chat.CheckStream}

// playChat runs cfg on the virtual clock against the built-in fake model's
// agent and returns its slowest conversation.
func playChat(t *testing.T, cfg chat.Config) time.Duration {
	t.Helper()
	var slowest time.Duration
	ended := 0
	synctest.Test(t, func(t *testing.T) {
		cfg.Models = fakemodel.New(fakemodel.Options{Seed: cfg.Seed, LatencyScale: 1}).Transport()
		cfg.Tools = tools.NewInProcess(emails.All(), 0, nil)
		r, err := chat.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r.Start(context.Background())
		for _, e := range r.Log().Events() {
			if e.Kind == event.ConversationEnd {
				ended++
				slowest = max(slowest, e.Chat.Elapsed)
			}
		}
	})
	if ended != cfg.Conversations {
		t.Fatalf("%d of %d conversations ended", ended, cfg.Conversations)
	}
	return slowest
}

// config is n conversations under the policy, every one inside the
// profile's incident window.
func config(t *testing.T, n int, seed int64, policy string, prof chat.Profile) chat.Config {
	t.Helper()
	cfg := chat.DefaultConfig()
	cfg.Conversations, cfg.Seed, cfg.Profile = n, seed, prof
	cfg.Profile.IncidentFrom, cfg.Profile.IncidentTo = 0, 24*time.Hour
	var err error
	if cfg.Policy, err = chat.PolicyByName(policy); err != nil {
		t.Fatal(err)
	}
	return cfg
}

// TestChatPredictionBoundsEveryIncident plays every incident kind under
// every preset (and each single check) on the virtual clock, every
// conversation in the incident, and checks that drill predict's case for
// that incident bounds the slowest conversation measured.
func TestChatPredictionBoundsEveryIncident(t *testing.T) {
	if testing.Short() {
		t.Skip("forty chat drills on the virtual clock")
	}
	for _, incident := range chat.IncidentKinds() {
		prof, err := chat.IncidentProfile(incident)
		if err != nil {
			t.Fatal(err)
		}
		for _, policy := range boundPolicies {
			in := predict.DefaultChatInputs()
			in.Incidents = []string{incident}
			cfg := config(t, 12, 1, policy, prof)
			p := predict.Chat(cfg.Policy, in)
			c, ok := p.Case(predict.ProviderIncident)
			if !ok || c.ConversationS == nil {
				t.Fatalf("%s / %s: no bounded incident case in %+v", incident, policy, p.Cases)
			}
			for _, seed := range []int64{1, 2} {
				cfg.Seed = seed
				got := playChat(t, cfg).Seconds()
				t.Logf("%s / %s / seed %d: slowest %.1f s, predicted at most %.1f s", incident, policy, seed, got, *c.ConversationS)
				if got > *c.ConversationS {
					t.Errorf("%s / %s / seed %d: a conversation took %.1f s, the prediction says at most %.1f s (%s)",
						incident, policy, seed, got, *c.ConversationS, c.StoppedBy)
				}
			}
		}
	}
}

// TestChatPredictionBoundsEveryProvider plays the three providers drill
// predict names (both models silent, both trickling at 2 tokens a second,
// both refusing every attempt) under the presets and checks each case
// bounds the slowest conversation. With all five checks and both models
// trickling, every stream is cut 3 s after its response headers, not 3 s
// after the call starts: three aborted streams take about 12 s, more than
// three checks' 9 s.
func TestChatPredictionBoundsEveryProvider(t *testing.T) {
	if testing.Short() {
		t.Skip("fifteen chat drills on the virtual clock")
	}
	providers := []struct {
		name  string
		class string
		fault event.FaultSpec
	}{
		{predict.ProviderSilent, chat.ClassSlow, event.FaultSpec{Kind: "hang"}},
		{predict.ProviderTrickling, chat.ClassSlow, event.FaultSpec{Kind: "trickle", Params: map[string]string{"tokens_per_s": "2"}}},
		{predict.ProviderOverloaded, chat.ClassOverloaded, event.FaultSpec{Kind: "overloaded"}},
	}
	for _, pv := range providers {
		prof, _ := chat.IncidentProfile(chat.IncidentNone)
		every := chat.Rates{Slow: 1}
		if pv.class == chat.ClassOverloaded {
			every = chat.Rates{Overloaded: 1}
		}
		prof.Primary.Normal, prof.Fallback.Normal = every, every
		prof.Faults[pv.class] = pv.fault
		for _, policy := range boundPolicies {
			cfg := config(t, 4, 1, policy, prof)
			c, ok := predict.Chat(cfg.Policy, predict.DefaultChatInputs()).Case(pv.name)
			if !ok {
				t.Fatalf("no %s case", pv.name)
			}
			got := playChat(t, cfg).Seconds()
			said := "unbounded"
			if c.ConversationS != nil {
				said = fmt.Sprintf("at most %.1f s", *c.ConversationS)
			}
			t.Logf("%s / %s: slowest %.1f s, predicted %s", pv.name, policy, got, said)
			if c.ConversationS != nil && got > *c.ConversationS {
				t.Errorf("%s / %s: a conversation took %.1f s, the prediction says at most %.1f s (%s)",
					pv.name, policy, got, *c.ConversationS, c.StoppedBy)
			}
		}
	}
}
