package drillfile

import _ "embed"

// Template is the commented example `drill init` writes: every field, with
// the defaults, and the chapter's busy outage against two policies.
//
//go:embed template.yaml
var Template []byte
