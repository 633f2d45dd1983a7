import { showsInline } from './download-policy';

describe('which downloads a browser may show inline', () => {
  it('shows raster images, audio, video and plain text, whatever the case or parameters', () => {
    for (const type of [
      'image/png',
      'IMAGE/JPEG',
      'text/plain; charset=utf-8',
      'video/mp4',
      'audio/mpeg',
    ])
      expect(showsInline(type)).toBe(true);
  });

  it('makes anything that can hold script, and anything unknown, an attachment', () => {
    for (const type of [
      'text/html',
      'text/html;charset=utf-8',
      'image/svg+xml',
      'application/xhtml+xml',
      'text/xml',
      'application/xml',
      'application/pdf',
      'application/javascript',
      'text/plain-but-not',
      'application/octet-stream',
      '',
    ])
      expect(showsInline(type)).toBe(false);
  });
});
