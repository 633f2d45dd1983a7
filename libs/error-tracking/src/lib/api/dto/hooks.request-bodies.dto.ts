import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { GitLabBody } from '../../http/gitlab-params';

/** `POST` and (every field optional) `PUT /projects/:id/hooks[/:hook_id]`. */
export const HOOK_BODY = new GitLabBody('HookBodyDto', {
  url: {
    type: 'string',
    required: true,
    max: 2_048,
    doc: {
      description:
        'http(s) URL; local addresses need ALERTS_ALLOW_LOCAL_TARGETS.',
    },
  },
  token: {
    type: 'string',
    max: 255,
    doc: { description: 'Secret sent as X-Gitlab-Token (write-only).' },
  },
  error_tracking_events: { type: 'boolean', doc: { default: true } },
  enable_ssl_verification: { type: 'boolean', doc: { default: true } },
});

/** OpenAPI only: `readAlertRules` reads it (`null`/`off` turn it off). */
export class AlertRulesBodyDto {
  @ApiProperty({
    nullable: true,
    type: Number,
    description: 'null turns `frequent` off.',
  })
  frequent_threshold!: number | null;
  @ApiPropertyOptional({ default: 60 }) frequent_window_minutes?: number;
}
