//! PROCEDURE inventory_decrement_js(IN item_id INT, IN qty INT, OUT remaining INT UNSIGNED)
// Takes qty units of an item out of stock, refusing to go below zero. The
// check and the update are one statement, so concurrent callers cannot
// oversell: the UPDATE matches no row when stock is short.
if (qty <= 0) {
  throw {code: 1644, sqlState: "45000", message: "quantity must be positive, got " + qty};
}
const res = session.runSql("UPDATE inventory SET stock = stock - ? WHERE id = ? AND stock >= ?", [qty, item_id, qty]);
if (res.getAffectedItemsCount() === 0) {
  const row = session.runSql("SELECT stock FROM inventory WHERE id = ?", [item_id]).fetchOne();
  if (row === null) {
    throw {code: 1644, sqlState: "45000", message: "item " + item_id + " does not exist"};
  }
  throw {code: 1644, sqlState: "45000",
         message: "insufficient stock for item " + item_id + ": " + row.stock + " left, " + qty + " wanted"};
}
remaining = session.runSql("SELECT stock FROM inventory WHERE id = ?", [item_id]).fetchOne().stock;
session.commit();
