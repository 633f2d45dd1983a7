import { ApiProperty } from '@nestjs/swagger';

import type { UserRecord } from '../account.types';

export class UserResponseDto {
  @ApiProperty({ example: 1 }) id!: number;
  @ApiProperty({ example: 'root' }) username!: string;
  @ApiProperty({ example: 'Administrator' }) name!: string;
  @ApiProperty({ example: 'root@localhost' }) email!: string;
  @ApiProperty() is_admin!: boolean;
  @ApiProperty({ example: 'active' }) state!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ example: 'https://quitanda.example.com/root' })
  web_url!: string;
}

export function toUserResponse(
  user: UserRecord,
  baseUrl: string,
): UserResponseDto {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    email: user.email,
    is_admin: user.isAdmin,
    state: user.state,
    created_at: user.createdAt.toISOString(),
    web_url: `${baseUrl}/${encodeURIComponent(user.username)}`,
  };
}
