package plan

import (
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/drill-dev/drill/inject"
	"github.com/drill-dev/drill/internal/chat"
	"github.com/drill-dev/drill/internal/exit"
)

// applyProfileFaults lays --profile-fault CLASS=KIND[,KEY=VALUE…] over
// prof's faults.
func (c *ChatFlags) applyProfileFaults(prof *chat.Profile) error {
	for _, spec := range c.profileFaults {
		class, rest, _ := strings.Cut(spec, "=")
		parts := strings.Split(rest, ",")
		w, err := inject.ParseFault(parts[0], parts[1:])
		if err != nil || !slices.Contains(chat.Classes(), class) {
			return exit.Usagef("--profile-fault %q: want CLASS=KIND[,KEY=VALUE...] with a class of %s (%v)", spec, strings.Join(chat.Classes(), ", "), err)
		}
		prof.Faults[class] = w.FaultSpec
	}
	return nil
}

// IncidentProfiles are the incidents a chat prediction reads, in order:
// --incident (else the drill file's incidents), each profile with the
// drill file's profile: section and --profile-fault laid over it, as
// ChatConfigs builds a run's. Call it after Policy, which reads the file.
func (c *ChatFlags) IncidentProfiles(fs *pflag.FlagSet) ([]string, map[string]chat.Profile, error) {
	if len(c.incidents) == 0 {
		return nil, nil, exit.Usagef("--incident: name at least one incident kind (valid: %s)", strings.Join(chat.IncidentKinds(), ", "))
	}
	profs := map[string]chat.Profile{}
	for _, inc := range c.incidents {
		prof, err := chat.IncidentProfile(inc)
		if err != nil {
			return nil, nil, exit.Usagef("--incident: %v", err)
		}
		if c.file != nil {
			c.file.ApplyProfile(&prof)
		}
		if err := c.applyProfileFaults(&prof); err != nil {
			return nil, nil, err
		}
		if err := prof.Validate(); err != nil {
			return nil, nil, exit.Usagef("--incident %s: %v", inc, err)
		}
		profs[inc] = prof
	}
	return slices.Clone(c.incidents), profs, nil
}
