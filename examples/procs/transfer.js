//! PROCEDURE transfer_js(IN from_id INT, IN to_id INT, IN amount DECIMAL(12,2), OUT from_balance DECIMAL(12,2), OUT to_balance DECIMAL(12,2))
// Moves amount from one account to another in one transaction. Balances are
// DECIMAL: they arrive as exact strings and the arithmetic is done by SQL,
// never in floating point. Both rows are locked in id order (no deadlock
// between opposite transfers).
function balance(id) {
  const row = session.runSql("SELECT balance FROM accounts WHERE id = ? FOR UPDATE", [id]).fetchOne();
  if (row === null) {
    throw {code: 1644, sqlState: "45000", message: "account " + id + " does not exist"};
  }
  return row.balance;
}

if (from_id === to_id) {
  throw {code: 1644, sqlState: "45000", message: "cannot transfer to the same account"};
}
session.startTransaction();
try {
  balance(Math.min(from_id, to_id));
  balance(Math.max(from_id, to_id));
  const enough = session.runSql("SELECT balance >= ? AS enough FROM accounts WHERE id = ?", [amount, from_id]).fetchOne();
  if (enough.enough !== 1) {
    throw {code: 1644, sqlState: "45000",
           message: "insufficient funds in account " + from_id + ": balance " + balance(from_id) + " < " + amount};
  }
  session.runSql("UPDATE accounts SET balance = balance - ? WHERE id = ?", [amount, from_id]);
  session.runSql("UPDATE accounts SET balance = balance + ? WHERE id = ?", [amount, to_id]);
  from_balance = balance(from_id);
  to_balance = balance(to_id);
} catch (e) {
  session.rollback();
  throw e;
}
session.commit();
