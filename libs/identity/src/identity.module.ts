import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiApplicationService } from './application/api-application.service';
import { ApproverService } from './application/approver.service';
import { AuthService } from './application/auth.service';
import { PasswordCheckGate } from './application/password-check.gate';
import { ApprovalAttemptRepository, PasswordHasher, StoreDirectory, TokenRepository, TwoFactorProvider, UserRepository } from './application/ports';
import { TokenService } from './application/token.service';
import { UserAdminService } from './application/user-admin.service';
import { TypeOrmApprovalAttemptRepository } from './infrastructure/approval-attempt.repository';
import { Argon2PasswordHasher } from './infrastructure/argon2.hasher';
import { IDENTITY_ENTITIES } from './infrastructure/identity.entities';
import { TypeOrmTokenRepository } from './infrastructure/token.repository';
import { TotpTwoFactorProvider } from './infrastructure/totp.provider';
import { TypeOrmUserRepository } from './infrastructure/user.repository';
import { SqlStoreDirectory } from './infrastructure/sql-store.directory';

/** Users, roles, permissions, tokens, 2FA and API applications. */
@Module({
  imports: [TypeOrmModule.forFeature(IDENTITY_ENTITIES)],
  providers: [
    AuthService,
    ApproverService,
    PasswordCheckGate,
    TokenService,
    ApiApplicationService,
    UserAdminService,
    { provide: UserRepository, useClass: TypeOrmUserRepository },
    { provide: TokenRepository, useClass: TypeOrmTokenRepository },
    { provide: ApprovalAttemptRepository, useClass: TypeOrmApprovalAttemptRepository },
    { provide: PasswordHasher, useClass: Argon2PasswordHasher },
    { provide: TwoFactorProvider, useClass: TotpTwoFactorProvider },
    { provide: StoreDirectory, useClass: SqlStoreDirectory },
  ],
  exports: [AuthService, ApproverService, TokenService, ApiApplicationService, UserAdminService],
})
export class IdentityModule {}
