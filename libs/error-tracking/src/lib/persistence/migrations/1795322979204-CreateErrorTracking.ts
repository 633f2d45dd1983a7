import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateErrorTracking1795322979204 implements MigrationInterface {
  name = 'CreateErrorTracking1795322979204';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."client_keys" ("id" SERIAL NOT NULL, "project_id" integer NOT NULL, "public_key" text NOT NULL, "active" boolean NOT NULL DEFAULT true, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "client_keys_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "client_keys_public_key_key" ON "error_tracking"."client_keys" ("public_key") `,
    );
    await queryRunner.query(
      `CREATE INDEX "client_keys_project_id_idx" ON "error_tracking"."client_keys" ("project_id", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."discarded_events" ("project_id" integer NOT NULL, "day" date NOT NULL, "source" text NOT NULL, "reason" text NOT NULL, "category" text NOT NULL, "quantity" bigint NOT NULL, CONSTRAINT "discarded_events_pkey" PRIMARY KEY ("project_id", "day", "source", "reason", "category"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."error_facets" ("error_id" bigint NOT NULL, "kind" text NOT NULL, "value" text NOT NULL, "last_seen" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "error_facets_pkey" PRIMARY KEY ("error_id", "kind", "value"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."error_hourly_counts" ("error_id" bigint NOT NULL, "hour" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "count" integer NOT NULL, CONSTRAINT "error_hourly_counts_pkey" PRIMARY KEY ("error_id", "hour"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."error_users" ("project_id" integer NOT NULL, "fingerprint" uuid NOT NULL, "user_key" uuid NOT NULL, "last_seen" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "error_users_pkey" PRIMARY KEY ("project_id", "fingerprint", "user_key"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."errors" ("id" BIGSERIAL NOT NULL, "project_id" integer NOT NULL, "fingerprint" uuid NOT NULL, "grouping_version" smallint NOT NULL, "title" text NOT NULL, "type" text NOT NULL DEFAULT '', "message" text NOT NULL DEFAULT '', "culprit" text NOT NULL DEFAULT '', "platform" text, "level" text NOT NULL, "logger" text, "status" text NOT NULL DEFAULT 'unresolved', "count" bigint NOT NULL, "user_count" integer NOT NULL, "first_seen" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_seen" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "first_release" text, "last_release" text, "last_event_id" uuid NOT NULL, "regressed_at" TIMESTAMP(3) WITH TIME ZONE, "regression_flush" uuid, "issue_iid" integer, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "errors_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "errors_first_seen_idx" ON "error_tracking"."errors" ("first_seen") `,
    );
    await queryRunner.query(
      `CREATE INDEX "errors_list_count_idx" ON "error_tracking"."errors" ("project_id", "status", "count", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "errors_list_first_seen_idx" ON "error_tracking"."errors" ("project_id", "status", "first_seen", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "errors_list_last_seen_idx" ON "error_tracking"."errors" ("project_id", "status", "last_seen", "id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "errors_project_id_fingerprint_key" ON "error_tracking"."errors" ("project_id", "fingerprint") `,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."event_ids" ("project_id" integer NOT NULL, "event_id" uuid NOT NULL, "timestamp" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "received_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "event_ids_pkey" PRIMARY KEY ("project_id", "event_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "event_ids_timestamp_idx" ON "error_tracking"."event_ids" ("timestamp") `,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."issues" ("id" SERIAL NOT NULL, "project_id" integer NOT NULL, "iid" integer NOT NULL, "title" text NOT NULL, "description" text NOT NULL DEFAULT '', "state" text NOT NULL DEFAULT 'opened', "labels" text array NOT NULL DEFAULT '{}', "author_id" integer, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "updated_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "closed_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "issues_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "issues_project_id_iid_key" ON "error_tracking"."issues" ("project_id", "iid") `,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."maintenance_runs" ("job" text NOT NULL, "last_run_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "maintenance_runs_pkey" PRIMARY KEY ("job"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."personal_access_tokens" ("id" SERIAL NOT NULL, "user_id" integer NOT NULL, "name" text NOT NULL, "token_digest" text NOT NULL, "scopes" text array NOT NULL, "expires_at" date, "revoked" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_used_at" TIMESTAMP(3) WITH TIME ZONE, CONSTRAINT "personal_access_tokens_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "personal_access_tokens_token_digest_key" ON "error_tracking"."personal_access_tokens" ("token_digest") `,
    );
    await queryRunner.query(
      `CREATE INDEX "personal_access_tokens_user_id_idx" ON "error_tracking"."personal_access_tokens" ("user_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."project_members" ("project_id" integer NOT NULL, "user_id" integer NOT NULL, "access_level" smallint NOT NULL, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "project_members_pkey" PRIMARY KEY ("project_id", "user_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "project_members_user_id_idx" ON "error_tracking"."project_members" ("user_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."projects" ("id" SERIAL NOT NULL, "name" text NOT NULL, "path" text NOT NULL, "description" text NOT NULL DEFAULT '', "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "tracking_active" boolean NOT NULL DEFAULT false, "tracking_integrated" boolean NOT NULL DEFAULT true, "last_issue_iid" integer NOT NULL DEFAULT '0', CONSTRAINT "projects_pkey" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "projects_path_key" ON "error_tracking"."projects" ("path") `,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."rate_limit_windows" ("key_id" integer NOT NULL, "window_start" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "events" integer NOT NULL, CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("key_id", "window_start"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."release_session_buckets" ("project_id" integer NOT NULL, "release" text NOT NULL, "environment" text NOT NULL, "started" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "exited" integer NOT NULL DEFAULT '0', "errored" integer NOT NULL DEFAULT '0', "crashed" integer NOT NULL DEFAULT '0', "abnormal" integer NOT NULL DEFAULT '0', CONSTRAINT "release_session_buckets_pkey" PRIMARY KEY ("project_id", "release", "environment", "started"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."release_sessions" ("project_id" integer NOT NULL, "sid" text NOT NULL, "release" text NOT NULL, "environment" text NOT NULL, "started_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "last_seen" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "errored" boolean NOT NULL DEFAULT false, "crashed" boolean NOT NULL DEFAULT false, "abnormal" boolean NOT NULL DEFAULT false, CONSTRAINT "release_sessions_pkey" PRIMARY KEY ("project_id", "sid"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "release_sessions_last_seen_idx" ON "error_tracking"."release_sessions" ("last_seen") `,
    );
    await queryRunner.query(
      `CREATE INDEX "release_sessions_release_idx" ON "error_tracking"."release_sessions" ("project_id", "release", "environment") `,
    );
    await queryRunner.query(
      `CREATE TABLE "error_tracking"."users" ("id" SERIAL NOT NULL, "username" text NOT NULL, "name" text NOT NULL, "email" text NOT NULL, "is_admin" boolean NOT NULL DEFAULT false, "state" text NOT NULL DEFAULT 'active', "password_hash" text, "created_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "users_pkey" PRIMARY KEY ("id"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "error_tracking"."users"`);
    await queryRunner.query(
      `DROP INDEX "error_tracking"."release_sessions_release_idx"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."release_sessions_last_seen_idx"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."release_sessions"`);
    await queryRunner.query(
      `DROP TABLE "error_tracking"."release_session_buckets"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."rate_limit_windows"`);
    await queryRunner.query(`DROP INDEX "error_tracking"."projects_path_key"`);
    await queryRunner.query(`DROP TABLE "error_tracking"."projects"`);
    await queryRunner.query(
      `DROP INDEX "error_tracking"."project_members_user_id_idx"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."project_members"`);
    await queryRunner.query(
      `DROP INDEX "error_tracking"."personal_access_tokens_user_id_idx"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."personal_access_tokens_token_digest_key"`,
    );
    await queryRunner.query(
      `DROP TABLE "error_tracking"."personal_access_tokens"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."maintenance_runs"`);
    await queryRunner.query(
      `DROP INDEX "error_tracking"."issues_project_id_iid_key"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."issues"`);
    await queryRunner.query(
      `DROP INDEX "error_tracking"."event_ids_timestamp_idx"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."event_ids"`);
    await queryRunner.query(
      `DROP INDEX "error_tracking"."errors_project_id_fingerprint_key"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."errors_list_last_seen_idx"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."errors_list_first_seen_idx"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."errors_list_count_idx"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."errors_first_seen_idx"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."errors"`);
    await queryRunner.query(`DROP TABLE "error_tracking"."error_users"`);
    await queryRunner.query(
      `DROP TABLE "error_tracking"."error_hourly_counts"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."error_facets"`);
    await queryRunner.query(`DROP TABLE "error_tracking"."discarded_events"`);
    await queryRunner.query(
      `DROP INDEX "error_tracking"."client_keys_project_id_idx"`,
    );
    await queryRunner.query(
      `DROP INDEX "error_tracking"."client_keys_public_key_key"`,
    );
    await queryRunner.query(`DROP TABLE "error_tracking"."client_keys"`);
  }
}
