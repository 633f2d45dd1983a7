import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What kinvey-cli applies of business logic: External Flex services and
 * their environments (secrets sealed), custom endpoints and collection
 * hooks mapped to a service environment and handler.
 */
export class CreateManagedBusinessLogic1795943838083 implements MigrationInterface {
  name = 'CreateManagedBusinessLogic1795943838083';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "marketplace"."managed_collection_hooks" ("app_key" text NOT NULL, "collection" text NOT NULL, "hook" text NOT NULL, "service_environment_id" text NOT NULL, "handler_name" text NOT NULL, CONSTRAINT "managed_collection_hooks_pkey" PRIMARY KEY ("app_key", "collection", "hook"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."managed_endpoints" ("app_key" text NOT NULL, "name" text NOT NULL, "service_environment_id" text NOT NULL, "handler_name" text NOT NULL, CONSTRAINT "managed_endpoints_pkey" PRIMARY KEY ("app_key", "name"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."managed_service_environments" ("id" text NOT NULL, "service_id" text NOT NULL, "name" text NOT NULL, "host" text NOT NULL, "sealed_secret" text NOT NULL, "description" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "managed_service_environments_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "managed_service_environments_service_id_idx" ON "marketplace"."managed_service_environments" ("service_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "marketplace"."managed_services" ("id" text NOT NULL, "name" text NOT NULL, "description" text, "managed_app_id" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "managed_services_pkey" PRIMARY KEY ("id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "marketplace"."managed_services"`);
    await queryRunner.query(
      `DROP INDEX "marketplace"."managed_service_environments_service_id_idx"`,
    );
    await queryRunner.query(
      `DROP TABLE "marketplace"."managed_service_environments"`,
    );
    await queryRunner.query(`DROP TABLE "marketplace"."managed_endpoints"`);
    await queryRunner.query(
      `DROP TABLE "marketplace"."managed_collection_hooks"`,
    );
  }
}
