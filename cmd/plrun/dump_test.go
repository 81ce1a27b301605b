package main

import (
	"strings"
	"testing"
)

// TestDumpRoundTrip: `plrun dump --routines` of a data folder, loaded by
// plrun's batch mode into a new folder, gives the same rows, SHOW CREATE
// TABLE and routines.
func TestDumpRoundTrip(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	setup := "CREATE DATABASE shop;\nUSE shop;\n" +
		"CREATE TABLE items (id INT NOT NULL AUTO_INCREMENT, name VARCHAR(40) DEFAULT 'x', price DECIMAL(10,2), " +
		"added DATETIME(3), born DATE, f DOUBLE, PRIMARY KEY (id), KEY k_name (name));\n" +
		"INSERT INTO items (name, price, added, born, f) VALUES ('quote '' \"dq\" back\\\\slash', 1.50, '2024-01-02 03:04:05.678', '1999-12-31', -0.5), " +
		"('nl\\nCR\\rtab\\tnul\\0z\\Z', NULL, NULL, NULL, 1e100), (NULL, -0.01, NULL, '2000-02-29', NULL);\n" +
		"CREATE TABLE empty_t (a INT PRIMARY KEY);\n" +
		"CREATE PROCEDURE twice(IN n INT, OUT m INT) BEGIN SET m = n * 2; END;\n" +
		"CREATE FUNCTION hello(w VARCHAR(10)) RETURNS VARCHAR(20) RETURN CONCAT('hello ', w);\n" +
		"CREATE PROCEDURE lua_p(IN n INT) LANGUAGE LUA AS $$ local x = n; print('n=' .. x) $$;\n" +
		"CREATE TABLE tlog (x INT);\n" +
		"CREATE TRIGGER items_b BEFORE INSERT ON items FOR EACH ROW SET NEW.f = 7;\n" +
		"CREATE TRIGGER items_a BEFORE INSERT ON items FOR EACH ROW PRECEDES items_b BEGIN INSERT INTO tlog VALUES (1); END;\n"
	if status, _, errOut := plrunCLI(t, setup, "--data", src, "--create"); status != 0 {
		t.Fatalf("setup: %d %s", status, errOut)
	}
	status, dump, errOut := plrunCLI(t, "", "--data", src, "dump", "--routines")
	if status != 0 {
		t.Fatalf("dump: %d %s", status, errOut)
	}
	for _, want := range []string{"LOCK TABLES `items` WRITE;", "INSERT INTO `items` VALUES\n", "DELIMITER ;;", "/*!40111 SET SQL_NOTES=@OLD_SQL_NOTES */;"} {
		if !strings.Contains(dump, want) {
			t.Fatalf("dump lacks %q:\n%s", want, dump)
		}
	}
	if status, _, errOut := plrunCLI(t, dump, "--data", dst, "--create"); status != 0 {
		t.Fatalf("load: %d %s\n%s", status, errOut, dump)
	}
	check := "SELECT * FROM shop.items ORDER BY id; " +
		"SELECT id, added = '2024-01-02 03:04:05.678' AS frac_kept FROM shop.items WHERE id = 1; SHOW CREATE TABLE shop.items; SHOW CREATE TABLE shop.empty_t; " +
		"CALL shop.twice(21, @m); SELECT @m, shop.hello('you'); SHOW CREATE PROCEDURE shop.lua_p; " +
		"INSERT INTO shop.items (name) VALUES ('trg'); SELECT f FROM shop.items WHERE name = 'trg'; SELECT COUNT(*) AS logged FROM shop.tlog; " +
		"SELECT TRIGGER_NAME, ACTION_ORDER, ACTION_STATEMENT FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = 'shop' ORDER BY ACTION_ORDER"
	_, want, srcErr := plrunCLI(t, "", "--data", src, "-e", check)
	if srcErr != "" {
		t.Fatalf("the source: %s", srcErr)
	}
	for _, w := range []string{"quote ' \"dq\" back\\\\slash", "42\thello you", "KEY `k_name`", "frac_kept\n1\t1\n", "LANGUAGE LUA", "f\n7\n", "logged\n1\n", "items_a\t1\t", "items_b\t2\t"} {
		if !strings.Contains(want, w) {
			t.Fatalf("the source prints no %q:\n%s", w, want)
		}
	}
	_, got, errOut := plrunCLI(t, "", "--data", dst, "-e", check)
	if got != want || errOut != "" {
		t.Fatalf("loaded copy prints:\n%s\n%s\nwant:\n%s", got, errOut, want)
	}
}

// TestDumpTimeTypes: TIMESTAMPs are dumped in UTC (the dump's header sets
// TIME_ZONE='+00:00') whatever the source's time_zone, so they load back
// as the same instants; TIME(n) and YEAR come back as they were (YEAR
// bare, 0000, as mysqldump writes it).
func TestDumpTimeTypes(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	setup := "SET GLOBAL time_zone = '+05:00'; SET time_zone = '+05:00'; CREATE DATABASE tz; USE tz;\n" +
		"CREATE TABLE ev (id INT PRIMARY KEY, ts TIMESTAMP NULL, t TIME(2), y YEAR);\n" +
		"INSERT INTO ev VALUES (1, '2026-01-02 00:00:00', '-100:00:00.5', 0), (2, NULL, '00:00:01', 2155);\n"
	if status, _, errOut := plrunCLI(t, setup, "--data", src, "--create"); status != 0 {
		t.Fatalf("setup: %d %s", status, errOut)
	}
	status, dump, errOut := plrunCLI(t, "", "--data", src, "dump")
	if status != 0 {
		t.Fatalf("dump: %d %s", status, errOut)
	}
	if !strings.Contains(dump, "(1,'2026-01-01 19:00:00','-100:00:00.50',0000)") {
		t.Fatalf("dump does not hold the UTC instant:\n%s", dump)
	}
	if status, _, errOut := plrunCLI(t, dump, "--data", dst, "--create"); status != 0 {
		t.Fatalf("load: %d %s\n%s", status, errOut, dump)
	}
	check := "SET time_zone = '+05:00'; SELECT * FROM tz.ev ORDER BY id"
	want := "id\tts\tt\ty\n1\t2026-01-02 00:00:00\t-100:00:00.50\t0000\n2\tNULL\t00:00:01.00\t2155\n"
	for _, dir := range []string{src, dst} {
		if _, got, errOut := plrunCLI(t, "", "--data", dir, "-e", check); got != want || errOut != "" {
			t.Errorf("%s prints:\n%s%s\nwant:\n%s", dir, got, errOut, want)
		}
	}
}
