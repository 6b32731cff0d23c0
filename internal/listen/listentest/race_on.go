//go:build race

package listentest

// raceEnabled says the binary was built with the race detector.
const raceEnabled = true
