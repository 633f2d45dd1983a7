import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AddAlerts1795589959974 implements MigrationInterface {
  name = 'AddAlerts1795589959974';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."alert_deliveries" ("id" BIGSERIAL NOT NULL, "alert_id" bigint, "project_id" integer NOT NULL, "channel" text NOT NULL, "hook_id" integer, "user_id" integer, "event_uuid" uuid NOT NULL, "trigger" text NOT NULL, "status" text NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "next_attempt_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_error" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "alert_deliveries_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "alert_deliveries_alert_id_idx" ON "error_tracking"."alert_deliveries" ("alert_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "alert_deliveries_due_idx" ON "error_tracking"."alert_deliveries" ("next_attempt_at") WHERE status = 'pending'`,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."alert_email_opt_outs" ("project_id" integer NOT NULL, "user_id" integer NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "alert_email_opt_outs_pkey" PRIMARY KEY ("project_id", "user_id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."alerts" ("id" BIGSERIAL NOT NULL, "project_id" integer NOT NULL, "error_id" bigint NOT NULL, "trigger" text NOT NULL, "window_start" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "event_id" uuid NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "fanned_out_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "alerts_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "alerts_created_at_idx" ON "error_tracking"."alerts" ("created_at") `,
    );
    await queryRunner.query(
      `CREATE INDEX "alerts_pending_idx" ON "error_tracking"."alerts" ("id") WHERE fanned_out_at IS NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "alerts_error_id_trigger_window_start_key" ON "error_tracking"."alerts" ("error_id", "trigger", "window_start") `,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."webhook_attempts" ("id" BIGSERIAL NOT NULL, "hook_id" integer NOT NULL, "event_uuid" uuid NOT NULL, "trigger" text NOT NULL, "attempt" integer NOT NULL, "response_status" integer, "execution_duration" double precision NOT NULL, "error" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhook_attempts_hook_id_id_idx" ON "error_tracking"."webhook_attempts" ("hook_id", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."webhooks" ("id" SERIAL NOT NULL, "project_id" integer NOT NULL, "url" text NOT NULL, "token_ciphertext" text, "error_tracking_events" boolean NOT NULL DEFAULT true, "enable_ssl_verification" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "webhooks_project_id_idx" ON "error_tracking"."webhooks" ("project_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."errors" ADD "alert_window_start" TIMESTAMP(3) WITH TIME ZONE`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."errors" ADD "alert_window_events" integer NOT NULL DEFAULT '0'`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."projects" ADD "alert_frequent_threshold" integer`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."projects" ADD "alert_frequent_window_minutes" integer NOT NULL DEFAULT '60'`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."projects" DROP COLUMN "alert_frequent_window_minutes"`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."projects" DROP COLUMN "alert_frequent_threshold"`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."errors" DROP COLUMN "alert_window_events"`,
    );
    await queryRunner.query(
      `ALTER TABLE "error_tracking"."errors" DROP COLUMN "alert_window_start"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."webhooks_project_id_idx"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."webhooks"`);
    await queryRunner.query(
      `DROP INDEX "error_tracking"."webhook_attempts_hook_id_id_idx"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."webhook_attempts"`);
    await queryRunner.query(
      `DROP INDEX "error_tracking"."alerts_error_id_trigger_window_start_key"`,
    );
    await queryRunner.query(`DROP INDEX "error_tracking"."alerts_pending_idx"`);
    await queryRunner.query(
      `DROP INDEX "error_tracking"."alerts_created_at_idx"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."alerts"`);
    await queryRunner.query(
      `DROP TABLE "error_tracking"."alert_email_opt_outs"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."alert_deliveries_due_idx"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."alert_deliveries_alert_id_idx"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."alert_deliveries"`);
  }
}
