// Package scripts holds the repository's shell scripts; its tests run them
// (scripts/bench.sh --check against a baseline) as go test runs any test.
package scripts
