package tools

import (
	"hash/fnv"
	"time"

	"github.com/drill-dev/drill/emails"
)

// Order is the order service's answer for one order.
type Order struct {
	OrderID string `json:"order_id"`
	Product string `json:"product"`
	Status  string `json:"status"` // processing, shipped or delivered
	Placed  string `json:"placed"` // a date, 2006-01-02
}

// Delivery is the carrier service's status of an order's parcel.
type Delivery struct {
	OrderID    string `json:"order_id"`
	Carrier    string `json:"carrier"`
	Status     string `json:"status"` // label_created, in_transit, out_for_delivery or delivered
	ETA        string `json:"eta"`    // a date; "" once delivered
	LastUpdate string `json:"last_update"`
}

// TrackingEvent is one scan of a parcel.
type TrackingEvent struct {
	Time  string `json:"time"`
	Place string `json:"place"`
	Event string `json:"event"`
}

// Tracking is the carrier service's scan history of an order's parcel.
type Tracking struct {
	OrderID string          `json:"order_id"`
	Carrier string          `json:"carrier"`
	Events  []TrackingEvent `json:"events"`
}

// Shop holds the orders the services answer for: one per order number of
// the data set's emails, with the product the email names. Statuses, dates
// and carriers are drawn from a hash of the order number, so they are the
// same in every run.
type Shop struct {
	orders map[string]Order
	// RecordTokens sizes each answer of the services, in tokens: past the
	// bare record (about 40 tokens), a history of the order or its parcel
	// fills it, as a production service's record carries one. 0: the bare
	// record.
	RecordTokens int
}

// day0 is the date the shop's order history is measured from.
var day0 = time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)

var (
	orderStatuses = []string{"processing", "shipped", "shipped", "shipped", "delivered"}
	carriers      = []string{"Parcelway", "NorthPost", "Swiftline"}
	places        = []string{"Denver hub", "Salt Lake City hub", "Portland depot", "Reno sort centre"}
)

// NewShop returns the shop of the given emails' orders (emails.All() for the
// built-in data set). An email without an order number adds nothing.
func NewShop(set []emails.Email) *Shop {
	s := &Shop{orders: map[string]Order{}}
	for _, e := range set {
		id := emails.NormalizeOrderNumber(e.Truth.OrderNumber)
		if id == "" {
			continue
		}
		if _, dup := s.orders[id]; dup {
			continue
		}
		h := hash(id)
		s.orders[id] = Order{
			OrderID: id,
			Product: e.Truth.Product,
			Status:  orderStatuses[h%uint64(len(orderStatuses))],
			Placed:  day0.AddDate(0, 0, int(h>>8%20)).Format(time.DateOnly),
		}
	}
	return s
}

// Len is the number of orders the shop knows.
func (s *Shop) Len() int { return len(s.orders) }

// Order returns the order with the number id (written any usual way).
func (s *Shop) Order(id string) (Order, bool) {
	o, ok := s.orders[emails.NormalizeOrderNumber(id)]
	return o, ok
}

// Delivery returns the carrier's status of the order's parcel.
func (s *Shop) Delivery(id string) (Delivery, bool) {
	o, ok := s.Order(id)
	if !ok {
		return Delivery{}, false
	}
	h := hash(o.OrderID)
	placed, _ := time.Parse(time.DateOnly, o.Placed)
	d := Delivery{OrderID: o.OrderID, Carrier: carriers[h>>16%uint64(len(carriers))]}
	switch o.Status {
	case "processing":
		d.Status, d.ETA, d.LastUpdate = "label_created", placed.AddDate(0, 0, 7).Format(time.DateOnly), o.Placed
	case "delivered":
		d.Status, d.LastUpdate = "delivered", placed.AddDate(0, 0, 4).Format(time.DateOnly)
	default:
		d.Status = "in_transit"
		if h>>24%3 == 0 {
			d.Status = "out_for_delivery"
		}
		d.ETA = placed.AddDate(0, 0, 5).Format(time.DateOnly)
		d.LastUpdate = placed.AddDate(0, 0, 2).Format(time.DateOnly)
	}
	return d, true
}

// Tracking returns the carrier's scans of the order's parcel, oldest first.
func (s *Shop) Tracking(id string) (Tracking, bool) {
	d, ok := s.Delivery(id)
	if !ok {
		return Tracking{}, false
	}
	o, _ := s.Order(id)
	placed, _ := time.Parse(time.DateOnly, o.Placed)
	h := hash(o.OrderID)
	t := Tracking{OrderID: d.OrderID, Carrier: d.Carrier, Events: []TrackingEvent{
		{Time: placed.Format(time.DateOnly), Place: "warehouse", Event: "label created"},
	}}
	if d.Status == "label_created" {
		return t, true
	}
	t.Events = append(t.Events,
		TrackingEvent{Time: placed.AddDate(0, 0, 1).Format(time.DateOnly), Place: "warehouse", Event: "picked up"},
		TrackingEvent{Time: placed.AddDate(0, 0, 2).Format(time.DateOnly), Place: places[h>>32%uint64(len(places))], Event: "arrived at hub"})
	switch d.Status {
	case "out_for_delivery":
		t.Events = append(t.Events, TrackingEvent{Time: placed.AddDate(0, 0, 3).Format(time.DateOnly), Place: "local depot", Event: "out for delivery"})
	case "delivered":
		t.Events = append(t.Events, TrackingEvent{Time: d.LastUpdate, Place: "front door", Event: "delivered"})
	}
	return t, true
}

func hash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}
