package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// check runs bench.sh --check with measured standing in for the
// benchmarks, against baseline, and returns its exit code and output.
func check(t *testing.T, baseline, measured string) (int, string) {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatalf("bench.sh needs bash: %v", err)
	}
	dir := t.TempDir()
	b, m := filepath.Join(dir, "baseline.txt"), filepath.Join(dir, "measured.txt")
	if err := os.WriteFile(b, []byte(baseline), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(m, []byte(measured), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "bench.sh", "--check")
	cmd.Env = append(os.Environ(), "BENCH_BASELINE="+b, "BENCH_MEASURED="+m)
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), string(out)
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, string(out)
}

const baseline = `# figure value
binary-MB 41.3
engine/bare 0.60
sweep/run 1.10
drill/toxiproxy-cpu 2.00
`

func TestBenchCheckPassesWithinTwentyPercent(t *testing.T) {
	code, out := check(t, baseline, "binary-MB 41.3\nengine/bare 0.71\nsweep/run 1.10\ndrill/toxiproxy-cpu 2.39\n")
	if code != 0 {
		t.Fatalf("exit %d, want 0 (every figure within 20 %% of its baseline):\n%s", code, out)
	}
}

func TestBenchCheckFailsOnASlowerFigure(t *testing.T) {
	for _, tc := range []struct{ name, measured string }{
		{"drill/toxiproxy-cpu", "binary-MB 41.3\nengine/bare 0.60\nsweep/run 1.10\ndrill/toxiproxy-cpu 2.41\n"},
		{"engine/bare", "binary-MB 41.3\nengine/bare 0.73\nsweep/run 1.10\ndrill/toxiproxy-cpu 2.00\n"},
		{"sweep/run", "binary-MB 41.3\nengine/bare 0.60\nsweep/run 1.40\ndrill/toxiproxy-cpu 2.00\n"},
		{"drill/toxiproxy-cpu was not measured", "binary-MB 41.3\nengine/bare 0.60\nsweep/run 1.10\n"},
	} {
		code, out := check(t, baseline, tc.measured)
		if code != 1 || !strings.Contains(out, "FAIL: "+tc.name) {
			t.Errorf("%s: exit %d, want 1 and a FAIL line for it:\n%s", tc.name, code, out)
		}
	}
}

func TestBenchCheckKeepsTheTargetsCeilings(t *testing.T) {
	// Within 20 % of a baseline that was itself past the target's ceiling.
	code, out := check(t, "engine/bare 1.30\n", "engine/bare 1.40\n")
	if code != 1 || !strings.Contains(out, "FAIL: engine/bare 1.40 is past its ceiling") {
		t.Errorf("exit %d, want 1 for engine/bare past its ceiling 1.35:\n%s", code, out)
	}
}
