package plain

import (
	"fmt"
	"io"
	"strings"

	"github.com/drill-dev/drill/internal/format"
	"github.com/drill-dev/drill/internal/predict"
	"github.com/drill-dev/drill/workload"
)

// Prediction writes drill predict's answer for the drill cfg: its
// arithmetic line by line, or with asJSON the predicted_* figures with the
// outage, policy, attempts, policy options and arithmetic.
func Prediction(w io.Writer, cfg workload.Config, p predict.Prediction, asJSON bool) error {
	opts := cfg.Policy.Options()
	if asJSON {
		keys := p.Keys()
		keys["outage"], keys["policy"], keys["attempts"] = p.Outage, p.Policy, p.Attempts
		keys["sdk"] = p.SDK
		keys["options"] = append([]string{}, opts...)
		keys["arithmetic"] = p.Lines
		return JSON(w, keys)
	}
	fmt.Fprintf(w, "predict: %s outage %s–%s on the %s, policy %s\n", cfg.Outage, format.GoDuration(cfg.OutageFrom), format.GoDuration(cfg.OutageTo), cfg.Target, cfg.Policy.Name)
	if len(opts) > 0 {
		fmt.Fprintf(w, "options: %s\n", strings.Join(opts, ", "))
	}
	for _, l := range p.Lines {
		if _, err := fmt.Fprintf(w, "  %s\n", l); err != nil {
			return err
		}
	}
	return nil
}
