// Package sweeprun is drill sweep, drill recommend and drill sweep merge
// past their cobra commands: the flags that define a sweep or a search, a
// sweep planned and checked, run whole or one shard at a time (the shard
// file written with the sweep's fingerprint), shards merged back into what
// the whole run prints, and the result printed as a table, text or JSON.
//
// A shard's command line is parsed again here with the same flags, so a
// merge plans exactly the sweep the shards ran. The dashboards are views
// and come in through Env, so this package imports none.
package sweeprun
