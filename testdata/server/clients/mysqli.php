<?php
// PHP mysqli: multi_query(), a prepared statement's result_metadata(), and
// change_user() (session reset, same connection).
// Usage: php mysqli.php HOST PORT
mysqli_report(MYSQLI_REPORT_ERROR | MYSQLI_REPORT_STRICT);
$m = new mysqli($argv[1], 'root', 'root', 'test', (int)$argv[2]);
$m->query("CREATE TABLE php_t (id INT PRIMARY KEY, name VARCHAR(20))");
$m->multi_query("INSERT INTO php_t VALUES (1, 'a'); INSERT INTO php_t VALUES (2, 'b'); SELECT COUNT(*) FROM php_t; SELECT name FROM php_t WHERE id = 2");
$results = [];
do {
    if ($r = $m->store_result()) { $results[] = $r->fetch_row()[0]; $r->free(); } else { $results[] = "ok:" . $m->affected_rows; }
} while ($m->more_results() && $m->next_result());
echo "multi_query: " . implode(" ", $results) . "\n";
$st = $m->prepare("SELECT id, name FROM php_t WHERE id = ?");
$meta = $st->result_metadata();
echo "result_metadata: " . ($meta ? implode(",", array_map(fn($f) => $f->name, $meta->fetch_fields())) : "false") . "\n";
$id = 2;
$st->bind_param("i", $id);
$st->execute();
$st->bind_result($rid, $rname);
$st->fetch();
echo "execute: $rid $rname\n";
$st->close();
$m->query("SET @x = 1");
$tid = $m->thread_id;
echo "change_user: " . var_export($m->change_user('root', 'root', 'test'), true) . "\n";
$r = $m->query("SELECT @x, CONNECTION_ID()")->fetch_row();
echo "after change_user: @x=" . var_export($r[0], true) . " same connection: " . var_export($r[1] == $tid, true) . "\n";
