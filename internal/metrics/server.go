package metrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Path is where the metrics are served, Prometheus's default metrics_path.
const Path = "/metrics"

// Handler serves the Exporter's metrics in Prometheus's exposition formats
// on Path; any other path is 404.
func (x *Exporter) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle(Path, promhttp.HandlerFor(x.registry, promhttp.HandlerOpts{ErrorHandling: promhttp.ContinueOnError}))
	return mux
}
