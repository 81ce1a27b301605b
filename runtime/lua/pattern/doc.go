// Package pattern is plrun's Lua pattern matcher (string.find, match,
// gmatch, gsub): Lua 5.1's matching rules (lstrlib.c's match), written
// for plrun so that it can be stopped. gopher-lua's own matcher runs in
// Go, where the VM's context checks never reach, so a backtracking
// pattern (string.find(string.rep('a', 1e5), string.rep('a-', 30) .. 'b'))
// kept a core busy past KILL and max_execution_time. Find calls a check
// function every few thousand steps; the error it returns ends the match.
//
// It follows Lua 5.1 (with %f, which 5.1 has undocumented); its results
// are checked against gopher-lua's matcher by a differential test.
//
// Concurrency: Find keeps no state between calls; any goroutine may call it.
package pattern
