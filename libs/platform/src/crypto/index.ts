export * from './secret-sealer';
