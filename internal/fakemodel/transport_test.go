package fakemodel

import "testing"

// TestStreamWanted: only a request that surely asks for no stream is served
// on the caller's goroutine; anything unreadable takes the streaming path,
// which serves both.
func TestStreamWanted(t *testing.T) {
	for body, want := range map[string]bool{
		`{"model":"m","stream":true}`:                                        true,
		` { "stream" : true } `:                                              true,
		`{"model":"m"}`:                                                      false,
		`{"model":"m","stream":false}`:                                       false,
		`{"stream":true,"stream":false}`:                                     false, // the last wins, as in encoding/json
		`{"messages":[{"role":"user","content":"\"stream\":true"}]}`:         false,
		`{"messages":[{"role":"user","content":"{\"stream\":true}"}],"n":1}`: false,
		`{"stream":null}`:                                                    true,
		`{"stream":"yes"}`:                                                   true,
		`{"model":"m"`:                                                       true,
		`not json`:                                                           true,
		``:                                                                   true,
		`{"model":"m"} x`:                                                    true,
	} {
		if got := streamWanted([]byte(body)); got != want {
			t.Errorf("streamWanted(%s) = %v, want %v", body, got, want)
		}
	}
}
