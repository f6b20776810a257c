import type { DataSource } from 'typeorm';
import type { JobQueue } from '../queue/job-definition';
import { Metrics } from './metrics';

/** A registry with nothing behind its scrape-time gauges (no queue, no database). */
function metrics(): Metrics {
  const queue = { counts: () => Promise.resolve([]) } as unknown as JobQueue;
  const db = { options: { type: 'sqlite' }, query: () => Promise.resolve([]) } as unknown as DataSource;
  return new Metrics(queue, db);
}

function sample(text: string, series: string): string | undefined {
  return text
    .split('\n')
    .find((line) => line.startsWith(`${series} `))
    ?.slice(series.length + 1);
}

describe('Metrics: sales amounts in integer minor units (issue 25 item 3)', () => {
  it('reads exactly 30 after three sales of 0.10, per currency, and publishes no float amount', async () => {
    const m = metrics();
    for (let i = 0; i < 3; i++) m.saleRecorded('online', 'USD', 10);
    m.saleRecorded('online', 'JPY', 1200);
    m.saleRecorded('offline', 'USD', 199);
    const text = await m.text();
    expect(sample(text, 'pos_checkout_amount_minor_total{mode="online",currency="USD"}')).toBe('30');
    expect(sample(text, 'pos_checkout_amount_minor_total{mode="online",currency="JPY"}')).toBe('1200');
    expect(sample(text, 'pos_checkout_amount_minor_total{mode="offline",currency="USD"}')).toBe('199');
    expect(sample(text, 'pos_checkouts_total{mode="online",currency="USD"}')).toBe('3');
    // The float counter in major units is gone (it read 0.30000000000000004 here).
    expect(text).not.toContain('pos_checkout_amount_total');
    for (const line of text.split('\n').filter((l) => l.startsWith('pos_checkout_amount_minor_total{'))) expect(line).toMatch(/ \d+$/);
  });

  it('never throws for an amount a counter cannot take (the sale is already committed)', () => {
    const m = metrics();
    expect(() => m.saleRecorded('online', 'USD', -5)).not.toThrow();
    expect(() => m.saleRecorded('online', 'USD', 0)).not.toThrow();
  });
});
