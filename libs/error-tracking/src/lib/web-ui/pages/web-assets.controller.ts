import { Get, Res } from '@nestjs/common';
import { endWithBody } from '@quitanda/http';
import type { Response } from 'express';

import { WEB_ASSETS } from '../toolkit/web-assets';
import { WebController } from '../toolkit/web-controller.decorator';
import { WEB_SECURITY_HEADERS } from '../toolkit/web-paths';

function send(res: Response, type: string, body: Buffer): void {
  for (const [name, value] of Object.entries(WEB_SECURITY_HEADERS))
    res.setHeader(name, value);
  res.setHeader('Content-Type', type);
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  endWithBody(res, body);
}

@WebController('assets')
export class WebAssetsController {
  @Get('ui.css')
  css(@Res() res: Response): void {
    send(res, 'text/css; charset=utf-8', WEB_ASSETS.css.body);
  }

  @Get('ui.js')
  js(@Res() res: Response): void {
    send(res, 'text/javascript; charset=utf-8', WEB_ASSETS.js.body);
  }
}
