package scoring

// chatBreakerOpens is the chat figure that sums breaker_opens.* (every
// breaker's openings: the status breaker's and each dependency's).
const chatBreakerOpens = "breaker_opens"

// ChatFigures lists every figure a check on a chat drill may name, sorted:
// the chat summary's JSON leaves (docs/keys.md, Chat summary keys), a
// breaker's openings as breaker_opens.NAME, and breaker_opens, their sum.
func ChatFigures() []string { return chatFigures.names() }

// ParseChatExpr parses `figure op value` on a chat drill's figures
// (ChatFigures), with ParseExpr's errors.
func ParseChatExpr(s string) (Expr, error) { return chatFigures.parse(s) }

// ParseChatExprs parses several checks on a chat drill's figures; the
// error names every bad one.
func ParseChatExprs(ss []string) ([]Expr, error) { return chatFigures.parseAll(ss) }

// ChatFiguresOf is every figure of a chat summary, by name.
func ChatFiguresOf(s ChatSummary) (map[string]any, error) {
	s.Hypotheses = nil // verdicts are no figures
	figs, err := chatFigures.of(s)
	if err != nil {
		return nil, err
	}
	figs[chatBreakerOpens] = float64(s.BreakerOpensTotal())
	return figs, nil
}

// JudgeChat judges hyps on a chat summary's figures: every verdict on a
// chat drill comes from here.
func JudgeChat(s ChatSummary, hyps []Expr) ([]Verdict, error) {
	figs, err := ChatFiguresOf(s)
	if err != nil {
		return nil, err
	}
	return Judge(figs, hyps), nil
}
