// Package tabledef turns the definitions a CREATE TABLE or an ALTER TABLE
// gives (columns and their types, defaults and charsets, PRIMARY/UNIQUE
// keys, CHECK constraints, FOREIGN KEYs, ENGINE=) into a storage.TableDef,
// with MariaDB's errors and warnings for what it refuses or substitutes.
// A new table keeps its TIMESTAMPs in UTC (storage.TimestampsUTC); a
// TIMESTAMP's literal DEFAULT is read in the session's time_zone by the
// caller (exec.State.StoreTimestampDefaults), which this package has not.
//
// It writes nothing: no log record, no catalog change. CREATE TABLE (package
// ddl) and ALTER TABLE (package alter) build with it and then log what they
// built, so both accept and refuse the same definitions. Its checks of
// foreign keys against their parents (CheckForeignKeys) read the catalog
// as the statement finds it.
package tabledef
