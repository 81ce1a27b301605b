-- After the checkpoint: only in the log.
USE shop;
CALL place_order(7, 19.99, '2024-05-01 10:00:00');
CALL place_order(7, 5.01, '2024-05-01 10:05:00');
CALL place_order(999, 120.00, '2024-05-02 09:00:00');
CALL promote(9000.00);
UPDATE orders SET status = 'shipped', details = JSON_SET(details, '$.carrier', 'dhl') WHERE id BETWEEN 100 AND 140;
DELETE FROM orders WHERE status = 'cancelled' AND id > 2900;
UPDATE customers SET balance = balance - 10.50, email = CONCAT('moved-', email) WHERE id IN (3, 4, 5);
DELETE FROM customers WHERE id = 1000;
INSERT INTO audit VALUES ('2024-05-03 00:00:00', 'ops', 'after the checkpoint');
DELETE FROM audit WHERE who = 'setup' LIMIT 1;
UPDATE attachments SET body = X'DEADBEEF', meta = JSON_SET(meta, '$.patched', true) WHERE name = 'zeros';
CREATE INDEX k_placed ON orders (placed);
CREATE TABLE notes (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, body TEXT, UNIQUE KEY uk_body (body(20)));
INSERT INTO notes (body) VALUES ('first'), ('second'), ('third');
DELETE FROM notes WHERE id = 3;
CALL place_order(2, 1.00, '2024-05-04 00:00:00');
DELETE FROM orders WHERE id = (SELECT MAX(id) FROM (SELECT id FROM orders) o);
