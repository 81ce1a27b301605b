package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/plrun/plrun"
	"github.com/plrun/plrun/types"
)

// dumpMain is `plrun dump [--data DIR] [--routines] [DB ...]`: the
// databases of a data folder (all but the system schemas when none is
// named) as SQL in mysqldump's layout — its header and footer lines,
// DROP/CREATE TABLE, LOCK TABLES ... WRITE and multi-row INSERTs (no
// DISABLE/ENABLE KEYS lines: InnoDB has nothing to disable), and with
// --routines each procedure and function between DELIMITER ;; lines — so
// the mysql client and plrun's REPL load it back (and MariaDB, for SQL
// routines). It reads one consistent snapshot, as --single-transaction.
func dumpMain(args []string, dataDir string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plrun dump", flag.ContinueOnError)
	fs.SetOutput(stderr)
	data := fs.String("data", dataDir, "data directory")
	routines := fs.Bool("routines", false, "also dump stored procedures and functions")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	db, err := plrun.Open(*data, nil)
	if err != nil {
		fmt.Fprintf(stderr, "plrun dump: %s\n", openErrorLine(*data, err))
		return 1
	}
	defer db.Close()
	s := db.Session()
	defer s.Close()
	w := bufio.NewWriter(stdout)
	if err := dumpDatabases(context.Background(), s, fs.Args(), *routines, w); err != nil {
		w.Flush()
		fmt.Fprintf(stderr, "plrun dump: %v\n", err)
		return 1
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(stderr, "plrun dump: %v\n", err)
		return 1
	}
	return 0
}

var dumpHeader = `/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
/*!40101 SET @OLD_CHARACTER_SET_RESULTS=@@CHARACTER_SET_RESULTS */;
/*!40101 SET @OLD_COLLATION_CONNECTION=@@COLLATION_CONNECTION */;
/*!40101 SET NAMES utf8mb4 */;
/*!40103 SET @OLD_TIME_ZONE=@@TIME_ZONE */;
/*!40103 SET TIME_ZONE='+00:00' */;
/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;
/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;
/*!40101 SET @OLD_SQL_MODE=@@SQL_MODE, SQL_MODE='NO_AUTO_VALUE_ON_ZERO' */;
/*!40111 SET @OLD_SQL_NOTES=@@SQL_NOTES, SQL_NOTES=0 */;
`

var dumpFooter = `/*!40103 SET TIME_ZONE=@OLD_TIME_ZONE */;

/*!40101 SET SQL_MODE=@OLD_SQL_MODE */;
/*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS */;
/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */;
/*!40101 SET CHARACTER_SET_CLIENT=@OLD_CHARACTER_SET_CLIENT */;
/*!40101 SET CHARACTER_SET_RESULTS=@OLD_CHARACTER_SET_RESULTS */;
/*!40101 SET COLLATION_CONNECTION=@OLD_COLLATION_CONNECTION */;
/*!40111 SET SQL_NOTES=@OLD_SQL_NOTES */;
`

// dumpInsertBytes is about how long one INSERT grows before the next
// starts (mysqldump's --net-buffer-length does the same).
const dumpInsertBytes = 1 << 20

func dumpDatabases(ctx context.Context, s *plrun.Session, names []string, routines bool, w *bufio.Writer) error {
	// TIMESTAMPs are read in UTC, as the dump's header says they are
	// written (mysqldump's --tz-utc), whatever the global time_zone.
	if _, err := s.Exec(ctx, "SET time_zone = '+00:00'"); err != nil {
		return err
	}
	if _, err := s.Exec(ctx, "START TRANSACTION WITH CONSISTENT SNAPSHOT"); err != nil {
		return err
	}
	defer s.Exec(ctx, "ROLLBACK")
	if len(names) == 0 {
		r, err := s.Exec(ctx, "SHOW DATABASES")
		if err != nil {
			return err
		}
		for _, row := range r.Rows {
			switch n := row[0].String(); strings.ToLower(n) {
			case "information_schema", "performance_schema", "mysql", "sys":
			default:
				names = append(names, n)
			}
		}
	}
	fmt.Fprintf(w, "-- plrun dump\n--\n-- Databases: %s\n-- ------------------------------------------------------\n\n", strings.Join(names, ", "))
	w.WriteString(dumpHeader)
	for _, name := range names {
		if err := dumpDatabase(ctx, s, name, routines, w); err != nil {
			return err
		}
	}
	w.WriteString(dumpFooter)
	fmt.Fprintf(w, "\n-- Dump completed on %s\n", time.Now().Format("2006-01-02 15:04:05"))
	return nil
}

func dumpDatabase(ctx context.Context, s *plrun.Session, name string, routines bool, w *bufio.Writer) error {
	q := quoteDumpName(name)
	r, err := s.Exec(ctx, "SHOW CREATE DATABASE "+q)
	create := "CREATE DATABASE " + q
	if err == nil && len(r.Rows) == 1 && len(r.Rows[0]) > 1 {
		create = r.Rows[0][1].String()
	}
	fmt.Fprintf(w, "\n--\n-- Current Database: %s\n--\n\n", q)
	fmt.Fprintf(w, "%s;\n\nUSE %s;\n", strings.Replace(create, "CREATE DATABASE ", "CREATE DATABASE /*!32312 IF NOT EXISTS*/ ", 1), q)
	tables, err := s.Exec(ctx, "SHOW TABLES FROM "+q)
	if err != nil {
		return err
	}
	for _, row := range tables.Rows {
		if err := dumpTable(ctx, s, name, row[0].String(), w); err != nil {
			return err
		}
	}
	if err := dumpTriggers(ctx, s, name, w); err != nil {
		return err
	}
	if routines {
		return dumpRoutines(ctx, s, name, w)
	}
	return nil
}

// reTriggerOrder is a CREATE TRIGGER's FOLLOWS/PRECEDES clause: the dump
// creates a table's triggers in firing order, each after the ones before
// it, so the clause (which may name one not yet created) is left out.
var reTriggerOrder = regexp.MustCompile("(?is)(\\bFOR\\s+EACH\\s+ROW\\s+)(?:FOLLOWS|PRECEDES)\\s+(?:`[^`]+`|[\\w$]+)\\s+")

// dumpTriggers writes db's triggers after its tables' rows (so loading
// the dump fires none), as mariadb-dump does by default.
func dumpTriggers(ctx context.Context, s *plrun.Session, db string, w *bufio.Writer) error {
	trs, err := s.Exec(ctx, "SHOW TRIGGERS FROM "+quoteDumpName(db))
	if err != nil {
		return err
	}
	for _, row := range trs.Rows {
		r, err := s.Exec(ctx, "SHOW CREATE TRIGGER "+quoteDumpName(db)+"."+quoteDumpName(row[0].String()))
		if err != nil {
			return err
		}
		create := reTriggerOrder.ReplaceAllString(r.Rows[0][2].String(), "${1}")
		fmt.Fprintf(w, "DELIMITER ;;\n%s ;;\nDELIMITER ;\n", create)
	}
	return nil
}

func dumpTable(ctx context.Context, s *plrun.Session, db, table string, w *bufio.Writer) error {
	qt := quoteDumpName(table)
	full := quoteDumpName(db) + "." + qt
	r, err := s.Exec(ctx, "SHOW CREATE TABLE "+full)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\n--\n-- Table structure for table %s\n--\n\nDROP TABLE IF EXISTS %s;\n", qt, qt)
	fmt.Fprintf(w, "/*!40101 SET @saved_cs_client     = @@character_set_client */;\n/*!40101 SET character_set_client = utf8mb4 */;\n")
	fmt.Fprintf(w, "%s;\n/*!40101 SET character_set_client = @saved_cs_client */;\n", r.Rows[0][1].String())
	rows, err := s.Exec(ctx, "SELECT * FROM "+full)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\n--\n-- Dumping data for table %s\n--\n\nLOCK TABLES %s WRITE;\n", qt, qt)
	size := 0
	for i, row := range rows.Rows {
		if size == 0 {
			fmt.Fprintf(w, "INSERT INTO %s VALUES\n", qt)
		} else {
			w.WriteString(",\n")
		}
		var b strings.Builder
		b.WriteByte('(')
		for j, v := range row {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(dumpLiteral(rows.Columns[j].Type, v))
		}
		b.WriteByte(')')
		w.WriteString(b.String())
		size += b.Len()
		if size >= dumpInsertBytes || i == len(rows.Rows)-1 {
			w.WriteString(";\n")
			size = 0
		}
	}
	w.WriteString("UNLOCK TABLES;\n")
	return nil
}

func dumpRoutines(ctx context.Context, s *plrun.Session, db string, w *bufio.Writer) error {
	fmt.Fprintf(w, "\n--\n-- Dumping routines for database '%s'\n--\n", db)
	for _, kind := range []string{"FUNCTION", "PROCEDURE"} {
		st, err := s.Exec(ctx, "SHOW "+kind+" STATUS")
		if err != nil {
			return err
		}
		for _, row := range st.Rows {
			if !strings.EqualFold(row[0].String(), db) {
				continue
			}
			name := quoteDumpName(row[1].String())
			r, err := s.Exec(ctx, "SHOW CREATE "+kind+" "+quoteDumpName(db)+"."+name)
			if err != nil {
				return err
			}
			create := r.Rows[0][2].String()
			fmt.Fprintf(w, "/*!50003 DROP %s IF EXISTS %s */;\nDELIMITER ;;\n%s ;;\nDELIMITER ;\n", kind, name, create)
		}
	}
	return nil
}

// dumpLiteral is v as mysqldump writes it: numbers bare, NULL, and
// everything else a quoted string with \0 \n \r \\ \' \" \Z escaped.
func dumpLiteral(t types.ColType, v types.Value) string {
	if v.IsNull() {
		return "NULL"
	}
	if v.IsNumeric() {
		return v.String()
	}
	text := v.String()
	if v.K == types.KindTime {
		switch t.Base {
		case types.TDate:
			text = v.Time().Format(time.DateOnly)
		case types.TDatetime, types.TTimestamp:
			text = types.FormatTime(v.Time(), t.Scale)
		}
	}
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(text); i++ {
		switch c := text[i]; c {
		case 0:
			b.WriteString(`\0`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`\'`)
		case '"':
			b.WriteString(`\"`)
		case 26:
			b.WriteString(`\Z`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

func quoteDumpName(n string) string { return "`" + strings.ReplaceAll(n, "`", "``") + "`" }
