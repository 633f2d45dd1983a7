import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiPublic } from '@quitanda/http';

import { buildInfo } from './build-info';
import type { BuildInfo } from './build-info';

@ApiTags('operations')
@ApiPublic()
@Controller('version')
export class VersionController {
  @Get()
  @ApiOperation({
    summary: 'The running version and the commit it was built from',
  })
  @ApiOkResponse({
    schema: {
      type: 'object',
      required: ['version', 'commit'],
      properties: {
        version: { type: 'string', example: '0.1.0' },
        commit: {
          type: 'string',
          description: 'git commit, or `unknown`',
          example: '78844d7c0ffee0000000000000000000000000000',
        },
      },
    },
  })
  version(): BuildInfo {
    return buildInfo();
  }
}
