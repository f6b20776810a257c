import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * idempotency_keys.idem_key from 128 to 255 characters: the `Idempotency-Key` header (issue 26)
 * takes keys of 1-255 printable ASCII characters, as the IETF draft and Stripe allow. MariaDB
 * keeps the unique index (255 x 4 bytes fits InnoDB's 3072-byte key limit); SQLite does not
 * enforce a varchar's length, so nothing changes there.
 */
export class IdempotencyKeyLength1764830000000 implements MigrationInterface {
  name = 'IdempotencyKeyLength1764830000000';

  async up(q: QueryRunner): Promise<void> {
    if (q.connection.options.type === 'mysql') await q.query('ALTER TABLE idempotency_keys MODIFY idem_key varchar(255) NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    // Fails (strict mode) while a longer key exists, rather than truncating keys into collisions.
    if (q.connection.options.type === 'mysql') await q.query('ALTER TABLE idempotency_keys MODIFY idem_key varchar(128) NOT NULL');
  }
}
