/**
 * The dependency rule of ARCHITECTURE.md, checked in CI (`npm run lint:deps`):
 * - domain code imports no framework (Nest, TypeORM, Express, BullMQ, ioredis) and no
 *   application/infrastructure code;
 * - application code does not import infrastructure of another context, nor apps;
 * - libs never import apps; no circular imports;
 * - contexts (and apps) reach a context only through its index.ts (its published interface).
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      severity: 'error',
      from: { path: '^libs/[^/]+/src/domain/' },
      to: { path: ['node_modules/(@nestjs|typeorm|express|bullmq|ioredis|mysql2|better-sqlite3)', '^libs/[^/]+/src/(application|infrastructure)/', '^apps/'] },
    },
    {
      name: 'kernel-is-pure',
      severity: 'error',
      from: { path: '^libs/kernel/' },
      to: { path: ['node_modules/(@nestjs|typeorm|express|bullmq|ioredis)', '^libs/(?!kernel/)', '^apps/'] },
    },
    {
      name: 'libs-do-not-import-apps',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^apps/' },
    },
    {
      name: 'apps-do-not-import-each-other',
      severity: 'error',
      from: { path: '^apps/([^/]+)/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
    {
      name: 'application-does-not-import-infrastructure',
      comment: 'Use cases depend on ports; infrastructure implements them (type-only imports the other way are fine).',
      severity: 'error',
      from: { path: '^libs/[^/]+/src/application/' },
      to: { path: '^libs/[^/]+/src/infrastructure/' },
    },
    {
      name: 'no-foreign-infrastructure',
      comment: 'A context reaches another only through its public index (application services), never its infrastructure.',
      severity: 'error',
      from: { path: '^libs/([^/]+)/src/(domain|application)/' },
      to: { path: '^libs/([^/]+)/src/infrastructure/', pathNot: '^libs/$1/' },
    },
    {
      name: 'contexts-meet-at-their-index',
      comment:
        'A context uses another only through what its index.ts publishes (use cases, records, events): never its repositories, entities, ports or infrastructure. kernel and platform are the shared kernel.',
      severity: 'error',
      from: { path: '^libs/([^/]+)/src/' },
      to: { path: '^libs/[^/]+/src/', pathNot: ['^libs/$1/src/', '^libs/(kernel|platform)/src/', '^libs/[^/]+/src/index\\.ts$'] },
    },
    {
      name: 'apps-use-published-interfaces',
      comment: 'The HTTP edge, the worker and the CLI compose contexts through their index.ts only.',
      severity: 'error',
      from: { path: '^apps/' },
      to: { path: '^libs/[^/]+/src/', pathNot: ['^libs/[^/]+/src/index\\.ts$', '^libs/(kernel|platform)/src/'] },
    },
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: ['\\.spec\\.ts$', 'dist/'] },
  },
};
