// Package show answers the SHOW statements about the database and the
// session (SHOW DATABASES, TABLES, COLUMNS, CREATE TABLE, INDEX, VARIABLES,
// STATUS, PROCESSLIST, WARNINGS/ERRORS, ENGINES, CHARSET, COLLATION, TABLE
// STATUS) and EXPLAIN, as MariaDB prints them. It reads the session and the
// engine through Source; SHOW of procedures and functions stays with them
// in package sql.
package show
