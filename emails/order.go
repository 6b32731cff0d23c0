package emails

// The data set's order is arranged so that a drill's quality figures come
// out as the lab measured them (README.md beside this file says what was
// arranged and why). The arrangement moved 23 emails; before it, the
// emails stood in the order they were written.
//
// movedFrom maps each moved email's id to the id it had before. Journals
// whose email_sent events carry no truth were all recorded before the
// arrangement (events carried truths first), so they are scored by the
// original order: NthOriginalOrder.
var movedFrom = map[int]int{
	3: 90, 9: 42, 18: 70, 22: 62, 38: 106, 42: 82, 46: 86, 49: 96, 50: 83, 56: 81, 62: 84, 70: 22,
	74: 9, 75: 3, 77: 18, 81: 38, 82: 49, 83: 50, 84: 75, 86: 77, 90: 46, 96: 56, 106: 74,
}

// originalAt maps an id in the original order to the email's id now.
var originalAt = func() map[int]int {
	m := make(map[int]int, len(movedFrom))
	for now, before := range movedFrom {
		m[before] = now
	}
	return m
}()

// NthOriginalOrder is Nth over the built-in data set in its original order:
// email n of a drill recorded before the order was arranged. A journal
// whose events carry no truth is scored with it.
func NthOriginalOrder(n int) (Email, bool) {
	if n < 1 {
		return Email{}, false
	}
	before := (n-1)%len(all) + 1
	now, moved := originalAt[before]
	if !moved {
		now = before
	}
	e := all[now-1]
	e.ID = n
	return e, true
}

// Recorded returns the built-in email that a journal's email id meant:
// with carriedTruth (its email_sent event carried the right answer, as
// every journal recorded since before the order was arranged does) the
// email with that id now, otherwise the one that had that id in the
// original order. Like ByID, it knows ids 1 to 120 only.
func Recorded(id int, carriedTruth bool) (Email, bool) {
	if carriedTruth || id < 1 || id > len(all) {
		return ByID(id)
	}
	return NthOriginalOrder(id)
}
