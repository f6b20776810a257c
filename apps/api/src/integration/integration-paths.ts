/** The partner data routes, also under the /integrations/ alias (contract 4.9, 9). */
export const INTEGRATION_DATA_PATHS = ['integration/data', 'integrations/data'];
