//go:build race

package main

// raceEnabled tells the tests that the race detector is on: the signal
// tests then run alone (see TestSignals).
const raceEnabled = true
