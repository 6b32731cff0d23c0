package triage

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/drill-dev/drill/emails"
	"github.com/drill-dev/drill/internal/answer"
)

func TestParse(t *testing.T) {
	good := answer.Answer{Intent: "return", OrderNumber: "DR-131422", Product: "Cloudrest Sleeping Pad", Urgency: "normal"}
	for _, c := range []struct {
		name, in string
		want     answer.Answer
		ok       bool
	}{
		{"exact", `{"intent":"return","order_number":"DR-131422","product":"Cloudrest Sleeping Pad","urgency":"normal"}`, good, true},
		{"normalised", ` {"intent":"Return","order_number":"dr 131-422","product":"cloudrest sleeping pad","urgency":"NORMAL"} `, good, true},
		{"empty order and product", `{"intent":"cancel","order_number":"","product":"","urgency":"normal"}`, answer.Answer{Intent: "cancel", Urgency: "normal"}, true},
		{"not JSON", `intent: return`, answer.Answer{}, false},
		{"fenced", "```json\n{\"intent\":\"return\"}\n```", answer.Answer{}, false},
		{"missing field", `{"intent":"return","order_number":"DR-131422","product":"Cloudrest Sleeping Pad"}`, answer.Answer{}, false},
		{"extra field", `{"intent":"return","order_number":"","product":"","urgency":"normal","why":"x"}`, answer.Answer{}, false},
		{"null field", `{"intent":"return","order_number":null,"product":"","urgency":"normal"}`, answer.Answer{}, false},
		{"number field", `{"intent":"return","order_number":131422,"product":"","urgency":"normal"}`, answer.Answer{}, false},
		{"unknown intent", `{"intent":"chat","order_number":"","product":"","urgency":"normal"}`, answer.Answer{}, false},
		{"unknown product", `{"intent":"return","order_number":"","product":"Hammock","urgency":"normal"}`, answer.Answer{}, false},
		{"unknown urgency", `{"intent":"return","order_number":"","product":"","urgency":"critical"}`, answer.Answer{}, false},
		{"bad order number", `{"intent":"return","order_number":"12345","product":"","urgency":"normal"}`, answer.Answer{}, false},
		{"trailing data", `{"intent":"cancel","order_number":"","product":"","urgency":"normal"} {}`, answer.Answer{}, false},
		{"null", `null`, answer.Answer{}, false},
		{"array", `[]`, answer.Answer{}, false},
		{"empty", ``, answer.Answer{}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse(c.in)
			if c.ok {
				if err != nil || got != c.want {
					t.Errorf("Parse = %+v, %v; want %+v", got, err, c.want)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrInvalid) || !IsInvalid(err) {
				t.Errorf("Parse(%q) = %+v, %v; want an ErrInvalid error", c.in, got, err)
			}
		})
	}
}

func TestParamsShape(t *testing.T) {
	e, _ := emails.ByID(35)
	b, err := json.Marshal(Params("gpt-5.4-mini", e))
	if err != nil {
		t.Fatal(err)
	}
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
		ResponseFormat struct {
			Type       string `json:"type"`
			JSONSchema struct {
				Name   string         `json:"name"`
				Strict bool           `json:"strict"`
				Schema map[string]any `json:"schema"`
			} `json:"json_schema"`
		} `json:"response_format"`
	}
	if err := json.Unmarshal(b, &req); err != nil {
		t.Fatal(err)
	}
	if req.Model != "gpt-5.4-mini" || len(req.Messages) != 2 || req.Messages[0].Role != "system" || req.Messages[1].Role != "user" {
		t.Fatalf("request %s", b)
	}
	sys := req.Messages[0].Content
	for _, s := range append([]string{emails.Rules(), "Allowed intents", "Catalogue products"}, answer.Products...) {
		if !strings.Contains(sys, s) {
			t.Errorf("system prompt lacks %q", s[:min(len(s), 40)])
		}
	}
	if !strings.Contains(req.Messages[1].Content, e.Body) || !strings.Contains(req.Messages[1].Content, "Subject: "+e.Subject) {
		t.Errorf("user message %q", req.Messages[1].Content)
	}
	rf := req.ResponseFormat
	if rf.Type != "json_schema" || rf.JSONSchema.Name != SchemaName || !rf.JSONSchema.Strict {
		t.Errorf("response_format %+v", rf)
	}
	props, _ := rf.JSONSchema.Schema["properties"].(map[string]any)
	for _, f := range answer.Fields {
		if _, ok := props[f]; !ok {
			t.Errorf("schema lacks %s", f)
		}
	}
	if rf.JSONSchema.Schema["additionalProperties"] != false {
		t.Error("schema allows additional properties")
	}
}
