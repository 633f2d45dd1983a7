import { ApiProperty } from '@nestjs/swagger';

import { dsnOf } from '../../http/base-url';
import type { ProjectRecord } from '../../projects/project.types';
import type { ClientKeyRecord } from '../client-keys.repository';

/** GitLab's `ProjectSetting` entity. */
export class SettingResponseDto {
  @ApiProperty() active!: boolean;
  @ApiProperty({ nullable: true, type: String, example: null }) project_name!:
    string | null;
  @ApiProperty({ nullable: true, type: String, example: null })
  sentry_external_url!: string | null;
  @ApiProperty({ nullable: true, type: String, example: null }) api_url!:
    string | null;
  @ApiProperty() integrated!: boolean;
}

/** GitLab's client key entity, exactly these four fields. */
export class ClientKeyResponseDto {
  @ApiProperty({ example: 7 }) id!: number;
  @ApiProperty() active!: boolean;
  @ApiProperty({ example: 'glet_aa77551d849c083f76d0bc545ed053a3' })
  public_key!: string;
  @ApiProperty({
    example:
      'https://glet_aa77551d849c083f76d0bc545ed053a3@quitanda.example.com/api/v4/error_tracking/collector/42',
  })
  sentry_dsn!: string;
}

export function toSettingResponse(project: ProjectRecord): SettingResponseDto {
  return {
    active: project.trackingActive,
    project_name: null,
    sentry_external_url: null,
    api_url: null,
    integrated: project.trackingIntegrated,
  };
}

export function toClientKeyResponse(
  key: ClientKeyRecord,
  baseUrl: string,
): ClientKeyResponseDto {
  return {
    id: key.id,
    active: key.active,
    public_key: key.publicKey,
    sentry_dsn: dsnOf(baseUrl, key.publicKey, key.projectId),
  };
}
