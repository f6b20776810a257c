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
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
    // The failover drill on a real cluster (scripts/cluster): `npm run test:drill`, skipped unless DRILL=1.
    { ...common, displayName: 'drill', testMatch: ['<rootDir>/test/drill/**/*.drill-spec.ts'] },
  ],
};
