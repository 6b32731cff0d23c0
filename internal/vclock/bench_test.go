package vclock

import (
	"bytes"
	"testing"
	"time"

	"github.com/drill-dev/drill/internal/cputime"
	"github.com/drill-dev/drill/workload"
)

// BenchmarkCompareVirtual is `drill compare --clock virtual`: the chapter's
// eight drills in one call, child process included.
func BenchmarkCompareVirtual(b *testing.B) {
	jobs := make([]Job, 0, 8)
	for _, c := range chapterConfigs(b) {
		jobs = append(jobs, Job{Config: c})
	}
	for b.Loop() {
		if _, err := Drills(b.Context(), jobs, 0, &bytes.Buffer{}); err != nil {
			b.Fatal(err)
		}
	}
}

// sweepConfigs is a grid of the breaker policy's settings against both
// outages, as a sweep command would build it: every combination of the
// primary's time limits, its retries, the trip thresholds and the cooldowns.
func sweepConfigs(b *testing.B, retriesList []int, cooldowns []time.Duration) []Job {
	var jobs []Job
	for _, outage := range []string{"busy", "hang"} {
		for _, limit := range []time.Duration{time.Second, 2 * time.Second, 3 * time.Second, 5 * time.Second} {
			for _, retries := range retriesList {
				for _, trip := range []int{3, 5} {
					for _, cooldown := range cooldowns {
						cfg := workload.DefaultConfig()
						p, err := workload.Preset("breaker")
						if err != nil {
							b.Fatal(err)
						}
						p.Primary.TimeLimit, p.Primary.Retries = limit, retries
						p.Primary.Breaker.Trip.Failures, p.Primary.Breaker.Cooldown = trip, cooldown
						cfg.Outage, cfg.Policy = outage, p
						jobs = append(jobs, Job{Config: cfg})
					}
				}
			}
		}
	}
	return jobs
}

// BenchmarkSweep48 is the 48-setting sweep (--primary-timeout
// 1s,2s,3s,5s --primary-retries 0,1,2 --trip-failures 3,5 --outages
// busy,hang) of 120 emails each, through the one entry point a sweep uses.
func BenchmarkSweep48(b *testing.B) {
	benchSweep(b, sweepConfigs(b, []int{0, 1, 2}, []time.Duration{5 * time.Second}))
}

// BenchmarkSweep64 is a 64-setting sweep: --primary-timeout 1s,2s,3s,5s
// --primary-retries 0,1 --trip-failures 3,5 --cooldown 5s,10s --outages
// busy,hang.
func BenchmarkSweep64(b *testing.B) {
	benchSweep(b, sweepConfigs(b, []int{0, 1}, []time.Duration{5 * time.Second, 10 * time.Second}))
}

// benchSweep runs jobs through Drills and reports, beside the wall time,
// the CPU time (user + system) of the virtual-clock processes a drill,
// which does not move with what else the machine runs.
func benchSweep(b *testing.B, jobs []Job) {
	b.ReportMetric(float64(len(jobs)), "drills/op")
	cpu0 := cputime.Children()
	for b.Loop() {
		outs, err := Drills(b.Context(), jobs, 0, &bytes.Buffer{})
		if err != nil {
			b.Fatal(err)
		}
		for _, o := range outs {
			if o.Summary.Served.Total() != 120 {
				b.Fatalf("a drill served %+v", o.Summary.Served)
			}
		}
	}
	b.ReportMetric(float64((cputime.Children()-cpu0).Microseconds())/1e3/float64(b.N*len(jobs)), "child-cpu-ms/drill")
}

// BenchmarkLongOutage: 120 emails spread over 100 minutes of virtual time
// (one every 50 s) with a hang of 95 minutes; the virtual run's cost is its
// CPU work, not the outage's length, so it costs about what the chapter's
// one-minute drill does.
func BenchmarkLongOutage(b *testing.B) {
	for _, tc := range []struct {
		name       string
		rate       float64
		from, to   time.Duration
		wantWallS  float64 // virtual length of the drill, at least
		wantEmails int
	}{
		{"chapter-1min", 2, 15 * time.Second, 40 * time.Second, 59, 120},
		{"spread-100min", 0.02, 60 * time.Second, 95 * time.Minute, 5950, 120},
	} {
		b.Run(tc.name, func(b *testing.B) {
			cfg := workload.DefaultConfig()
			p, err := workload.Preset("breaker")
			if err != nil {
				b.Fatal(err)
			}
			cfg.Outage, cfg.Policy, cfg.Rate, cfg.OutageFrom, cfg.OutageTo = "hang", p, tc.rate, tc.from, tc.to
			for b.Loop() {
				outs, err := Drills(b.Context(), []Job{{Config: cfg}}, 0, &bytes.Buffer{})
				if err != nil {
					b.Fatal(err)
				}
				if s := outs[0].Summary; s.WallS < tc.wantWallS || s.Served.Total() != tc.wantEmails {
					b.Fatalf("wall %.0f s, served %+v", s.WallS, s.Served)
				}
			}
		})
	}
}
