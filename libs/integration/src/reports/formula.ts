import type { MetricKey } from '../domain/metrics';
import type { ReportScope } from '../application/report-scope';

/** A row of measure sums as a formula reads it. */
export type Sums<M extends string> = Readonly<Record<M, number>>;

export interface FormulaContext<M extends string> {
  scope: ReportScope;
  currency: string;
  /** The currency's totals (for shares of a total). */
  total: Sums<M>;
  /** The currency's grouped rows (for figures over groups: how many cashiers, net cash by method type). */
  groups: readonly (Sums<M> & Readonly<Record<string, number | string>>)[];
  /** The values of a template figure's `{x}` (`{source}_share`: the source). */
  vars?: Readonly<Record<string, string>>;
}

/**
 * A figure computed from a rollup row's measure sums, in minor units for money (the renderer
 * converts by the catalogue's unit). The measures it needs are found by reading it once with a
 * recording row: a formula reads every measure it needs on every call (no measure only inside
 * a branch); one that reads the context's groups lists its measures in `of`.
 */
export type Formula<M extends string> =
  ((r: Sums<M>, x: FormulaContext<M>) => number | null) | { of: readonly M[]; value: (r: Sums<M>, x: FormulaContext<M>) => number | null };

/** The formulas of the figures one rollup table can give, each keyed by its catalogue key. */
export type FigureSet<M extends string> = { readonly [K in MetricKey]?: Formula<M> };

const traced = new WeakMap<object, readonly string[]>();

/** The measures a formula reads. */
export function measuresOf<M extends string>(f: Formula<M>): readonly M[] {
  if (typeof f !== 'function') return f.of;
  const hit = traced.get(f);
  if (hit) return hit as readonly M[];
  const read = new Set<string>();
  const recorder = new Proxy({}, { get: (_t, key) => (typeof key === 'string' && read.add(key), 1) }) as Sums<M>;
  f(recorder, { scope: { period: { days: 1 } } as ReportScope, currency: '', total: recorder, groups: [] });
  const out = [...read];
  traced.set(f, out);
  return out as M[];
}

export function evaluate<M extends string>(f: Formula<M>, r: Sums<M>, x: FormulaContext<M>): number | null {
  return typeof f === 'function' ? f(r, x) : f.value(r, x);
}
