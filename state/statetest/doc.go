// Package statetest holds in-memory doubles of package state's fleet interfaces for
// the tests of the packages that use them (the gateway's key verdicts, the
// translator's shared answers). Product code never imports it.
package statetest
