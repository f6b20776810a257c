import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A cashier session became its user's own: reading or acting on another user's session needs
 * `sessions.supervise`. The seeded manager and admin roles are granted it here, so a database
 * seeded before keeps managers able to check and close their staff's tills (a fresh database
 * has no roles yet; its seed grants it). A role that already holds it is left as it is.
 */
export class SessionsSupervisePermission1764210000000 implements MigrationInterface {
  name = 'SessionsSupervisePermission1764210000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      "INSERT INTO role_permissions (role_id, permission) SELECT r.id, 'sessions.supervise' FROM roles r WHERE r.slug IN ('manager', 'admin') " +
        "AND NOT EXISTS (SELECT 1 FROM role_permissions p WHERE p.role_id = r.id AND p.permission = 'sessions.supervise')",
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query("DELETE FROM role_permissions WHERE permission = 'sessions.supervise'");
  }
}
