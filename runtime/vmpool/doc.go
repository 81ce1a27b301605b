// Package vmpool keeps idle script VMs for reuse by the procedure
// runtimes: one VM serves one call at a time; a call takes an idle VM or
// makes a new one, and gives it back afterwards. The pool bounds how many
// idle VMs are kept (memory), not how many calls run at once.
//
// A Pool is safe for concurrent use.
package vmpool
