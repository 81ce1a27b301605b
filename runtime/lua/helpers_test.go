package lua_test

import "github.com/plrun/plrun/sqlerr"

var errDup = sqlerr.New(sqlerr.ErDupEntry, "Duplicate entry '1' for key 'PRIMARY'")
