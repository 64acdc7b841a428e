// Every SQLite statement is prepared with its bound values written `+?` (src/db/sqlite-parameters.ts),
// so that SQLite plans it once; nothing inside a string literal, a quoted identifier or a comment
// changes, and the statements answer as before.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { unplannedParameters } from '../../src/db/sqlite-parameters.ts';

describe('bound values out of the SQLite planner’s sight', () => {
  test('each bound parameter is written +?', () => {
    assert.equal(
      unplannedParameters('select a from t where id = ? and b in (?, ?) limit ?'),
      'select a from t where id = +? and b in (+?, +?) limit +?',
    );
    assert.equal(unplannedParameters('update t set n = n + ? where id = ?1'), 'update t set n = n + +? where id = +?1');
  });

  test('string literals, quoted identifiers and comments are left as they are', () => {
    const cases = [
      `select 'is it?' from t where a = 'it''s ?'`,
      'select "col?" from t',
      'select `col?` from [t?]',
      'select 1 -- why?\nfrom t',
      'select /* ? */ 1',
      `select 'never closed ?`,
    ];
    for (const sqlText of cases) assert.equal(unplannedParameters(sqlText), sqlText);
    assert.equal(unplannedParameters(`select 'a?', ? /* ? */, "b?" -- ?\n, ?`), `select 'a?', +? /* ? */, "b?" -- ?\n, +?`);
  });

  test('SQLite answers the rewritten statements with the same rows and types', () => {
    const db = new Database(':memory:');
    db.exec(`create table t (id integer primary key, n integer, s text, r real, b blob);
      create table u (id integer primary key, t_id integer references t (id));
      insert into t values (1, 10, '10', 1.5, x'00ff'), (2, 20, 'x', null, null);
      insert into u values (7, 1), (8, 2);`);
    const statements: [string, unknown[]][] = [
      ['select t.id, t.n, u.id as u from t join u on u.t_id = t.id where t.id = ? and t.n = ?', [1, 10]],
      // A text value against an integer column: the column's affinity still applies.
      ['select id from t where n = ?', ['20']],
      ['select id from t where s = ?', [10]],
      ['select ? as v, typeof(?) as ty', ['3', 3]],
      ['select ? as v, typeof(?) as ty', [Buffer.from([1, 2]), null]],
      ['select id from t where b = ?', [Buffer.from([0, 255])]],
      ['select id from t order by id limit ? offset ?', [1, 1]],
      ['select n + ? as m from t where id = ?', [5, 2]],
    ];
    for (const [sqlText, values] of statements) {
      assert.deepEqual(db.prepare(unplannedParameters(sqlText)).all(...values), db.prepare(sqlText).all(...values), sqlText);
    }
    db.close();
  });
});
