// Package show answers the SHOW statements about the database and the
// session (SHOW DATABASES, TABLES, COLUMNS, CREATE TABLE, INDEX, VARIABLES,
// STATUS, PROCESSLIST, WARNINGS/ERRORS, ENGINES, CHARSET, COLLATION, TABLE
// STATUS, CREATE DATABASE, FULL COLUMNS, PROCEDURE/FUNCTION STATUS ...
// WHERE) and EXPLAIN, as MariaDB prints them. SHOW ... WHERE evaluates
// its expression over the result's own columns (where.go); what SHOW
// shares with information_schema (TABLE STATUS, COLUMNS' Key and Default,
// INDEX) comes from sql/infoschema, so both agree. It reads the session and the
// engine through Source; SHOW of procedures and functions stays with them
// in package sql.
package show
