/**
 * Identity's published interface: who is calling (Principal and its checks), authentication and
 * tokens for the HTTP edge, API applications and user administration, and `ApproverService`
 * (verify a manager's credentials at a till). Repositories, hashers and entities stay inside.
 */
export * from './domain/permissions';
export * from './domain/principal';
export { IdentityModule } from './identity.module';
export { AuthService, DEFAULT_DEVICE_NAME } from './application/auth.service';
export type { LoginInput, LoginResult } from './application/auth.service';
export { TokenService, TouchTokenJob, hashToken } from './application/token.service';
export { ApiApplicationService } from './application/api-application.service';
export { UserAdminService } from './application/user-admin.service';
export {
  ApproverService,
  ApprovalAttemptsExhaustedError,
  APPROVER_MAX_FAILURES,
  APPROVAL_CASHIER_MAX_FAILURES,
  APPROVAL_ADDRESS_MAX_FAILURES,
  APPROVAL_WINDOW_MS,
} from './application/approver.service';
export type { Approver, ApproverCredentials } from './application/approver.service';
