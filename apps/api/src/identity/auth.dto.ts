import { ABILITIES, PERMISSIONS } from '@pos/identity';
import { OptionalInt, OptionalIntArray, OptionalString, RequiredString, RequiredStringArray } from '../http/validators';

export class LoginDto {
  @RequiredString({ max: 255, email: true, example: 'cashier@example.com' })
  email!: string;

  @RequiredString({ max: 1024, example: 'password', trim: false, raw: true })
  password!: string;

  @OptionalString({ max: 255, description: 'Device label for the token (default "Mobile POS")' })
  device_name?: string;

  @OptionalInt({ description: "Preferred store; must be one of the user's stores" })
  store_id?: number;

  @OptionalString({ max: 16, raw: true, description: 'TOTP code, when two-factor authentication is enabled' })
  two_factor_code?: string;
}

export class TwoFactorCodeDto {
  @RequiredString({ max: 16, example: '123456', raw: true })
  code!: string;
}

export class PasswordDto {
  @RequiredString({ max: 1024, trim: false, raw: true, description: 'The current password' })
  password!: string;
}

export class DisableTwoFactorDto {
  @RequiredString({ max: 1024, trim: false, raw: true })
  password!: string;

  @RequiredString({ max: 16, example: '123456', raw: true })
  code!: string;
}

export class CreateApiApplicationDto {
  @RequiredString({ max: 150, example: 'Accounting export' })
  name!: string;

  @RequiredStringArray({ in: PERMISSIONS, description: 'Permission names the application holds; only ones the creator holds (403 otherwise)' })
  permissions!: string[];

  @OptionalIntArray({
    description:
      "Stores the application may read; omitted or empty: all stores (from a creator limited to some stores: the creator's stores). Only stores the creator has (403 otherwise).",
  })
  store_ids?: number[];
}

export class IssueTokenDto {
  @RequiredString({ max: 255, example: 'reporting-server' })
  name!: string;

  @RequiredStringArray({ in: ABILITIES, maxItems: 10, description: 'e.g. ["integration:read"]; only abilities the issuing token carries (403 otherwise)' })
  abilities!: string[];

  @OptionalInt({ min: 1, max: 5_256_000, description: 'Lifetime in minutes (default APP_TOKEN_TTL_MINUTES: 365 days, or no expiry when that is 0)' })
  expires_in_minutes?: number;
}
