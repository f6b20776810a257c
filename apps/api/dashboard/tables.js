/*
 * The dashboard's tables: rows as people read them (format.js), newest first where a row has a
 * time, low-value columns that give way on narrow screens, and a visible cue on a table that is
 * still wider than its card (it scrolls inside the card, never the page). Plain browser
 * JavaScript (no build step); exposes window.PosTables.
 */
(() => {
  'use strict';

  const F = window.PosFormat;
  /** Time columns: a table with one lists its newest row first. */
  const TIME_COLUMN = /^(date|day)$|_at$/;

  const el = (tag, attrs = {}, text) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };

  /** Rows with a time column, newest first (ties: the later row of the answer first). */
  function newestFirst(rows) {
    const key = rows.length ? Object.keys(rows[0]).find((k) => TIME_COLUMN.test(k)) : undefined;
    if (!key) return rows;
    return rows
      .map((row, i) => ({ row, i }))
      .sort((a, b) => (String(b.row[key]) > String(a.row[key]) ? 1 : String(b.row[key]) < String(a.row[key]) ? -1 : b.i - a.i))
      .map((x) => x.row);
  }

  /** A cell's text: by the report's unit for the column (money in the row's currency), else by value. */
  function cell(row, key, unit) {
    const v = row[key];
    if (unit === 'money') return F.money(v, row.currency);
    if (unit === 'percent') return F.percent(v);
    if (typeof v === 'number') return F.number(v);
    return F.text(v);
  }

  /** `minor`: true gives way below 1100 px (tablets), 'phone' only on a phone (< 700 px). */
  const minorClass = (minor) => (minor === 'phone' ? 'phone-minor' : minor ? 'minor' : '');

  /**
   * A table of `rows` with `columns` [key, heading, minor?, long?]. `under` maps a column to one
   * whose value it also shows on a second line on a phone, where that column gives way (the
   * warehouse under the item, so two rows of one item stay told apart).
   */
  function table(rows, columns, units, { flag, code = [], under = {} } = {}) {
    if (!rows.length) return el('p', { class: 'empty' }, 'Nothing in this period.');
    const present = columns.filter(([key]) => rows.some((r) => r[key] !== undefined));
    const wrap = el('div', { class: 'table-wrap' });
    const t = el('table');
    const head = el('tr');
    for (const [key, heading, minor] of present) {
      const c = minorClass(minor);
      head.append(el('th', c ? { class: c } : {}, heading || F.words(key)));
    }
    t.append(head);
    for (const row of rows) {
      const tr = el('tr', flag && flag(row) ? { class: 'flag' } : {});
      for (const [key, , minor, long] of present) {
        const numeric = typeof row[key] === 'number' && key !== 'rank';
        const classes = [numeric ? 'num' : '', minorClass(minor), long ? 'long' : ''].filter(Boolean).join(' ');
        const td = el('td', classes ? { class: classes } : {});
        if (code.includes(key) && row[key]) td.append(el('code', {}, String(row[key])));
        else td.textContent = cell(row, key, units.get(key));
        if (under[key]) td.append(el('span', { class: 'phone-only under' }, cell(row, under[key], units.get(under[key]))));
        tr.append(td);
      }
      t.append(tr);
    }
    wrap.append(t);
    wrap.addEventListener('scroll', () => cue(wrap), { passive: true });
    return wrap;
  }

  /** Marks a table wrapper that has more columns to its right or left (a shadow on that edge). */
  function cue(wrap) {
    const left = wrap.scrollLeft;
    wrap.classList.toggle('more-right', left + wrap.clientWidth < wrap.scrollWidth - 1);
    wrap.classList.toggle('more-left', left > 1);
  }

  /** Sets every table's cue (after drawing and on a resize: the room changes, not the table). */
  const cueAll = () => document.querySelectorAll('.table-wrap').forEach(cue);

  window.PosTables = { table, newestFirst, cueAll };
})();
