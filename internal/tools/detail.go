package tools

import (
	"encoding/json"
	"fmt"
	"time"
)

// A production order or carrier service answers with more than the status
// the agent needs: the record's history (payment, fraud screening, picking,
// scans) comes with it, and the agent resends all of it with every later
// call. Shop.RecordTokens sizes that history.

// bytesPerToken is a token's worth of JSON, as the fake model counts a
// long text.
const bytesPerToken = 4

// orderNotes and scanNotes are the history lines a sized record carries,
// in turn: an order's audit trail and a parcel's scans.
var (
	orderNotes = []string{
		"order placed on the web shop, 1 × %[1]s, paid by card",
		"payment authorised (3-D Secure passed), amount held until dispatch",
		"fraud screening passed: billing and delivery address match, low risk",
		"order confirmation emailed to the customer with the returns policy",
		"stock reserved for %[1]s at the central warehouse, bin C-14",
		"picking list printed for the morning wave",
		"picked and packed in a medium box, 1.8 kg, packing slip enclosed",
		"shipping label created with %[2]s, standard service, signature not required",
		"invoice issued and payment captured",
		"dispatch notification emailed with the tracking link",
		"delivery address verified against the postal register",
		"order note: the customer may be contacted by email only",
	}
	scanNotes = []string{
		"electronic shipping information received from the shop",
		"parcel collected from the shop's warehouse by %[2]s",
		"arrived at %[3]s and sorted for the next line haul",
		"departed %[3]s on the scheduled trailer",
		"in transit between hubs, on schedule",
		"arrived at the regional depot and scanned for routing",
		"assigned to a delivery round for the recipient's postcode",
		"delivery preferences checked: no safe place recorded",
		"parcel dimensions verified: 40 × 30 × 15 cm, 1.8 kg",
		"customs and hazardous goods checks not required (domestic)",
	}
)

// sized returns the record v as the service answers it: as it is when the
// shop has no RecordTokens, else with a history of dated lines (notes, in
// turn, from the order's date) added until its JSON is about RecordTokens
// tokens (four bytes a token).
func (s *Shop) sized(v any, o Order, notes []string) any {
	base, err := json.Marshal(v)
	if s.RecordTokens <= 0 || o.OrderID == "" || err != nil {
		return v
	}
	var rec map[string]any
	if json.Unmarshal(base, &rec) != nil {
		return v
	}
	placed, _ := time.Parse(time.DateOnly, o.Placed)
	h := hash(o.OrderID)
	carrier, place := carriers[h>>16%uint64(len(carriers))], places[h>>32%uint64(len(places))]
	want, size := s.RecordTokens*bytesPerToken, len(base)+len(`,"history":[]`)
	var history []string
	for i := 0; size < want; i++ {
		at := placed.Add(time.Duration(i) * 97 * time.Minute).Format("2006-01-02 15:04")
		line := at + " " + fmt.Sprintf(notes[i%len(notes)], o.Product, carrier, place)
		history = append(history, line)
		size += len(line) + 3 // the quotes and a comma
	}
	rec["history"] = history
	return rec
}
