import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The External Flex services kinvey-cli manages and their environments
 * (secrets sealed). What apps bind to them (endpoints, hooks) is kept with
 * the rest of an app's business logic (`flex_services`, bindings).
 */
export class CreateManagedBusinessLogic1795943838083 implements MigrationInterface {
  name = 'CreateManagedBusinessLogic1795943838083';

  async up(queryRunner: QueryRunner): Promise<void> {
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
  }
}
