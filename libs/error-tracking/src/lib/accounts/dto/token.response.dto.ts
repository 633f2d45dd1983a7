import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { isExpired } from '../account.types';
import type { TokenRecord } from '../account.types';

export class TokenResponseDto {
  @ApiProperty() id!: number;
  @ApiProperty() name!: string;
  @ApiProperty() revoked!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ enum: ['api', 'read_api'], isArray: true }) scopes!: string[];
  @ApiProperty() user_id!: number;
  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  last_used_at!: string | null;
  @ApiProperty({ description: 'Not revoked and not expired.' })
  active!: boolean;
  @ApiProperty({ format: 'date', nullable: true, type: String }) expires_at!:
    string | null;
}

export class NewTokenResponseDto extends TokenResponseDto {
  @ApiPropertyOptional({
    description: 'The secret, shown only in this response.',
    example: 'glpat-...',
  })
  token!: string;
}

export function toTokenResponse(
  token: TokenRecord,
  now: Date,
): TokenResponseDto {
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked,
    created_at: token.createdAt.toISOString(),
    scopes: token.scopes,
    user_id: token.userId,
    last_used_at: token.lastUsedAt?.toISOString() ?? null,
    active: !token.revoked && !isExpired(token, now),
    expires_at: token.expiresAt,
  };
}
