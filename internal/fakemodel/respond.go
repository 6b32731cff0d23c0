package fakemodel

import (
	"encoding/json"
	"strings"
)

// plainReply is the fake model's answer to a prompt that is not a triage
// request.
const plainReply = "I am drill's fake model: I only triage support emails. Send one as the user message (From: and Subject: lines, a blank line, the body), with the triage instructions as the system message."

// respond returns the content of the fake model's answer to req: for a
// triage request, the reader's triage of the email in the last user message,
// rendered as the response format asks; for anything else, a short plain
// answer saying what the fake model does.
func respond(r *reader, req *ChatRequest) string {
	email := ""
	for _, m := range req.Messages {
		if m.Role == "user" {
			email = m.Content
		}
	}
	if isTriageRequest(req, email) {
		return render(r.Triage(email), req.Format)
	}
	switch req.Format.Type {
	case "json_object":
		b, _ := json.Marshal(map[string]string{"reply": plainReply})
		return string(b)
	case "json_schema":
		return renderSchema(req.Format.Schema, func(string) (string, bool) { return "", false })
	}
	return plainReply
}

// isTriageRequest reports whether req asks for a triage: its json_schema has
// an answer field among its properties, a system or developer message speaks
// of triage, or the user message is an email with header lines.
func isTriageRequest(req *ChatRequest, email string) bool {
	if req.Format.Type == "json_schema" {
		if props, ok := req.Format.Schema["properties"].(map[string]any); ok {
			for k := range props {
				if isAnswerField(k) {
					return true
				}
			}
		}
	}
	for _, m := range req.Messages {
		if (m.Role == "system" || m.Role == "developer") && strings.Contains(strings.ToLower(m.Content), "triage") {
			return true
		}
	}
	return hasEmailHeaders(email)
}

// hasEmailHeaders reports whether msg starts with an email header line
// ("From:" or "Subject:").
func hasEmailHeaders(msg string) bool {
	first, _, _ := strings.Cut(strings.TrimLeft(msg, " \t\r\n"), "\n")
	k, _, ok := strings.Cut(first, ":")
	k = strings.ToLower(strings.TrimSpace(k))
	return ok && (k == "from" || k == "subject")
}
