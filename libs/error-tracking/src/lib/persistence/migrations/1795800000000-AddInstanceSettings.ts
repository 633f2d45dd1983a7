import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddInstanceSettings1795800000000 implements MigrationInterface {
  name = 'AddInstanceSettings1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."instance_settings" ("name" text NOT NULL, "value" text NOT NULL, CONSTRAINT "instance_settings_pkey" PRIMARY KEY ("name"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "error_tracking"."instance_settings"`);
  }
}
