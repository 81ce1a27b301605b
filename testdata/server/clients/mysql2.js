// Node mysql2: a connection without a database (the handshake's empty
// database name), changeUser() to a database, and a prepared execute().
// Usage: node mysql2.js HOST PORT (NODE_PATH finds mysql2)
const mysql = require('mysql2/promise');
(async () => {
  const [host, port] = [process.argv[2], +process.argv[3]];
  const c = await mysql.createConnection({host, port, user: 'root', password: 'root'});
  const [[r1]] = await c.query('SELECT DATABASE() AS db, CONNECTION_ID() = ? AS same_id', [c.threadId]);
  console.log('no database:', r1.db, 'thread id is CONNECTION_ID:', r1.same_id);
  await c.query('SET @x = 5');
  await c.changeUser({user: 'root', password: 'root', database: 'test'});
  const [[r2]] = await c.query('SELECT DATABASE() AS db, @x AS x, CONNECTION_ID() = ? AS same_id', [c.threadId]);
  console.log('after changeUser:', r2.db, 'x:', r2.x, 'same connection:', r2.same_id);
  const [[r3]] = await c.execute('SELECT ? + 1 AS v', [41]);
  console.log('execute:', r3.v);
  await c.end();
})().catch((e) => { console.error('ERROR', e.code, e.message); process.exit(1); });
