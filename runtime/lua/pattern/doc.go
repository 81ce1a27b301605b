// Package pattern is gopher-lua's Lua pattern matcher (github.com/yuin/gopher-lua/pm,
// v1.1.2, MIT License, Copyright (c) 2015 Yusuke Inuzuka) with one change:
// Find takes a check function that the matcher calls every few thousand
// steps, so a backtracking pattern (string.find(string.rep('a', 1e5),
// string.rep('a-', 30) .. 'b')) stops when the statement is cancelled
// instead of keeping a core busy until the server restarts. The upstream
// matcher runs in Go, where the VM's own context checks never reach.
//
// Concurrency: Find keeps no state between calls; any goroutine may call it.
package pattern
