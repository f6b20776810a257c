import request from 'supertest';
import { ItemNamePrefixes1764890000000 } from '../../libs/platform/src/database/migrations/1764890000000-item-name-prefixes';
import { ItemNameFold1764900000000 } from '../../libs/platform/src/database/migrations/1764900000000-item-name-fold';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * The name search index (issue 12, item 4): GET /items?q= and the POS search's fallback find
 * names with a word starting with q through item_name_words (a range read of its tail index),
 * kept on every create and rename, on both databases; the plans read indexes, never a whole table.
 */
describe('Item name search index', () => {
  let t: TestApp;
  let manager: string;
  const api = () => request(t.http);
  const names = async (q: string) => {
    const res = await api().get('/api/v1/items').query({ q, per_page: 100 }).set(bearer(manager));
    expect(res.status).toBe(200);
    return (res.body.data as { name: string }[]).map((i) => i.name);
  };

  beforeAll(async () => {
    t = await startTestApp();
    manager = await login(t, DEMO.manager);
  });
  afterAll(() => t.close());

  it('finds a new item by any word start, across words, in any case, and follows a rename', async () => {
    const made = await api().post('/api/v1/items').set(bearer(manager)).send({ sku: 'IDX-1', name: 'Crème Brûlée Dessert-Cup (XL)', base_price: 3 });
    expect(made.status).toBe(201);
    for (const q of ['crème', 'CRÈME BR', 'brûlée des', 'dessert-cup', 'cup (x', 'xl', 'Crème Brûlée Dessert-Cup (XL)'])
      expect([q, await names(q)]).toEqual([q, ['Crème Brûlée Dessert-Cup (XL)']]);
    for (const q of ['rème', 'ssert', 'brûléedessert']) expect([q, await names(q)]).toEqual([q, []]);
    const renamed = await api().put(`/api/v1/items/${made.body.data.id}`).set(bearer(manager)).send({ name: 'Vanilla Pudding Cup' });
    expect(renamed.status).toBe(200);
    expect(await names('crème')).toEqual([]);
    expect(await names('pudd')).toEqual(['Vanilla Pudding Cup']);
    const rows = await t.db.query('SELECT tail FROM item_name_words WHERE item_id = ? ORDER BY position', [made.body.data.id]);
    expect(rows.map((r: { tail: string }) => r.tail)).toEqual(['vanilla pudding cup', 'pudding cup', 'cup']);
    // The prefix index: the new name's prefixes, none of the old name's left
    const prefixes = async () =>
      ((await t.db.query('SELECT prefix, name FROM item_name_prefixes WHERE item_id = ?', [made.body.data.id])) as { prefix: string; name: string }[])
        .map((r) => `${r.prefix}|${r.name}`)
        .sort();
    const { wordPrefixes, wordTails } = await import('@pos/kernel');
    expect(await prefixes()).toEqual(
      wordPrefixes(wordTails('Vanilla Pudding Cup'))
        .map((p) => `${p}|Vanilla Pudding Cup`)
        .sort(),
    );
    // Deleted: no row in either index
    expect((await api().delete(`/api/v1/items/${made.body.data.id}`).set(bearer(manager))).status).toBeLessThan(300);
    expect(await prefixes()).toEqual([]);
    expect(await t.db.query('SELECT tail FROM item_name_words WHERE item_id = ?', [made.body.data.id])).toEqual([]);
    expect(await names('pudd')).toEqual([]);
  });

  it('finds a name with or without its accents, on both databases (as MySQL compares them)', async () => {
    const made = [
      ['ACC-1', 'Crème Brûlée Tartlet'],
      ['ACC-2', 'İstanbul Simit'],
      ['ACC-3', 'Cre\u0300me Fraiche Pot'], // decomposed, as some keyboards send it
    ];
    for (const [sku, name] of made) expect((await api().post('/api/v1/items').set(bearer(manager)).send({ sku, name, base_price: 2 })).status).toBe(201);
    const tartlet = 'Crème Brûlée Tartlet';
    for (const q of ['creme brulee', 'CREME BRU', 'Crème brûlée t', 'brulee tartlet']) expect([q, await names(q)]).toEqual([q, [tartlet]]);
    for (const q of ['istanbul', 'İSTANBUL s', 'ISTANBUL']) expect([q, await names(q)]).toEqual([q, ['İstanbul Simit']]);
    expect(await names('crème f')).toEqual(['Cre\u0300me Fraiche Pot']);
    expect((await names('creme')).sort()).toEqual(['Cre\u0300me Fraiche Pot', tartlet].sort());
    // the POS search too
    const pos = await api().get('/api/v1/pos/products/search').query({ q: 'brulee', store_id: 1 }).set(bearer(manager));
    expect(pos.status).toBe(200);
    expect(pos.body.data.map((i: { name: string }) => i.name)).toEqual([tartlet]);
  });

  it('folds the tails written before the accents were folded, in its migration', async () => {
    const made = await api().post('/api/v1/items').set(bearer(manager)).send({ sku: 'ACC-9', name: 'Pâté en Croûte x \u0301y', base_price: 4 });
    expect(made.status).toBe(201);
    const id = made.body.data.id;
    const rows = async () => ({
      words: ((await t.db.query('SELECT position, tail FROM item_name_words WHERE item_id = ? ORDER BY position', [id])) as { tail: string }[]).map(
        (r) => r.tail,
      ),
      prefixes: ((await t.db.query('SELECT prefix FROM item_name_prefixes WHERE item_id = ?', [id])) as { prefix: string }[]).map((r) => r.prefix).sort(),
    });
    const live = await rows();
    expect(live.words).toEqual(['pate en croute x y', 'en croute x y', 'croute x y', 'x y', 'y']);
    // the rows as the code before the fold wrote them: lowercased only (a mark after a space started a word)
    const old = ['pâté en croûte x \u0301y', 'en croûte x \u0301y', 'croûte x \u0301y', 'x \u0301y', '\u0301y', 'y'];
    await t.db.query('DELETE FROM item_name_words WHERE item_id = ?', [id]);
    await t.db.query('DELETE FROM item_name_prefixes WHERE item_id = ?', [id]);
    for (const [position, tail] of old.entries())
      await t.db.query('INSERT INTO item_name_words (item_id, position, tail, name, is_active) VALUES (?, ?, ?, ?, ?)', [
        id,
        position,
        tail,
        made.body.data.name,
        1,
      ]);
    if (!t.isMysql) expect(await names('pate en c')).toEqual([]); // SQLite compares accents
    const runner = t.db.createQueryRunner();
    try {
      await new ItemNameFold1764900000000().up(runner);
    } finally {
      await runner.release();
    }
    expect(await rows()).toEqual(live);
    expect(await names('pate en c')).toEqual([made.body.data.name]);
  });

  it('finds a SKU with a capital outside ASCII by itself and in any ASCII case', async () => {
    const made = await api().post('/api/v1/items').set(bearer(manager)).send({ sku: 'ÉTÉ-77', name: 'Summer special', base_price: 3 });
    expect(made.status).toBe(201);
    // found by nothing before on SQLite (its lower() folds ASCII only, the term was folded fully)
    for (const q of ['ÉTÉ-77', 'ÉtÉ-77', 'ÉTÉ']) expect([q, await names(q)]).toEqual([q, ['Summer special']]);
  });

  it('pages the matches with their exact total, past the last page too', async () => {
    for (let k = 0; k < 5; k++)
      expect(
        (
          await api()
            .post('/api/v1/items')
            .set(bearer(manager))
            .send({ sku: `PG-${k}`, name: `Pagination Probe ${5 - k}`, base_price: 1 })
        ).status,
      ).toBe(201);
    const seen: string[] = [];
    for (let p = 1; p <= 4; p++) {
      const res = await api().get('/api/v1/items').query({ q: 'pagination pro', per_page: 2, page: p }).set(bearer(manager));
      expect(res.status).toBe(200);
      expect([p, res.body.meta.total, res.body.meta.last_page]).toEqual([p, 5, 3]);
      seen.push(...(res.body.data as { name: string }[]).map((i) => i.name));
    }
    expect(seen).toEqual([1, 2, 3, 4, 5].map((k) => `Pagination Probe ${k}`));
    // The SKU prefix and the word start of the same item count it once.
    const both = await api().get('/api/v1/items').query({ q: 'pg-1' }).set(bearer(manager));
    expect([both.body.meta.total, both.body.data.map((i: { sku: string }) => i.sku)]).toEqual([1, ['PG-1']]);
  });

  it('takes LIKE wildcards literally and answers odd or oversized terms without a 5xx', async () => {
    for (const q of ['%', '_', '\\', 'a%b', '%water']) expect([q, await names(q)]).toEqual([q, []]);
    for (const q of ['\u{10FFFF}', '😀 cola', "'; DROP TABLE items; --", 'x'.repeat(255), ' '.repeat(50)]) {
      const res = await api().get('/api/v1/items').query({ q }).set(bearer(manager));
      expect([q.slice(0, 20), res.status]).toEqual([q.slice(0, 20), 200]);
    }
    const huge = await api()
      .get('/api/v1/items')
      .query({ q: 'x'.repeat(256) })
      .set(bearer(manager));
    expect(huge.status).toBe(422);
    expect(huge.body.errors.q).toBeDefined();
    expect(await names('Still Water 500ml')).toEqual(['Still Water 500ml']);
  });

  it('is rebuilt from the items by catalog:reindex-names (after a raw import)', async () => {
    await t.db.query('DELETE FROM item_name_words');
    await t.db.query('DELETE FROM item_name_prefixes');
    expect(await names('water')).toEqual([]);
    expect(await names('sparkling water 5')).toEqual([]);
    const { ItemService } = await import('@pos/catalog');
    expect(await t.app.get(ItemService).rebuildNameIndex()).toBeGreaterThan(60);
    expect(await names('water')).toEqual(['Sparkling Water 500ml', 'Still Water 500ml']);
    expect(await names('sparkling water 5')).toEqual(['Sparkling Water 500ml']);
  });

  it('fills the prefix index in its migration as the item repository writes it', async () => {
    for (const [k, name] of ['Separated  Double  Space', 'Äpfel äpfel Ölmühle', `${'x'.repeat(40)} long`, 'a-b-c d.e.f 1/2'].entries())
      expect(
        (
          await api()
            .post('/api/v1/items')
            .set(bearer(manager))
            .send({ sku: `MIG-${k}`, name, base_price: 1 })
        ).status,
      ).toBe(201);
    const rows = async () =>
      ((await t.db.query('SELECT prefix, name, item_id, is_active FROM item_name_prefixes')) as Record<string, unknown>[])
        .map((r) => [r.prefix, r.name, Number(r.item_id), Number(r.is_active)].join('|'))
        .sort();
    const live = await rows();
    // none ends in a space (two of the name's prefixes would)
    expect(live.filter((r) => r.includes('|Separated  Double  Space|')).map((r) => r.split('|')[0])).toContain('separated  d');
    expect(live.filter((r) => r.split('|')[0].endsWith(' '))).toEqual([]);
    const runner = t.db.createQueryRunner();
    try {
      await new ItemNamePrefixes1764890000000().down(runner);
      await new ItemNamePrefixes1764890000000().up(runner);
    } finally {
      await runner.release();
    }
    expect(await rows()).toEqual(live);
  });

  it('reads indexes only: the word index for names, the SKU index, items by key', async () => {
    const seen: { sql: string; params: unknown[] }[] = [];
    const logger = t.db.logger;
    const original = logger.logQuery;
    logger.logQuery = function (this: unknown, query, parameters, runner) {
      if (/item_name_(words|prefixes)/.test(query) && !query.startsWith('EXPLAIN')) seen.push({ sql: query, params: parameters ?? [] });
      return original.call(logger, query, parameters, runner);
    };
    try {
      await names('water');
      await names('sparkling water 5');
      await api().get('/api/v1/pos/products/search').query({ q: 'wat', store_id: 1 }).set(bearer(manager)).expect(200);
    } finally {
      logger.logQuery = original;
    }
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.filter((s) => s.sql.includes('item_name_prefixes')).length).toBeGreaterThanOrEqual(1);
    for (const s of seen) {
      const plan = t.isMysql
        ? ((await t.db.query(`EXPLAIN ${s.sql}`, s.params)) as { table: string; type: string; key: string | null }[]).map(
            (r) => `${r.table}:${r.type}:${r.key}`,
          )
        : ((await t.db.query(`EXPLAIN QUERY PLAN ${s.sql}`, s.params)) as { detail: string }[]).map((r) => r.detail);
      const text = plan.join(' | ');
      // a short term: the prefix index's key (its primary key), in order; a longer one and the POS
      // search: the word index's range
      if (s.sql.includes('item_name_prefixes')) {
        expect(text).toMatch(t.isMysql ? /w:ref:PRIMARY/ : /SEARCH w USING (COVERING )?INDEX sqlite_autoindex_item_name_prefixes_1 \(prefix=\?\)/);
        if (t.isMysql) {
          const explained = (await t.db.query(`EXPLAIN ${s.sql}`, s.params)) as { table: string; Extra: string | null }[];
          expect(explained.filter((r) => r.table === 'w').map((r) => r.Extra ?? '')).not.toContainEqual(expect.stringMatching(/filesort/));
        } else {
          // SQLite sorts a branch with a temporary b-tree right after reading it: not this one
          const at = plan.findIndex((p) => /^SEARCH w .*item_name_prefixes/.test(p));
          expect(plan[at + 1]).not.toBe('USE TEMP B-TREE FOR ORDER BY');
        }
      } else expect(text).toMatch(/IDX_item_name_words_tail/);
      // no full read of a table (MySQL: type ALL on a real table; SQLite: SCAN of one); the details
      // subqueries of a first page (d*: keyed by item id) are checked on a larger table in item-references-raw
      const full = t.isMysql
        ? plan.filter((p) => (/^[a-z]\w*:ALL:/.test(p) && !/^d[bcu]:/.test(p)) || (p.startsWith('i:') && !p.startsWith('i:eq_ref:')))
        : plan.filter((p) => /^SCAN (i|w|s|b)\b/.test(p) || (/^SEARCH i\b/.test(p) && !p.includes('INTEGER PRIMARY KEY')));
      expect([s.sql.slice(0, 60), full]).toEqual([s.sql.slice(0, 60), []]);
    }
  });
});
