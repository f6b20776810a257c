/** Two projects: unit specs beside the code, e2e suites in test/ (HTTP through supertest). */
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.json');

const common = {
  rootDir: __dirname,
  moduleFileExtensions: ['js', 'json', 'ts'],
  // Transpile only (fast); `npm run typecheck` is the type gate.
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
  testEnvironment: 'node',
};

module.exports = {
  // A backstop against a hung suite, not a speed check: on MariaDB each e2e suite creates its own
  // database, migrates it and loads the demo data in beforeAll, which took 40-63 s on CI's busy
  // 2-core machine (one boot past 60 s failed a suite). Suites bound their own work.
  testTimeout: 180000,
  // The run's template database (test/support/sqlite-template.ts): made once, copied per suite.
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
    // The failover drill on a real cluster (scripts/cluster): `npm run test:drill`, skipped unless DRILL=1.
    { ...common, displayName: 'drill', testMatch: ['<rootDir>/test/drill/**/*.drill-spec.ts'] },
  ],
};
