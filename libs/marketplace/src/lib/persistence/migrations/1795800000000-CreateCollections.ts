import type { MigrationInterface, QueryRunner } from 'typeorm';

import { PRODUCE_DEFINITION } from '../../collections/produce-definition';

/**
 * Collections become data: each app declares its own. Every app that
 * exists already hosted the produce app's four collections, so each gets
 * them declared with the produce definition, and keeps working unchanged.
 */
export class CreateCollections1795800000000 implements MigrationInterface {
  name = 'CreateCollections1795800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "marketplace"."collections" ("app_key" text NOT NULL, "name" text NOT NULL, "settings" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "collections_pkey" PRIMARY KEY ("app_key", "name"))`,
    );
    await queryRunner.query(
      `ALTER TABLE "marketplace"."apps" ADD "create_collections_on_write" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `INSERT INTO "marketplace"."collections" (app_key, name, settings, created_at, updated_at)
       SELECT a.app_key, d.key, d.value, now(), now()
         FROM "marketplace"."apps" a, jsonb_each($1::jsonb) d`,
      [JSON.stringify(PRODUCE_DEFINITION)],
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "marketplace"."apps" DROP COLUMN "create_collections_on_write"`,
    );
    await queryRunner.query(`DROP TABLE "marketplace"."collections"`);
  }
}
