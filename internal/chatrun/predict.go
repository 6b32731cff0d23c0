package chatrun

import (
	"fmt"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/internal/cli"
	"github.com/drill-dev/drill/internal/exit"
	"github.com/drill-dev/drill/internal/plain"
	"github.com/drill-dev/drill/internal/plan"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/internal/report"
	"github.com/drill-dev/drill/internal/sdkprofile"
)

// PredictFlags are drill predict's chat inputs.
type PredictFlags struct {
	within       time.Duration
	trickle      float64
	answerTokens int
	headers      time.Duration
	modelPace    float64
}

// Register adds the chat inputs to fs, marked chat-only.
func (c *PredictFlags) Register(fs *pflag.FlagSet) {
	d := predict.DefaultChatInputs()
	fs.DurationVar(&c.within, "within", 0, "chat: the wait a conversation should fit in; each case then says the setting that makes it fit")
	fs.Float64Var(&c.trickle, "trickle", d.TrickleTokensPerS, "chat: the trickling provider's tokens a second")
	fs.IntVar(&c.answerTokens, "answer-tokens", d.AnswerTokens, "chat: an answer's length in tokens when the policy sets no --max-tokens")
	fs.DurationVar(&c.headers, "headers", time.Duration(d.HeadersS*float64(time.Second)),
		"chat: the slowest a model sends its response headers (the stream-rate check counts from them; default: the built-in fake model's slowest)")
	fs.Float64Var(&c.modelPace, "model-tokens-per-s", d.ModelTokensPerS, "chat: a healthy model's slowest pace, tokens a second (default: the built-in fake model's)")
	plan.MarkChatOnly(fs, "within", "trickle", "answer-tokens", "headers", "model-tokens-per-s")
}

// inputs are the prediction's inputs from the flags, checked.
func (c PredictFlags) inputs() (predict.ChatInputs, error) {
	if !(c.trickle > 0) || c.answerTokens < 1 || c.within < 0 || c.headers < 0 || !(c.modelPace > 0) {
		return predict.ChatInputs{}, exit.Usagef("--trickle and --model-tokens-per-s must be above 0, --answer-tokens at least 1, --within and --headers not negative")
	}
	return predict.ChatInputs{TrickleTokensPerS: c.trickle, AnswerTokens: c.answerTokens, Within: c.within,
		HeadersS: c.headers.Seconds(), ModelTokensPerS: c.modelPace}, nil
}

// predictUnread are the chat flags a prediction does not read: it is the
// arithmetic of one conversation under the policy and the incidents.
var predictUnread = []string{"seed", "seeds", "conversations", "conversation-rate", "tool-breakers", "tool-breaker-scope", "tool-outage", "agent-profile"}

// PredictOptions are drill predict --workload chat's settings.
type PredictOptions struct {
	// Policy is --policy; Chat the chat flags and Inputs the chat
	// prediction's own.
	Policy string
	Chat   plan.ChatFlags
	Inputs PredictFlags
	// SDK is the client library of the service predicted for.
	SDK sdkprofile.Profile
	// JSON prints the prediction as JSON.
	JSON bool
}

// Predict is `drill predict --workload chat`: the worst case of one
// conversation under the policy (and the chat policy flags given) for a
// silent, a trickling and an overloaded provider and each incident, for a
// service written with the SDK.
func Predict(env cli.Env, o PredictOptions) error {
	fs := env.Flags
	for _, name := range predictUnread {
		if fs.Changed(name) {
			return exit.Usagef("drill predict --workload chat reads the policy of one conversation and the incidents, not --%s", name)
		}
	}
	pol, err := o.Chat.Policy(fs, o.Policy)
	if err != nil {
		return err
	}
	in, err := o.Inputs.inputs()
	if err != nil {
		return err
	}
	if in.Incidents, in.Profiles, err = o.Chat.IncidentProfiles(fs); err != nil {
		return err
	}
	p := predict.ChatFor(pol, in, o.SDK)
	if o.JSON {
		return plain.JSON(env.Out, p)
	}
	intro, table := report.ChatPrediction(pol.Name, p)
	if _, err := fmt.Fprintf(env.Out, "%s\n\n", strings.Join(intro, "\n")); err != nil {
		return err
	}
	return cli.TableFormat(plain.FormatAuto).WriteTable(env.Out, table)
}
