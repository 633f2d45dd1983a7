import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddDrainedSpoolRequests1795900000000 implements MigrationInterface {
  name = 'AddDrainedSpoolRequests1795900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."drained_spool_requests" ("spool_id" uuid NOT NULL, "request_id" bigint NOT NULL, "drained_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "drained_spool_requests_pkey" PRIMARY KEY ("spool_id", "request_id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP TABLE "error_tracking"."drained_spool_requests"`,
    );
  }
}
