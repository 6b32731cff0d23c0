package workload

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/drill-dev/drill/breaker"
	"github.com/drill-dev/drill/scoring"
)

// switchRow is one variant of the chapter's eight runs: drill's defaults,
// or one of the chapter's lab-breaker rules switched on.
type switchRow struct {
	name   string
	probes breaker.Probes
	stale  breaker.Stale
}

var switchRows = []switchRow{
	{"defaults", 0, breaker.StaleDrop},
	{"probes: all", breaker.ProbesAll, breaker.StaleDrop},
	{"stale: count", 0, breaker.StaleCount},
	{"probes: all + stale: count", breaker.ProbesAll, breaker.StaleCount},
}

// TestChapterSwitches runs the eight runs with each of the chapter's
// lab-breaker rules (probes: all, stale: count), alone and both, beside
// drill's defaults, and checks the mechanical reason given for the two
// rows that differ from the chapter: each switch puts its row back in the
// chapter's band. The table it logs is docs/case-study.md's.
func TestChapterSwitches(t *testing.T) {
	got := map[string]map[string]scoring.Summary{}
	for _, sw := range switchRows {
		got[sw.name] = map[string]scoring.Summary{}
		for _, row := range chapterRows {
			synctest.Test(t, func(t *testing.T) {
				cfg := chapterConfig(t, row.outage, row.policy)
				if b := cfg.Policy.Primary.Breaker; b != nil {
					b.Probes, b.Stale = sw.probes, sw.stale
				}
				s, _, _ := runDrill(t, cfg)
				got[sw.name][row.outage+"/"+row.policy] = s
			})
		}
	}
	var tab strings.Builder
	fmt.Fprintf(&tab, "| Outage / policy | chapter backup | %s |\n|---|---|---|---|---|---|\n", strings.Join(names(), " | "))
	for _, row := range chapterRows {
		key := row.outage + "/" + row.policy
		fmt.Fprintf(&tab, "| %s | %g–%g |", key, row.backup.lo, row.backup.hi)
		for _, sw := range switchRows {
			s := got[sw.name][key]
			fmt.Fprintf(&tab, " %d / %d, open %s, back %s, calls %d |", s.Served.Primary, s.Served.Backup,
				secs(s.BreakerFirstOpenS), secs(s.PrimaryBackS), s.CallsToBrokenOutage)
		}
		tab.WriteString("\n")
	}
	t.Logf("primary / backup served, first open, primary back, calls to broken:\n%s", tab.String())

	// Each switch moves its row back to the chapter's band (within 2
	// emails: the SDK's backoff jitter is not seeded) and away from drill's
	// own value.
	near := func(b band) band { return band{b.lo - 2, b.hi + 2} }
	def, all, stale := got["defaults"], got["probes: all"], got["stale: count"]
	if b := all["hang/breaker"].Served.Backup; !near(chapterRows[6].backup).has(float64(b)) || b >= def["hang/breaker"].Served.Backup {
		t.Errorf("hang/breaker with probes: all: backup %d (defaults %d), want the chapter's band %v", b, def["hang/breaker"].Served.Backup, chapterRows[6].backup)
	}
	if b := stale["hang/fail-fast"].Served.Backup; !near(chapterRows[7].backup).has(float64(b)) || b <= def["hang/fail-fast"].Served.Backup {
		t.Errorf("hang/fail-fast with stale: count: backup %d (defaults %d), want the chapter's band %v", b, def["hang/fail-fast"].Served.Backup, chapterRows[7].backup)
	}
	for _, sw := range switchRows {
		for key, s := range got[sw.name] {
			if s.Served.Total() != 120 || s.Served.Error+s.Served.Canned != 0 && !strings.Contains(key, "primary-only") {
				t.Errorf("%s %s: served %+v", sw.name, key, s.Served)
			}
		}
	}
}

func names() []string {
	var out []string
	for _, sw := range switchRows {
		out = append(out, sw.name)
	}
	return out
}

func secs(p *float64) string {
	if p == nil {
		return "–"
	}
	return fmt.Sprintf("%.1f s", *p)
}
