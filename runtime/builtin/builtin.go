// Package builtin lists the procedure languages plrun ships, for the faces
// (the root package, cmd/plrun, the server, the driver, tests) to give to
// engine.Config.Runtimes. Nothing below the faces imports a VM runtime:
// the engine and the SQL layer see only procs.Runtime.
package builtin

import (
	"github.com/plrun/plrun/procs"
	jsrt "github.com/plrun/plrun/runtime/js"
	luart "github.com/plrun/plrun/runtime/lua"
)

// Runtimes returns new Lua and JavaScript runtimes.
func Runtimes() []procs.Runtime {
	return []procs.Runtime{luart.New(luart.Options{}), jsrt.New(jsrt.Options{})}
}
