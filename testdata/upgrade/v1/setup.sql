-- Before the checkpoint: written into the snapshot.
CREATE DATABASE shop;
USE shop;
CREATE TABLE digits (d TINYINT NOT NULL PRIMARY KEY);
INSERT INTO digits VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9);
CREATE TABLE customers (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  email VARCHAR(80) NOT NULL,
  name VARCHAR(60) NOT NULL,
  tier ENUM('bronze','silver','gold') NOT NULL DEFAULT 'bronze',
  balance DECIMAL(12,2) NOT NULL DEFAULT 0.00,
  joined TIMESTAMP NOT NULL DEFAULT '2020-01-01 00:00:00',
  orders_placed INT NOT NULL DEFAULT 0,
  UNIQUE KEY uk_email (email),
  KEY k_tier (tier, balance)
);
INSERT INTO customers (email, name, tier, balance, joined)
SELECT CONCAT('c', n, '@example.com'), CONCAT('Customer ', n), ELT(1 + n % 3, 'bronze', 'silver', 'gold'),
       (n * 3727 % 1000000) / 100, TIMESTAMP('2021-01-01 00:00:00') + INTERVAL n HOUR
FROM (SELECT a.d * 100 + b.d * 10 + c.d + 1 AS n FROM digits a, digits b, digits c) s ORDER BY n;
CREATE TABLE orders (
  id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  customer_id INT NOT NULL,
  amount DECIMAL(10,2) NOT NULL,
  status ENUM('new','paid','shipped','cancelled') NOT NULL DEFAULT 'new',
  placed TIMESTAMP NOT NULL,
  details JSON,
  KEY k_customer (customer_id, placed),
  KEY k_status (status)
);
INSERT INTO orders (customer_id, amount, status, placed, details)
SELECT 1 + n * 7 % 1000, (n * 1931 % 50000) / 100, ELT(1 + n % 4, 'new', 'paid', 'shipped', 'cancelled'),
       TIMESTAMP('2022-03-01 08:00:00') + INTERVAL n * 17 MINUTE,
       JSON_OBJECT('n', n, 'gift', n % 5 = 0, 'tags', JSON_ARRAY(CONCAT('t', n % 3), 'x'))
FROM (SELECT a.d * 1000 + b.d * 100 + c.d * 10 + e.d + 1 AS n
      FROM digits a, digits b, digits c, digits e WHERE a.d < 3) s ORDER BY n;
CREATE TABLE attachments (
  name VARCHAR(40) NOT NULL PRIMARY KEY,
  sha CHAR(8) NOT NULL,
  body BLOB,
  meta JSON,
  UNIQUE KEY uk_sha (sha)
);
INSERT INTO attachments VALUES
  ('zeros', 'a0000001', X'0000000000', '{"kind": "zeros", "size": 5}'),
  ('bytes', 'a0000002', X'00FF7F80010203FEFF0A0D09', '{"kind": "bytes", "ok": true, "list": [1, 2.5, null]}'),
  ('text', 'a0000003', 'plain text body', NULL),
  ('empty', 'a0000004', '', '[]'),
  ('none', 'a0000005', NULL, '{"nested": {"a": {"b": "c"}}}');
-- No primary key: rows are told apart by plrun's hidden row id.
CREATE TABLE audit (
  at TIMESTAMP NOT NULL,
  who VARCHAR(20) NOT NULL,
  what VARCHAR(100) NOT NULL,
  KEY k_who (who)
);
INSERT INTO audit VALUES ('2023-01-01 00:00:00', 'setup', 'created the shop'),
  ('2023-01-01 00:00:00', 'setup', 'created the shop'),
  ('2023-01-02 12:30:00', 'ops', 'loaded customers');
CREATE VIEW gold_customers AS SELECT id, email, balance FROM customers WHERE tier = 'gold';
CREATE TRIGGER orders_ai AFTER INSERT ON orders FOR EACH ROW
  UPDATE customers SET orders_placed = orders_placed + 1 WHERE id = NEW.customer_id;
DELIMITER //
CREATE PROCEDURE place_order(IN cid INT, IN amt DECIMAL(10,2), IN at TIMESTAMP)
BEGIN
  INSERT INTO orders (customer_id, amount, status, placed, details)
    VALUES (cid, amt, 'new', at, JSON_OBJECT('via', 'place_order'));
  INSERT INTO audit VALUES (at, 'place_order', CONCAT('order for ', cid));
END //
DELIMITER ;
CREATE PROCEDURE promote(IN lo DECIMAL(12,2)) LANGUAGE LUA AS $$
  local r = session:runSql("SELECT id FROM customers WHERE tier = 'silver' AND balance >= ? ORDER BY id LIMIT 5", {lo})
  local row = r:fetchOne()
  while row do
    session:runSql("UPDATE customers SET tier = 'gold' WHERE id = ?", {row[1]})
    row = r:fetchOne()
  end
$$;
CREATE FUNCTION with_tax(a DECIMAL(10,2)) RETURNS DECIMAL(10,2) DETERMINISTIC RETURN a * 1.20;
CREATE USER 'app'@'localhost' IDENTIFIED BY 'app-secret';
GRANT SELECT, INSERT, UPDATE ON shop.* TO 'app'@'localhost';
GRANT EXECUTE ON PROCEDURE shop.place_order TO 'app'@'localhost';
CHECKPOINT;
