package chain

import (
	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/triage"
)

// RulesTriage is the rules rung: keyword triage with no model call
// (triage.Rules, which the routes' classifier shares). It never fails; its
// quality is measured like any rung's.
func RulesTriage(e emails.Email) emails.Answer { return triage.Rules(e) }
