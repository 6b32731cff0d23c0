package scoring

import (
	"slices"
	"strconv"
	"strings"

	"github.com/drill-dev/drill/event"
)

// FleetFold folds a drill fleet log (events marked with their replica):
// one Fold for the whole fleet and one per replica, each fed the events of
// its replica and the fleet's own (replica 0: run start and end, the
// outage schedule). Every per-replica figure is the ordinary fold's, so a
// replica's numbers mean what a single run's do. Not safe for concurrent use.
type FleetFold struct {
	whole     *Fold
	replicas  map[int]*Fold
	shared    []event.Event // replica-0 events so far, for replicas seen late
	store     map[int]*storeTrack
	reclaimed int // emails taken over from another worker (reclaimed events)
}

// storeTrack is one replica's time away from the shared breaker store.
type storeTrack struct {
	fallbacks int
	local     bool
}

// NewFleetFold returns an empty fleet fold.
func NewFleetFold() *FleetFold {
	return &FleetFold{whole: NewFold(), replicas: map[int]*Fold{}, store: map[int]*storeTrack{}}
}

// Add folds one event of a fleet log, in log order.
func (ff *FleetFold) Add(e event.Event) {
	ff.whole.Add(e)
	if _, ok := ReclaimedFrom(e); ok {
		ff.reclaimed += len(e.Reclaim.Emails)
	}
	if e.Kind == event.StoreChange {
		t := ff.storeOf(e.Replica)
		switch {
		case strings.HasPrefix(e.Detail, event.StoreFallback):
			t.fallbacks++
			t.local = true
		case strings.HasPrefix(e.Detail, event.StoreShared):
			t.local = false
		}
		return
	}
	if e.Replica == 0 {
		ff.shared = append(ff.shared, e)
		for _, f := range ff.replicas {
			f.Add(e)
		}
		return
	}
	ff.replica(e.Replica).Add(e)
}

// AddAll folds events in order.
func (ff *FleetFold) AddAll(events []event.Event) {
	for _, e := range events {
		ff.Add(e)
	}
}

func (ff *FleetFold) storeOf(r int) *storeTrack {
	t := ff.store[r]
	if t == nil {
		t = &storeTrack{}
		ff.store[r] = t
	}
	return t
}

// replica returns replica r's fold, started with the fleet's events so far.
func (ff *FleetFold) replica(r int) *Fold {
	f := ff.replicas[r]
	if f == nil {
		f = NewFold()
		f.AddAll(ff.shared)
		ff.replicas[r] = f
	}
	return f
}

// Whole is the fold of the whole fleet: every replica's events together.
func (ff *FleetFold) Whole() *Fold { return ff.whole }

// Replica is replica r's fold (an empty one if r has logged nothing).
func (ff *FleetFold) Replica(r int) *Fold { return ff.replica(r) }

// Replicas lists the replicas seen, in order.
func (ff *FleetFold) Replicas() []int {
	rs := make([]int, 0, len(ff.replicas))
	for r := range ff.replicas {
		rs = append(rs, r)
	}
	for r := range ff.store {
		if _, ok := ff.replicas[r]; !ok {
			rs = append(rs, r)
		}
	}
	slices.Sort(rs)
	return rs
}

// ReplicaSummary is one replica's figures in a fleet summary.
type ReplicaSummary struct {
	Replica    int    `json:"replica"`
	EmailsSent int    `json:"emails_sent"`
	Served     Served `json:"served"`
	// CallsToBrokenOutage counts the replica's attempts to the broken
	// model that the injector faulted.
	CallsToBrokenOutage int `json:"calls_to_broken_outage"`
	// BreakerFirstOpenS is when the replica's breaker on the target rung
	// first opened (its own, or the shared one as the replica learnt of
	// it), seconds after the outage started; null if never.
	BreakerFirstOpenS *float64 `json:"breaker_first_open_s"`
	BreakerOpens      int      `json:"breaker_opens"`
	MedianWaitOutageS *float64 `json:"median_wait_outage_s"`
	P95WaitOutageS    *float64 `json:"p95_wait_outage_s"`
	// BreakerState is the target rung's breaker state at the end (or now).
	BreakerState string `json:"breaker_state"`
	// StoreFallbacks counts the times the replica lost the shared breaker
	// store and fell back to local breakers; StoreLocal says whether it is
	// still on local breakers at the end (or now).
	StoreFallbacks int  `json:"store_fallbacks"`
	StoreLocal     bool `json:"store_local"`
}

// FleetSummary is the summary of a fleet drill: what `drill fleet --json`
// prints.
type FleetSummary struct {
	Replicas     int    `json:"replicas"`
	Routing      string `json:"routing"`
	BreakerStore string `json:"breaker_store"` // local or redis
	// Fleet is the whole fleet's summary, the same keys as drill run's;
	// its breaker_opens adds up every replica's opens, and its
	// breaker_first_open_s is the earliest.
	Fleet      Summary          `json:"fleet"`
	PerReplica []ReplicaSummary `json:"per_replica"`
	// StoreFallbacks adds up the replicas' fallbacks to local breakers.
	StoreFallbacks int `json:"store_fallbacks"`
	// Reclaimed counts the emails a coordinated fleet's workers took over
	// from a worker that held them past the claim time (reclaimed events);
	// each is still counted once in Fleet.
	Reclaimed int `json:"reclaimed"`
}

// Summary computes the fleet summary from what has been folded so far.
func (ff *FleetFold) Summary() FleetSummary {
	w := ff.whole.Summary()
	s := FleetSummary{Routing: w.Overrides["routing"], BreakerStore: w.Overrides["breaker-store"], Fleet: w,
		PerReplica: []ReplicaSummary{}, Reclaimed: ff.reclaimed}
	target := ff.whole.Target()
	for _, r := range ff.Replicas() {
		f := ff.replica(r)
		rs := f.Summary()
		st := ff.storeOf(r)
		s.PerReplica = append(s.PerReplica, ReplicaSummary{Replica: r, EmailsSent: rs.EmailsSent, Served: rs.Served,
			CallsToBrokenOutage: rs.CallsToBrokenOutage, BreakerFirstOpenS: rs.BreakerFirstOpenS,
			BreakerOpens: rs.BreakerOpens, MedianWaitOutageS: rs.MedianWaitOutageS, P95WaitOutageS: rs.P95WaitOutageS,
			BreakerState: f.Breaker(target).State, StoreFallbacks: st.fallbacks, StoreLocal: st.local})
		s.StoreFallbacks += st.fallbacks
	}
	s.Replicas = len(s.PerReplica)
	if n, err := strconv.Atoi(w.Overrides["replicas"]); err == nil {
		s.Replicas = n
	}
	return s
}

// FleetScan decides, while a journal is read, whether it is a drill fleet
// journal (its events carry replicas), and folds it per replica if so. It
// keeps the events before the first replica's until that is clear, and
// keeps nothing once an email is sent without a replica: not a fleet. The
// zero value is ready to use.
type FleetScan struct {
	pending []event.Event // events before the first replica's, kept until it is clear
	fold    *FleetFold
	off     bool
}

// Add folds one event, in log order.
func (s *FleetScan) Add(e event.Event) {
	switch {
	case s.off:
	case s.fold != nil:
		s.fold.Add(e)
	case e.Replica != 0:
		s.fold = NewFleetFold()
		s.fold.AddAll(s.pending)
		s.fold.Add(e)
		s.pending = nil
	case e.Kind == event.EmailSent:
		s.off, s.pending = true, nil
	default:
		s.pending = append(s.pending, e)
	}
}

// Summary is the fleet summary, or nil for a journal that is not a fleet's.
func (s *FleetScan) Summary() *FleetSummary {
	if s.fold == nil {
		return nil
	}
	sum := s.fold.Summary()
	return &sum
}

// ReplicaPart is what one event of a replica's own log is to its fleet's
// log, which gathers every replica's events into one.
type ReplicaPart int

// Replica parts.
const (
	// ReplicaOwn is the replica's own event: the fleet's log keeps it,
	// marked with the replica.
	ReplicaOwn ReplicaPart = iota
	// ReplicaRunStart is the replica's run_start: the fleet's own replaces it.
	ReplicaRunStart
	// ReplicaRunEnd is the replica's run_end: how the replica ended, which
	// decides how the fleet's run ended.
	ReplicaRunEnd
	// ReplicaSchedule is an outage starting or ending: the schedule is the
	// same on every replica, so the fleet's log keeps it once, unmarked.
	ReplicaSchedule
)

// ReplicaPartOf says what a replica's event is to its fleet's log.
func ReplicaPartOf(e event.Event) ReplicaPart {
	switch e.Kind {
	case event.RunStart:
		return ReplicaRunStart
	case event.RunEnd:
		return ReplicaRunEnd
	case event.OutageStart, event.OutageEnd:
		return ReplicaSchedule
	}
	return ReplicaOwn
}
