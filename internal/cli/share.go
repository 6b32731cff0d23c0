package cli

import (
	"strconv"

	"github.com/drill-dev/drill/internal/drillfile"
	"github.com/drill-dev/drill/scoring"
)

// Share is a share flag: 0.05 or 5%.
type Share float64

// String is the share as a percentage.
func (s *Share) String() string { return strconv.FormatFloat(float64(*s)*100, 'g', -1, 64) + "%" }

// Type is the flag's type as help shows it.
func (s *Share) Type() string { return "share" }

// Set reads a share as a drill file writes one (drillfile.ParseShare).
func (s *Share) Set(v string) error {
	f, err := drillfile.ParseShare(v)
	if err != nil {
		return err
	}
	*s = Share(f)
	return nil
}

// NormalQuality is --normal-min-all4-right: primary, or a share.
type NormalQuality scoring.NormalQuality

// String is primary, or the floor as a percentage.
func (q *NormalQuality) String() string {
	if q.PrimaryAlone {
		return drillfile.QualityPrimary
	}
	return strconv.FormatFloat(q.Floor*100, 'g', -1, 64) + "%"
}

// Type is the flag's type as help shows it.
func (q *NormalQuality) Type() string { return "primary|share" }

// Set reads primary or a share (drillfile.ParseNormalQuality).
func (q *NormalQuality) Set(v string) error {
	nq, err := drillfile.ParseNormalQuality(v)
	if err != nil {
		return err
	}
	*q = NormalQuality(nq)
	return nil
}
