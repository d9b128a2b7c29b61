import Database from 'better-sqlite3';
const [mode, file, holdMs] = process.argv.slice(2);
const db = new Database(file, { timeout: 200 });
const t0 = Date.now();
try {
  if (mode === 'shared') { db.exec('BEGIN'); db.prepare('select count(*) from sqlite_master').get(); }
  else { db.pragma('locking_mode = EXCLUSIVE'); db.exec('BEGIN EXCLUSIVE'); }
  console.log(`${mode} ${process.pid} got after ${Date.now()-t0}ms`);
  setTimeout(() => { console.log(`${mode} ${process.pid} release`); db.close(); }, Number(holdMs));
} catch (e) { console.log(`${mode} ${process.pid} refused ${e.code} after ${Date.now()-t0}ms`); }
