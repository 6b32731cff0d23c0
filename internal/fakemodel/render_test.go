package fakemodel

import (
	"encoding/json"
	"testing"

	"github.com/drill-dev/drill/internal/answer"
)

// renderSchemaByMap is what renderSchema wrote before it wrote the object
// itself: json.Marshal of the map of the properties' values.
func renderSchemaByMap(schema map[string]any, value func(k string) (string, bool)) string {
	props, _ := schema["properties"].(map[string]any)
	out := make(map[string]any, len(props))
	for k, v := range props {
		if s, ok := value(k); ok {
			out[k] = s
			continue
		}
		t, _ := v.(map[string]any)
		out[k] = zeroOf(t)
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// TestRenderSchemaAsMarshal checks renderSchema against json.Marshal of
// the map, on schemas with answer fields, properties of every type, an
// enum, a name to escape, and none.
func TestRenderSchemaAsMarshal(t *testing.T) {
	schemas := []string{
		`{"type":"object","properties":{"intent":{"type":"string"},"order_number":{"type":"string"},"product":{"type":"string"},"urgency":{"type":"string"}}}`,
		`{"type":"object","properties":{"urgency":{"type":"string"},"n":{"type":"integer"},"x":{"type":"number"},"ok":{"type":"boolean"},"list":{"type":"array"},"obj":{"type":"object"},"any":{},"kind":{"type":"string","enum":["a<b",2]},"multi":{"type":["null","string"]},"ünï \"q\" \\ <&>":{"type":"string"}}}`,
		`{"type":"object","properties":{}}`,
		`{"type":"object"}`,
	}
	values := []answer.Answer{
		{Intent: "return", OrderNumber: "DR-131422", Product: "Cloudrest Sleeping Pad", Urgency: "high"},
		{Intent: "a \"quoted\" <tag> & \\ \n\t\b\f\r \x01 \u2028\u2029 \xff end", Product: "ünïcödé ✓"},
	}
	for _, js := range schemas {
		var schema map[string]any
		if err := json.Unmarshal([]byte(js), &schema); err != nil {
			t.Fatal(err)
		}
		for _, a := range values {
			value := func(k string) (string, bool) {
				if isAnswerField(k) {
					return a.Field(k), true
				}
				return "", false
			}
			if got, want := renderSchema(schema, value), renderSchemaByMap(schema, value); got != want {
				t.Errorf("schema %s:\n got %s\nwant %s", js, got, want)
			}
		}
	}
}

// FuzzJSONString checks appendJSONString against json.Marshal.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b\\c", "<>&", "\x00\x1f\x7f", "\u2028\u2029", "\xff\xfe", "é✓😀", "\b\f\n\r\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	})
}
