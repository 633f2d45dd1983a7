import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What TypeORM cannot express, written by hand:
 *
 * - `events`, range-partitioned by `received_at`. Partitions are one UTC day
 *   each, created on demand by the ingestion flush and dropped whole by
 *   retention. The primary key is also the only index: it serves an error's
 *   occurrences newest first and the latest event of an error. Every event's
 *   timestamp is at most 60 s after its `received_at` (normalisation clamps
 *   the future), so a partition whose day ended more than a minute before
 *   the retention cutoff holds only expired events.
 * - case-insensitive uniqueness of usernames and emails.
 */
export class CreateEventsPartitioned1795322979205 implements MigrationInterface {
  name = 'CreateEventsPartitioned1795322979205';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."events" ("error_id" bigint NOT NULL, "timestamp" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "event_id" uuid NOT NULL, "received_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "project_id" integer NOT NULL, "level" text NOT NULL, "release" text, "environment" text NOT NULL, "payload" jsonb NOT NULL, CONSTRAINT "events_pkey" PRIMARY KEY ("error_id", "timestamp", "event_id", "received_at")) PARTITION BY RANGE ("received_at")`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "users_username_lower_key" ON "error_tracking"."users" (lower("username"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "users_email_lower_key" ON "error_tracking"."users" (lower("email"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DROP INDEX "error_tracking"."users_email_lower_key"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."users_username_lower_key"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."events"`);
  }
}
