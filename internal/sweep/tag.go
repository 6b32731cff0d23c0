package sweep

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
}
