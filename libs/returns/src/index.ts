/**
 * The returns context's published interface (being built: see issue 9). For now, the domain
 * facts other contexts (report rollups) subscribe to.
 */
export * from './application/return.facts';
