// Package view is SQL views. A view stores its SELECT as text
// (storage.ViewDef), written the way MariaDB prints it: every column
// qualified and named, * expanded at CREATE VIEW time (Define; text.go
// prints it, columns.go prints it with databases for
// information_schema.VIEWS and lists its columns with their base
// columns' types and defaults). A query naming a view plans that SELECT
// in the view's database as a derived table of the view's name (Source):
// its rows are materialized per execution like any derived table
// (sql/compose). A one-table view one could write through merges into a
// one-table query instead (Mergeable, MariaDB's ALGORITHM=MERGE).
//
// A statement that writes through an updatable view (one table, no
// aggregate, DISTINCT, GROUP BY, window, UNION or derived table) writes
// the base table (Resolve's Target): the view's columns resolve to their
// expressions over the base row (expr.ViewColumns), the view's WHERE is
// added to the statement's, and WITH CHECK OPTION checks each written
// row against it (1369). Views over views nest to 32 (1462).
//
// It plans no SELECT itself: the session (sql/exec's State) plans a
// view's query through Host, and a SELECT's plan tells what printing and
// updatability ask through Select.
package view
