/**
 * Permission names (contract part 5 + decisions.md). Roles are sets of these; API application
 * users hold them directly.
 */
export const PERMISSIONS = [
  // POS and back office
  'pos.access',
  'sales.create',
  'sales.view',
  'sales.void',
  'sales.review',
  'customers.view',
  'customers.manage',
  'returns.create',
  'returns.view',
  'returns.approve',
  'returns.process',
  'sessions.manage',
  'sessions.supervise',
  'discounts.approve',
  'pricing.manage',
  'catalog.manage',
  'items.view',
  'stores.view',
  'warehouses.view',
  'inventory.view',
  'inventory.adjust',
  'invoices.view',
  'invoices.manage',
  'webhooks.manage',
  'api_applications.manage',
  'users.manage',
  'audit.view',
  // reports
  'reports.view',
  'reports.sales',
  'reports.profit',
  'reports.inventory',
  'reports.customers',
  'reports.payments',
  'reports.stores',
  'reports.tax',
  'inventory.reports',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: string): value is Permission {
  return (PERMISSIONS as readonly string[]).includes(value);
}

/** Token abilities. A login token gets '*'; integration tokens get 'integration:read'. */
export const ABILITIES = ['*', 'pos', 'integration:read'] as const;
export type Ability = (typeof ABILITIES)[number];

/** The ability a route needs unless it says otherwise: staff/POS routes. */
export const DEFAULT_ROUTE_ABILITY: Ability = 'pos';

export function tokenHasAbility(abilities: readonly string[], needed: string): boolean {
  return abilities.includes('*') || abilities.includes(needed);
}

const CASHIER: Permission[] = [
  'pos.access',
  'sales.create',
  'sales.view',
  'customers.view',
  'customers.manage',
  'returns.create',
  'returns.view',
  'sessions.manage',
  'items.view',
  'stores.view',
  'warehouses.view',
  'inventory.view',
  'invoices.view',
];

const MANAGER: Permission[] = [
  ...CASHIER,
  'sales.void',
  'sales.review',
  'returns.approve',
  'returns.process',
  'sessions.supervise',
  'discounts.approve',
  'pricing.manage',
  'catalog.manage',
  'inventory.adjust',
  'invoices.manage',
  'reports.view',
  'reports.sales',
  'reports.profit',
  'reports.inventory',
  'reports.customers',
  'reports.payments',
  'reports.stores',
  'reports.tax',
  'inventory.reports',
];

/** Seeded roles; discount limits in basis points and minor units. */
export const DEFAULT_ROLES = [
  { slug: 'admin', name: 'Administrator', isSuperAdmin: true, permissions: [...PERMISSIONS], maxDiscountPercentBp: 10000, maxDiscountAmount: 100_000_00 },
  { slug: 'manager', name: 'Store Manager', isSuperAdmin: false, permissions: MANAGER, maxDiscountPercentBp: 5000, maxDiscountAmount: 500_00 },
  { slug: 'cashier', name: 'Cashier', isSuperAdmin: false, permissions: CASHIER, maxDiscountPercentBp: 1000, maxDiscountAmount: 20_00 },
] as const;
