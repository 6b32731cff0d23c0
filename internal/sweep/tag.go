package sweep

import "strings"

// Tag marks a journal as one run of a `drill sweep`: the sweep records it
// in the journal header's config under the key "sweep", and a report over
// runs that carry it groups them by setting for the trade-off chart.
type Tag struct {
	// Setting is the setting's number in the sweep, from 1.
	Setting int `json:"setting"`
	// Settings is how many settings the sweep had.
	Settings int `json:"settings"`
	// Flags is the setting as flags: "--primary-timeout 1s --outages busy".
	Flags string `json:"flags"`
	// Repeat is this run's repeat of the setting, from 1.
	Repeat int `json:"repeat"`
	// Repeats is how many runs the setting had (--repeat).
	Repeats int `json:"repeats"`
	// Faults are the setting's fault parameters ("retry_after=20s"): with
	// the outage kind, the scenario the setting competes in.
	Faults []string `json:"faults,omitempty"`
}

// FaultParams are the tag's fault parameters: Faults, or for a journal
// recorded before tags carried them, the --fault values in its flags.
func (t Tag) FaultParams() []string {
	if t.Faults != nil {
		return t.Faults
	}
	return FaultFlags(t.Flags)
}

// FaultFlags are the --fault values in flags written by Setting.Flags
// ("--fault status=503" gives "status=503"): how a sweep dashboard's row
// label, which is such flags, names its scenario.
func FaultFlags(flags string) []string {
	var out []string
	fields := strings.Fields(flags)
	for i, f := range fields {
		if f == "--fault" && i+1 < len(fields) {
			out = append(out, fields[i+1])
		}
	}
	return out
}
