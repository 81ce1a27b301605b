// Package membudget is the memory budget of one statement or one CALL
// (the setting plrun_max_statement_memory): what the SQL layer buffers
// for it (result rows, sort input, GROUP BY and DISTINCT hash tables,
// subquery results) is charged while it is held, and no string or array a
// procedure's Lua or JavaScript code builds may be larger than what is left.
// Past the budget the statement fails with MySQL's error 3170 (HY000,
// ER_CAPACITY_EXCEEDED) instead of the process running out of memory.
//
// A Budget travels in the statement's context (With / From), so the
// statements a CALL runs share the CALL's budget, and runtime/lua and
// runtime/js reach it without importing sql. A nil *Budget is no limit.
//
// Watch samples the heap for what VMs grow without asking; LazyWatch is
// the same for calls that are usually shorter than one sample (a stored
// function, once per row), starting the sampler only when a call outlives
// one.
//
// Concurrency: Grow, Shrink and Fits may be called from any goroutine.
package membudget
