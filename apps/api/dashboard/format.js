/*
 * How the dashboard writes values for people, in the viewer's own locale: money in the currency
 * the data carries with that currency's decimals (from GET /currencies; never a default scale),
 * percentages, dates and times in the viewer's time zone, enum and snake_case values as words, and
 * one name for a chart series. Plain browser JavaScript (no build step); exposes window.PosFormat.
 */
(() => {
  'use strict';

  /** Currency code -> decimals, from GET /currencies (Intl's ISO 4217 digits for a code not listed). */
  const decimals = new Map();
  const cache = new Map();
  const numberFormat = (key, options) => {
    if (!cache.has(key)) cache.set(key, new Intl.NumberFormat(undefined, options));
    return cache.get(key);
  };
  const missing = (v) => v === null || v === undefined || v === '' || Number.isNaN(Number(v));

  const number = (value) => (missing(value) ? '–' : numberFormat('n', { maximumFractionDigits: 2 }).format(Number(value)));

  /** Money in its own currency; a value without one is shown as it is (no rounding to a guessed scale). */
  const money = (value, currency) => {
    if (missing(value)) return '–';
    if (!currency) return numberFormat('raw', { maximumFractionDigits: 20 }).format(Number(value));
    const d = decimals.get(currency);
    const options = { style: 'currency', currency };
    if (d !== undefined) Object.assign(options, { minimumFractionDigits: d, maximumFractionDigits: d });
    return numberFormat(`m:${currency}:${d}`, options).format(Number(value));
  };

  const percent = (value) => (missing(value) ? '–' : `${number(value)} %`);

  const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
  const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
  const dateTimeFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
  // A business day is a calendar date, not an instant: written as is, whatever the viewer's zone.
  const dateFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const shortDateFormat = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });
  const calendarDay = (text) => {
    const m = ISO_DATE.exec(text);
    return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  };

  /** An ISO instant in the viewer's zone ("26 Nov 2026, 14:05" in en-GB). */
  const dateTime = (text) => {
    const d = new Date(text);
    return Number.isNaN(d.getTime()) ? String(text) : dateTimeFormat.format(d);
  };
  /** A YYYY-MM-DD business day ("26 Nov 2026"), or short ("26 Nov") on a chart axis. */
  const date = (text, short = false) => {
    const d = calendarDay(text);
    return d ? (short ? shortDateFormat : dateFormat).format(d) : String(text);
  };

  /** An enum or snake_case value as words: cash_drop -> "Cash drop", closed -> "Closed". */
  const IDENTIFIER = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
  const words = (text) => {
    const s = String(text);
    if (!IDENTIFIER.test(s)) return s;
    const spaced = s.replace(/_/g, ' ');
    return spaced.charAt(0).toUpperCase() + spaced.slice(1);
  };

  /** Any text value of a table or a chart category: times, days and enums made readable. */
  const text = (value) => {
    if (value === null || value === undefined || value === '') return '–';
    const s = String(value);
    if (ISO_TIME.test(s)) return dateTime(s);
    if (ISO_DATE.test(s)) return date(s);
    return words(s);
  };

  /**
   * The one name of a chart series: its name as words with its currency once, "Cash (USD)" from
   * {name: 'cash (USD)' | 'cash', currency: 'USD'}, just "USD" when the name is the currency.
   */
  const seriesName = (series) => {
    const currency = series.currency;
    let name = String(series.name ?? '');
    if (currency) name = name.replace(new RegExp(`\\s*\\(${currency}\\)$`), '');
    if (!currency || name === currency) return words(name);
    return name ? `${words(name)} (${currency})` : currency;
  };

  /** Reads GET /currencies' decimals (called once after sign-in). */
  const useCurrencies = (list) => {
    for (const c of list || []) if (c && c.code && Number.isInteger(c.decimals)) decimals.set(c.code, c.decimals);
    cache.clear();
  };

  window.PosFormat = { number, money, percent, dateTime, date, words, text, seriesName, useCurrencies, ISO_DATE };
})();
