package plain

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestSDKJSON: drill sdks --json carries each profile's rows, the npm
// package's trickle row among them (the measured 3 attempts).
func TestSDKJSON(t *testing.T) {
	var b bytes.Buffer
	if err := SDKJSON(&b); err != nil {
		t.Fatal(err)
	}
	var sdks []sdkJSON
	if err := json.Unmarshal(b.Bytes(), &sdks); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if len(sdks) != 3 || sdks[1].SDK != "node" || sdks[1].Version == "" {
		t.Fatalf("profiles: %+v", sdks)
	}
	for _, c := range sdks[1].Cases {
		if c.Case == "trickle (20 s body), not streamed, 1 s timeout" {
			if c.Attempts != 3 || c.Error != "APIConnectionTimeoutError" || c.TookS == nil || *c.TookS != [2]float64{4.125, 4.5} {
				t.Errorf("node trickle row: %+v", c)
			}
			return
		}
	}
	t.Error("node has no trickle row")
}
