//go:build race

package chat

// raceDetector is true in a test binary built with -race.
const raceDetector = true
