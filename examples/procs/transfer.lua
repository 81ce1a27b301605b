--! PROCEDURE transfer_lua(IN from_id INT, IN to_id INT, IN amount DECIMAL(12,2), OUT from_balance DECIMAL(12,2), OUT to_balance DECIMAL(12,2))
-- Moves amount from one account to another in one transaction. Balances are
-- DECIMAL: they arrive as exact strings and the arithmetic is done by SQL,
-- never in floating point. Both rows are locked in id order (no deadlock
-- between opposite transfers).
local function balance(id)
  local row = session:runSql("SELECT balance FROM accounts WHERE id = ? FOR UPDATE", {id}):fetchOne()
  if row == nil then
    error({code = 1644, sqlState = "45000", message = "account " .. id .. " does not exist"})
  end
  return row.balance
end

if from_id == to_id then
  error({code = 1644, sqlState = "45000", message = "cannot transfer to the same account"})
end
session:startTransaction()
local ok, err = pcall(function()
  local low, high = math.min(from_id, to_id), math.max(from_id, to_id)
  balance(low)
  balance(high)
  local enough = session:runSql("SELECT balance >= ? AS enough FROM accounts WHERE id = ?", {amount, from_id}):fetchOne()
  if enough.enough ~= 1 then
    error({code = 1644, sqlState = "45000",
           message = "insufficient funds in account " .. from_id .. ": balance " .. balance(from_id) .. " < " .. amount})
  end
  session:runSql("UPDATE accounts SET balance = balance - ? WHERE id = ?", {amount, from_id})
  session:runSql("UPDATE accounts SET balance = balance + ? WHERE id = ?", {amount, to_id})
  from_balance = balance(from_id)
  to_balance = balance(to_id)
end)
if not ok then
  session:rollback()
  error(err, 0)
end
session:commit()
