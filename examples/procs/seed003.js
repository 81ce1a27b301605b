//! PROCEDURE seed003_insert_commit_js(IN n INT) COMMENT 'seed 003: n x (INSERT; COMMIT)'
// OceanBase's PL async-commit example: one INSERT and one COMMIT per row.
// Under ob_enable_pl_async_commit each commit returns once its record has an
// LSN; use session.commit({wait: 'complete'}) to wait for durability.
const insert = session.prepare("INSERT INTO test1 (a) VALUES (?)");
for (let counter = 1; counter <= n; counter++) {
  insert.bind(counter).execute();
  session.commit();
}
