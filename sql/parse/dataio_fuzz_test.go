package parse

import "testing"

// FuzzDataIOScans: plrun's own scans of LOCK TABLES and of a SELECT's
// INTO OUTFILE / DUMPFILE clause never panic, and what they accept parses
// to the same result again.
func FuzzDataIOScans(f *testing.F) {
	for _, s := range []string{
		"LOCK TABLES `t` READ /*!32311 LOCAL */",
		"lock tables a as x read local, b.c low_priority write, d write concurrent",
		"LOCK TABLE `a``b` WRITE, t2 READ",
		"lock tables",
		"select * from t into outfile '/tmp/x' fields terminated by ',' optionally enclosed by '\"' escaped by '\\\\' lines starting by '>' terminated by '\\r\\n'",
		"select a into dumpfile '/tmp/y' from t where (select 1 into outfile 'z')",
		"select 'into outfile' from t into outfile \"q\" character set utf8mb4",
		"/*!40000 select 2 */",
		"/*!50003 DROP FUNCTION IF EXISTS `f` */",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p1, err1 := Parse(s, 0)
		p2, err2 := Parse(s, 0)
		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("%q parsed differently twice: %v / %v", s, err1, err2)
		}
		if err1 == nil && (len(p1.Locks) != len(p2.Locks) || (p1.Into == nil) != (p2.Into == nil)) {
			t.Fatalf("%q parsed differently twice", s)
		}
		if err1 == nil && p1.Node != nil {
			_ = p1.TableRefs()
			_ = p1.IsWrite()
		}
	})
}
