-- Run by the mariadb/mysql command-line client against plrun serve
-- (server/clients_test.go); the test compares its --batch output.
CREATE DATABASE IF NOT EXISTS shop;
USE shop;
CREATE TABLE stock (id INT UNSIGNED NOT NULL, name VARCHAR(20) NOT NULL, qty BIGINT NOT NULL, price DECIMAL(8,2), PRIMARY KEY (id));
INSERT INTO stock VALUES (1, 'apple', 10, 0.50), (2, 'pear', 5, 1.25), (3, 'plum', 0, NULL);
UPDATE stock SET qty = qty - 1 WHERE id = 1;
BEGIN;
UPDATE stock SET qty = qty + 100 WHERE id = 2;
ROLLBACK;
SELECT id, name, qty, price FROM stock ORDER BY id;
SELECT COUNT(*) AS n, SUM(qty) AS total FROM stock;
