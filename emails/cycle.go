package emails

// Cycle returns email n (from 1) of a drill over set, a drill that may be
// longer than the set: email n is set[(n-1) mod len(set)] — its sender,
// subject, body and truth — but keeps its own id n. So a 100,000-email
// drill over the built-in 120 sends email 121 as a copy of email 1, scored
// against email 1's right answer. It works over any set: the built-in one
// (Nth) or a team's file read by Load. ok is false for n < 1 or an empty
// set.
func Cycle(set []Email, n int) (Email, bool) {
	if n < 1 || len(set) == 0 {
		return Email{}, false
	}
	e := set[(n-1)%len(set)]
	e.ID = n
	return e, true
}

// Nth is Cycle over the built-in data set: email n of a drill of any size.
// Nth(n) is ByID(n) for n up to 120.
func Nth(n int) (Email, bool) { return Cycle(all, n) }
