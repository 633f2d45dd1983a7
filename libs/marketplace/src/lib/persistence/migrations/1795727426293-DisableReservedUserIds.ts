import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users whose `_id` is an app key, or shaped like one, stand for the app:
 * it is the `_acl.creator` of every app and master write. Signups and
 * imports refuse such ids now; one stored before is disabled and its
 * sessions revoked, so it never acts as the creator of the app's data.
 */
export class DisableReservedUserIds1795727426293 implements MigrationInterface {
  name = 'DisableReservedUserIds1795727426293';

  async up(queryRunner: QueryRunner): Promise<void> {
    // `isReservedUserId` in auth/principal.ts, as SQL.
    await queryRunner.query(
      `UPDATE "marketplace"."users" SET disabled = true
        WHERE id = app_key OR starts_with(id, 'kid_')`,
    );
    await queryRunner.query(
      `UPDATE "marketplace"."user_tokens" SET revoked = true
        WHERE user_id = app_key OR starts_with(user_id, 'kid_')`,
    );
  }

  async down(): Promise<void> {
    // Nothing to undo: re-enabling such a user would reopen the hole.
  }
}
