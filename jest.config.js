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
  // The one wall-clock limit: a backstop against a hung test, never a speed check. Suites bound their
  // work (counts of runs and requests) and set no timeouts of their own; 10 minutes leaves a busy
  // 2-core machine room (a MariaDB suite's boot took 63 s on CI, the volume seed's far longer).
  testTimeout: 600000,
  // One worker per core (jest's default leaves one idle: a single worker on 2 cores). The e2e suites
  // spend much of their time waiting on sockets and settle windows, so a second one pays.
  maxWorkers: '100%',
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
