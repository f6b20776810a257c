import { IdentityModule } from '@pos/identity';

/** Identity's use cases and the lists its HTTP DTOs validate against (the CLI applies the same ones). */
export { ABILITIES, ApiApplicationService, OPERATOR, PERMISSIONS, UserAdminService } from '@pos/identity';
export const IDENTITY_FEATURES = [IdentityModule];
