// Package procs holds plrun's stored-procedure layer that is independent of
// any one scripting language: the Definition and its SQL/file syntax, the
// Catalog that compiles and looks procedures up on the CALL path, argument
// conversion to declared parameter types, and the Host/Runtime/Program
// contracts the language runtimes (runtime/lua, runtime/js) implement.
//
// Flow of a procedure:
//
//	CREATE PROCEDURE ... AS $$ body $$  --ParseCreate-->  *Definition
//	dir/*.lua, dir/*.js                 --LoadDir------->  []*Definition
//	*Definition --Catalog.Create--> Runtime.Compile --> Program (kept in the catalog)
//	CALL p(args) --Catalog.Call--> convert args to param types --> Program.Call(ctx, host, args)
//	                                                         <-- outs converted to param types
//
// What a procedure sends its caller besides OUT parameters goes through its
// Host: result sets (Host.Emit), which the CALL returns before its OK, and
// notes (Host.Note: print, console.log). Errors follow scripterr.go: a
// runtime error's message says where; an error the script raised keeps its
// message as raised and says where in sqlerr.Error.Where. Definitions
// loaded from files keep the file and the file line of the body's first
// line, so every place named is a line of that file.
//
// Stored functions (CREATE FUNCTION ... RETURNS) are Definitions with Func
// set, kept in a namespace of their own (CreateFunctionIn, GetFunction,
// DropFunction, ListFunctionsIn). A runtime compiles their bodies when it
// implements FunctionCompiler (a FunctionProgram returns one value); a
// LanguageSQL body (RETURN expr) is stored as written and compiled by the
// sql layer. FunctionHost is the Host a function body gets (no
// transaction control: 1422); a NO SQL function gets none (1314).
//
// Catalog lookups take a read lock only; Create/Drop/Restore compile outside
// the lock and then swap the entry in, so CALLs never wait for a compile.
//
// Procedures are keyed by lower(db)+"."+lower(name). Definition carries no
// database, so Create and Restore use DefaultDB ("test") and CreateIn /
// RestoreIn / ListIn take an explicit database.
package procs
