package metrics

import (
	"bufio"
	"cmp"
	"io"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// The metrics are served in Prometheus's text exposition format (version
// 0.0.4), written here by hand: client_golang's registry and handler bring
// protobuf and its reflection into the binary (about 30 MB, the binary's
// size past its 60 MB target) for a format drill needs only the text of.
// The tests parse every scrape with Prometheus's own parser (expfmt).

// ContentType is the Content-Type of a scrape: the text format 0.0.4.
const ContentType = "text/plain; version=0.0.4; charset=utf-8"

// Labels are labels added to every metric of one exporter, beside the
// run's outage and policy: which replica, proxy or store the figures are of.
type Labels map[string]string

// labelPair is one label of a series.
type labelPair struct{ name, value string }

// series is one metric's value under one set of labels (sorted by name);
// hist is set for a histogram.
type series struct {
	labels []labelPair
	value  float64
	hist   *histogram
}

// histogram is a histogram's series: cumulative counts per WaitBuckets
// bound, the count and the sum.
type histogram struct {
	buckets []uint64
	count   uint64
	sum     float64
}

// family is one metric and its series.
type family struct {
	metric Metric
	series []series
}

// Set is the exporters one metrics endpoint serves: one for each run a
// command follows. It is safe for concurrent use.
type Set struct {
	mu sync.Mutex
	xs []*Exporter
}

// Add serves x's metrics too, from the next scrape on.
func (s *Set) Add(x *Exporter) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.xs = append(s.xs, x)
}

// Handler serves the set's metrics on Path; any other path is 404.
func (s *Set) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(Path, func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		xs := slices.Clone(s.xs)
		s.mu.Unlock()
		w.Header().Set("Content-Type", ContentType)
		if r.Method == http.MethodHead {
			return
		}
		_ = writeText(w, xs)
	})
	return mux
}

// writeText writes the metrics of xs in the text format: families by name,
// each with its HELP and TYPE once, its series sorted by their labels. A
// series with the same labels as one written before (two runs with the
// same outage, policy and labels) is left out, as client_golang's gatherer
// leaves out a duplicate.
func writeText(w io.Writer, xs []*Exporter) error {
	byName := map[string]*family{}
	for _, x := range xs {
		x.collect(byName)
	}
	bw := bufio.NewWriter(w)
	for _, n := range slices.Sorted(maps.Keys(byName)) {
		f := byName[n]
		// Stable: of two series with the same labels, the first exporter's
		// is kept (they are adjacent once sorted).
		slices.SortStableFunc(f.series, compareSeries)
		bw.WriteString("# HELP " + n + " " + escapeHelp(f.metric.Help) + "\n")
		bw.WriteString("# TYPE " + n + " " + f.metric.Type + "\n")
		for i, s := range f.series {
			if i > 0 && compareSeries(f.series[i-1], s) == 0 {
				continue
			}
			writeSeries(bw, n, s)
		}
	}
	return bw.Flush()
}

// compareSeries orders series by their label values, in the order of
// their (sorted) label names, as Prometheus's registry does.
func compareSeries(a, b series) int {
	for i := 0; i < len(a.labels) && i < len(b.labels); i++ {
		if c := cmp.Compare(a.labels[i].name, b.labels[i].name); c != 0 {
			return c
		}
		if c := cmp.Compare(a.labels[i].value, b.labels[i].value); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a.labels), len(b.labels))
}

func writeSeries(w *bufio.Writer, name string, s series) {
	if s.hist == nil {
		writeSample(w, name, s.labels, "", "", s.value)
		return
	}
	for i, le := range WaitBuckets {
		writeSample(w, name+"_bucket", s.labels, "le", formatFloat(le), float64(s.hist.buckets[i]))
	}
	writeSample(w, name+"_bucket", s.labels, "le", "+Inf", float64(s.hist.count))
	writeSample(w, name+"_sum", s.labels, "", "", s.hist.sum)
	writeSample(w, name+"_count", s.labels, "", "", float64(s.hist.count))
}

// writeSample writes one line: name{labels,extra="value"} value.
func writeSample(w *bufio.Writer, name string, labels []labelPair, extra, extraValue string, v float64) {
	w.WriteString(name)
	if len(labels) > 0 || extra != "" {
		w.WriteByte('{')
		for i, l := range labels {
			if i > 0 {
				w.WriteByte(',')
			}
			w.WriteString(l.name + `="` + escapeLabel(l.value) + `"`)
		}
		if extra != "" {
			if len(labels) > 0 {
				w.WriteByte(',')
			}
			w.WriteString(extra + `="` + extraValue + `"`)
		}
		w.WriteByte('}')
	}
	w.WriteByte(' ')
	w.WriteString(formatFloat(v))
	w.WriteByte('\n')
}

// formatFloat writes a value as the text format does: NaN, +Inf, -Inf, or
// the shortest decimal that reads back as v.
func formatFloat(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

var (
	helpEscaper  = strings.NewReplacer(`\`, `\\`, "\n", `\n`)
	labelEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, `"`, `\"`)
)

func escapeHelp(s string) string  { return helpEscaper.Replace(s) }
func escapeLabel(s string) string { return labelEscaper.Replace(s) }
