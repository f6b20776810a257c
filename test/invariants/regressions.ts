import { Defect } from './known-defects';
import { Op, SaleOp } from './operations';

/**
 * Counterexamples the property found, shrunk by fast-check (INVARIANT_SHRINK=1 with
 * INVARIANT_FOCUS on the finding) and kept as fixed sequences: each runs with every check, so it
 * fails once its defect's KNOWN_DEFECTS entry is deleted and the service still does it.
 */
export interface Regression {
  defect: Defect;
  title: string;
  ops: Op[];
}

/** A cash sale (water by default). */
const water = (store: SaleOp['store'], actor: SaleOp['actor'], lines: SaleOp['lines'] = [{ item: 0, qty: 1 }]): SaleOp => ({
  kind: 'sale',
  store,
  actor,
  lines,
  customer: 'none',
  exempt: false,
  tender: 'cash_exact',
  part: 1,
  over: 1,
  replay: false,
});

export const REGRESSIONS: Regression[] = [
  {
    defect: 'returns-row-counts-return-once',
    title: 'returns report: a return of a resellable and a spoiled line counts in both rows',
    ops: [
      water('X', 'cashier', [
        { item: 0, qty: 1 },
        { item: 0, qty: 1 },
      ]),
      {
        kind: 'return',
        pick: 0,
        all: false,
        lines: [
          { pick: 3, share: 1, condition: 'resellable' },
          { pick: 0, share: 1, condition: 'spoiled' },
        ],
        flow: 'immediate',
      },
    ],
  },
  {
    defect: 'closeout-sessionless-cash',
    title: 'closeout: two cashiers’ offline cash sales without a drawer, each row with its own cash',
    ops: [
      { kind: 'offline_sale', store: 'I', actor: 'cashier', lines: [{ item: 0, qty: 1 }], tender: 'cash_exact', over: 1, secondsAgo: 120 },
      { kind: 'offline_sale', store: 'I', actor: 'manager', lines: [{ item: 0, qty: 1 }], tender: 'cash_exact', over: 1, secondsAgo: 120 },
    ],
  },
  {
    defect: 'closed-summary-recomputed',
    title: 'a closed session’s summary keeps the expected cash of its close when one of its sales is voided after it',
    ops: [water('X', 'manager'), { kind: 'session', store: 'X', actor: 'manager', action: 'close', delta: 0, reopen: 0 }, { kind: 'void', pick: 0 }],
  },
  {
    defect: 'overview-units-sold-counts-voids',
    title: 'inventory/overview: a sale voided sold no units',
    ops: [water('X', 'cashier'), { kind: 'void', pick: 0 }],
  },
  {
    defect: 'replenishment-rate-counts-voids',
    title: 'inventory/replenishment: 1 coffee sold and voided, then 5 sold from the back room (15 -> 10, its reorder level): 5 sold',
    ops: [water('J', 'cashier', [{ item: 3, qty: 1, back: true }]), { kind: 'void', pick: 0 }, water('J', 'cashier', [{ item: 3, qty: 5, back: true }])],
  },
  {
    defect: 'turns-days-of-inventory-from-rounded-turns',
    title: 'inventory/turns: 3 of 75 soaps sold over 2 days is 24 days of inventory, not 25',
    ops: [water('X', 'cashier', [{ item: 5, qty: 3 }])],
  },
];
