import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddEventAttachments1795943196317 implements MigrationInterface {
  name = 'AddEventAttachments1795943196317';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."event_attachment_chunks" ("attachment_id" bigint NOT NULL, "seq" integer NOT NULL, "data" bytea NOT NULL, CONSTRAINT "event_attachment_chunks_pkey" PRIMARY KEY ("attachment_id", "seq"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."event_attachments" ("id" BIGSERIAL NOT NULL, "project_id" integer NOT NULL, "event_id" uuid, "filename" text NOT NULL, "content_type" text, "size" integer NOT NULL, "received_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "event_attachments_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "event_attachments_received_at_idx" ON "error_tracking"."event_attachments" ("received_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "event_attachments_event_idx" ON "error_tracking"."event_attachments" ("project_id", "event_id") `,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP INDEX "error_tracking"."event_attachments_event_idx"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."event_attachments_received_at_idx"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."event_attachments"`);
    await queryRunner.query(
      `DROP TABLE "error_tracking"."event_attachment_chunks"`,
    );
  }
}
