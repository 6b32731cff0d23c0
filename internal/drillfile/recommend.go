package drillfile

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"

	"github.com/drill-dev/drill/scoring"
)

// Recommend is a drill file's recommend section: the bounds `drill
// recommend -f` judges settings by, where the command line gives none.
// Other commands ignore it.
//
//	recommend:
//	  within: 5s                    # every class's p95 wait in each outage
//	  min_all4_right: 0.8           # every class's quality in each outage
//	  normal_max_fallback: 5%       # with no outage, emails left off the primary
//	  normal_min_all4_right: primary
type Recommend struct {
	// Within bounds every class's p95 wait during each outage, unless its
	// route says (within:); as --within.
	Within *Duration `yaml:"within"`
	// MinAll4Right is the quality floor in each outage; as
	// --min-all4-right.
	MinAll4Right *Share `yaml:"min_all4_right"`
	// NormalMaxFallback bounds the share of a class's emails the primary
	// leaves to others with no outage; as --normal-max-fallback.
	NormalMaxFallback *Share `yaml:"normal_max_fallback"`
	// NormalMinAll4Right is the quality bound with no outage; as
	// --normal-min-all4-right.
	NormalMinAll4Right *NormalQuality `yaml:"normal_min_all4_right"`
}

// QualityPrimary is the normal-day quality bound that compares a class's
// all-4-right share with the primary alone's 95 % interval on the same
// day; QualityNone is no bound.
const (
	QualityPrimary = "primary"
	QualityNone    = "none"
)

// ParseShare reads a share as a bound takes it: a number from 0 to 1
// (0.05) or a percentage from 0% to 100% (5%).
func ParseShare(s string) (float64, error) {
	t := strings.TrimSpace(s)
	scale := 1.0
	if p, ok := strings.CutSuffix(t, "%"); ok {
		t, scale = strings.TrimSpace(p), 100
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%q is not a share: want a number from 0 to 1 (0.05) or a percentage (5%%)", s)
	}
	f /= scale
	if f < 0 || f > 1 {
		return 0, fmt.Errorf("%q is not a share from 0 to 1 (0%% to 100%%)", s)
	}
	return f, nil
}

// ParseNormalQuality reads the normal-day quality bound: "primary" (not
// below the primary alone's 95 % interval), a share floor, or 0 (or
// "none") for no bound.
func ParseNormalQuality(s string) (scoring.NormalQuality, error) {
	switch strings.TrimSpace(s) {
	case QualityPrimary:
		return scoring.NormalQuality{PrimaryAlone: true}, nil
	case QualityNone:
		return scoring.NormalQuality{}, nil
	}
	f, err := ParseShare(s)
	if err != nil {
		return scoring.NormalQuality{}, fmt.Errorf("%w, %s, or %s", err, QualityPrimary, QualityNone)
	}
	return scoring.NormalQuality{Floor: f}, nil
}

// Share is a share written 0.05 or 5% (ParseShare).
type Share float64

// UnmarshalYAML implements yaml.NodeUnmarshaler.
func (s *Share) UnmarshalYAML(n ast.Node) error {
	raw, err := scalarText(n, "a share such as 0.05 or 5%")
	if err != nil {
		return err
	}
	f, err := ParseShare(raw)
	if err != nil {
		return nodeErrorf(n, "%s%v", keyPrefix(n), err)
	}
	*s = Share(f)
	return nil
}

// NormalQuality is the normal-day quality bound as written: primary, a
// share, or none (ParseNormalQuality).
type NormalQuality scoring.NormalQuality

// UnmarshalYAML implements yaml.NodeUnmarshaler.
func (q *NormalQuality) UnmarshalYAML(n ast.Node) error {
	raw, err := scalarText(n, "primary, a share such as 0.9 or 90%, or none")
	if err != nil {
		return err
	}
	v, err := ParseNormalQuality(raw)
	if err != nil {
		return nodeErrorf(n, "%s%v", keyPrefix(n), err)
	}
	*q = NormalQuality(v)
	return nil
}

// scalarText is a scalar node's text as written (5% stays 5%, .nan stays
// .nan and is refused as no share).
func scalarText(n ast.Node, want string) (string, error) {
	_, ok := n.(ast.ScalarNode)
	if _, null := n.(*ast.NullNode); !ok || null {
		return "", nodeErrorf(n, "%swant %s, got %s", keyPrefix(n), want, describe(n))
	}
	return n.GetToken().Value, nil
}

// checkRecommend checks the recommend section's wait bound.
func (f *File) checkRecommend() []error {
	if f.Recommend == nil || f.Recommend.Within == nil || *f.Recommend.Within >= 0 {
		return nil
	}
	return []error{f.at("$.recommend.within", "within must not be negative, got %s", *f.Recommend.Within)}
}
