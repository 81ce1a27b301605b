#!/usr/bin/env sysbench
-- oltp_inventory: the hot-row "inventory" workload of the PolarDB hot-row
-- article (seed 002), written for plrun. Each event adds 1 to column c of
-- a row chosen among the first hotspot_rows rows of a random sbtest table.
-- With --inventory_hotspot=on the UPDATE carries the hot-row hints
-- COMMIT_ON_SUCCESS ROLLBACK_ON_FAIL TARGET_AFFECT_ROW(1), which let the
-- server group concurrent updates of one row and commit each on success.
--
--   sysbench scripts/oltp_inventory.lua --mysql-host=127.0.0.1 --mysql-port=3306 \
--     --mysql-user=root --mysql-password=root --mysql-db=test \
--     --tables=1 --table_size=1 --hotspot_rows=1 --inventory_hotspot=on prepare|run|cleanup
--
-- Updates go through a prepared statement (COM_STMT_PREPARE / EXECUTE)
-- unless --use_ps=off, which sends them as text queries like the
-- article's script does.

sysbench.cmdline.options = {
   inventory_hotspot = {"Use the hot-row hints on the UPDATE (on/off)", "off"},
   tables = {"Number of tables", 1},
   table_size = {"Rows per table", 1},
   hotspot_rows = {"Update only rows 1..hotspot_rows of a table", 1},
   oltp_skip_trx = {"Send no BEGIN/COMMIT around the UPDATE", true},
   use_ps = {"Send the UPDATE as a prepared statement (on/off)", "on"},
}

local HINT = "/*+ COMMIT_ON_SUCCESS ROLLBACK_ON_FAIL TARGET_AFFECT_ROW(1) */"

local function update_sql(table_id, placeholder)
   local hint = ""
   if sysbench.opt.inventory_hotspot == "on" then
      hint = HINT .. " "
   end
   return string.format("UPDATE %ssbtest%d SET c=c+1 WHERE id=%s", hint, table_id, placeholder)
end

local function connect()
   local drv = sysbench.sql.driver()
   return drv, drv:connect()
end

function prepare()
   local _, con = connect()
   for t = 1, sysbench.opt.tables do
      print(string.format("Creating table 'sbtest%d'...", t))
      con:query(string.format(
         "CREATE TABLE sbtest%d (id INT UNSIGNED NOT NULL, c BIGINT UNSIGNED NOT NULL, PRIMARY KEY (id))", t))
      print(string.format("Inserting %d rows into 'sbtest%d'", sysbench.opt.table_size, t))
      local id = 1
      while id <= sysbench.opt.table_size do
         local last = math.min(id + 999, sysbench.opt.table_size)
         local values = {}
         for i = id, last do
            values[#values + 1] = string.format("(%d, 1)", i)
         end
         con:query(string.format("INSERT INTO sbtest%d (id, c) VALUES %s", t, table.concat(values, ",")))
         id = last + 1
      end
   end
   con:disconnect()
end

function cleanup()
   local _, con = connect()
   for t = 1, sysbench.opt.tables do
      print(string.format("Dropping table 'sbtest%d'...", t))
      con:query(string.format("DROP TABLE IF EXISTS sbtest%d", t))
   end
   con:disconnect()
end

function thread_init()
   drv, con = connect()
   stmts = {}
   params = {}
   if sysbench.opt.use_ps == "on" then
      for t = 1, sysbench.opt.tables do
         stmts[t] = con:prepare(update_sql(t, "?"))
         params[t] = stmts[t]:bind_create(sysbench.sql.type.INT)
         stmts[t]:bind_param(params[t])
      end
   end
end

function event()
   local t = sysbench.rand.uniform(1, sysbench.opt.tables)
   local row_id = sysbench.rand.uniform(1, math.min(sysbench.opt.table_size, sysbench.opt.hotspot_rows))
   if not sysbench.opt.oltp_skip_trx then
      con:query("BEGIN")
   end
   if sysbench.opt.use_ps == "on" then
      params[t]:set(row_id)
      stmts[t]:execute()
   else
      con:query(update_sql(t, tostring(row_id)))
   end
   if not sysbench.opt.oltp_skip_trx then
      con:query("COMMIT")
   end
end

function thread_done()
   for t, stmt in pairs(stmts) do
      stmt:close()
   end
   con:disconnect()
end
