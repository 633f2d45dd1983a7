import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Business logic on External Flex services: the services of an app (their
 * shared and call-back secrets sealed, never in clear) and what runs on
 * them (custom endpoints, collection hooks, FlexData collections).
 */
export class CreateBusinessLogic1796000000000 implements MigrationInterface {
  name = 'CreateBusinessLogic1796000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "marketplace"."flex_services" ("app_key" text NOT NULL, "name" text NOT NULL, "url" text NOT NULL, "sealed_secret" text NOT NULL, "sealed_callback_key" text NOT NULL, "timeout_ms" integer NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "flex_services_pkey" PRIMARY KEY ("app_key", "name"))`,
    );
    // kind: endpoint (target = endpoint name), hook (target = collection,
    // hook = onPreSave ...), data (target = collection); '' where unused.
    await queryRunner.query(
      `CREATE TABLE "marketplace"."business_logic_bindings" ("app_key" text NOT NULL, "kind" text NOT NULL, "target" text NOT NULL, "hook" text NOT NULL, "service" text NOT NULL, "handler" text NOT NULL, CONSTRAINT "business_logic_bindings_pkey" PRIMARY KEY ("app_key", "kind", "target", "hook"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP TABLE "marketplace"."business_logic_bindings"`,
    );
    await queryRunner.query(`DROP TABLE "marketplace"."flex_services"`);
  }
}
