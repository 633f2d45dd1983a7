import { ApiProperty } from '@nestjs/swagger';

import type { WebhookAttemptRecord, WebhookRecord } from '../alert.types';

/** GitLab's project hook entity (every `*_events` flag), plus `error_tracking_events`. */
export class HookResponseDto {
  @ApiProperty() id!: number;
  @ApiProperty() url!: string;
  @ApiProperty() project_id!: number;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty() enable_ssl_verification!: boolean;
  @ApiProperty({
    description: 'Error-tracking alerts (new, regression, frequent).',
  })
  error_tracking_events!: boolean;
  @ApiProperty() push_events!: boolean;
  @ApiProperty({ nullable: true, type: String }) push_events_branch_filter!:
    string | null;
  @ApiProperty() issues_events!: boolean;
  @ApiProperty() confidential_issues_events!: boolean;
  @ApiProperty() merge_requests_events!: boolean;
  @ApiProperty() tag_push_events!: boolean;
  @ApiProperty() note_events!: boolean;
  @ApiProperty() confidential_note_events!: boolean;
  @ApiProperty() job_events!: boolean;
  @ApiProperty() pipeline_events!: boolean;
  @ApiProperty() wiki_page_events!: boolean;
  @ApiProperty() deployment_events!: boolean;
  @ApiProperty() releases_events!: boolean;
  @ApiProperty() repository_update_events!: boolean;
  @ApiProperty({ example: 'executable' }) alert_status!: string;
  @ApiProperty({ nullable: true, type: String }) disabled_until!: string | null;
  @ApiProperty({ type: [Object] }) url_variables!: unknown[];
}

export function toHookResponse(hook: WebhookRecord): HookResponseDto {
  return {
    id: hook.id,
    url: hook.url,
    project_id: hook.projectId,
    created_at: hook.createdAt.toISOString(),
    enable_ssl_verification: hook.enableSslVerification,
    error_tracking_events: hook.errorTrackingEvents,
    // Quitanda has no repositories: GitLab's other triggers never fire.
    push_events: false,
    push_events_branch_filter: null,
    issues_events: false,
    confidential_issues_events: false,
    merge_requests_events: false,
    tag_push_events: false,
    note_events: false,
    confidential_note_events: false,
    job_events: false,
    pipeline_events: false,
    wiki_page_events: false,
    deployment_events: false,
    releases_events: false,
    repository_update_events: false,
    alert_status: 'executable',
    disabled_until: null,
    url_variables: [],
  };
}

/** One entry of a hook's delivery log. */
export class HookEventResponseDto {
  @ApiProperty() id!: number;
  @ApiProperty({ description: 'X-Gitlab-Event-UUID: the same on every retry.' })
  event_uuid!: string;
  @ApiProperty({ enum: ['new', 'regression', 'frequent', 'test'] })
  trigger!: string;
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'HTTP status; null when none came back.',
  })
  response_status!: number | null;
  @ApiProperty({ description: 'Seconds.' }) execution_duration!: number;
  @ApiProperty({ description: 'From 1.' }) attempt!: number;
  @ApiProperty({ nullable: true, type: String }) error!: string | null;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export function toHookEventResponse(
  attempt: WebhookAttemptRecord,
): HookEventResponseDto {
  return {
    id: Number(attempt.id),
    event_uuid: attempt.eventUuid,
    trigger: attempt.trigger,
    response_status: attempt.responseStatus,
    execution_duration: Math.round(attempt.executionDuration * 1000) / 1000,
    attempt: attempt.attempt,
    error: attempt.error,
    created_at: attempt.createdAt.toISOString(),
  };
}

export class AlertRulesResponseDto {
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'Events within the window that fire `frequent`; null = off.',
  })
  frequent_threshold!: number | null;
  @ApiProperty({ example: 60 }) frequent_window_minutes!: number;
}
