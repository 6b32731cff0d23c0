package metrics

import "net/http"

// Path is where the metrics are served, Prometheus's default metrics_path.
const Path = "/metrics"

// Handler serves the Exporter's metrics in Prometheus's text exposition
// format on Path; any other path is 404.
func (x *Exporter) Handler() http.Handler {
	s := &Set{}
	s.Add(x)
	return s.Handler()
}
