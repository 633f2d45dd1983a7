import { readableEntry } from './readable-entry';

describe('readableEntry', () => {
  const request = {
    level: 30,
    time: '2026-01-02T03:04:05.000Z',
    pid: 7,
    reqId: '7b921a58-a6bd-48cf-84c7-45f9098e672d',
    method: 'POST',
    url: '/api/v4/projects?private_token=[REDACTED]',
    status: 201,
    ms: 12.4,
    bytes: 42,
    ip: '127.0.0.1',
    ua: 'python-gitlab/4.4.0',
    msg: 'request',
  };

  it('shortens a request entry to method, path, status and milliseconds', () => {
    expect(readableEntry(request)).toEqual({
      level: 30,
      time: '2026-01-02T03:04:05.000Z',
      msg: 'POST /api/v4/projects?private_token=[REDACTED] 201 12 ms',
    });
    expect(
      readableEntry({
        ...request,
        level: 50,
        status: 500,
        ms: 3.6,
        msg: 'request failed',
      }),
    ).toMatchObject({
      level: 50,
      msg: 'POST /api/v4/projects?private_token=[REDACTED] 500 4 ms',
    });
  });

  it('leaves every other entry as it is', () => {
    const other = { level: 30, time: 't', msg: 'request', method: 'GET' };
    expect(readableEntry(other)).toBe(other);
    const shutdown = {
      level: 30,
      time: 't',
      msg: 'Stopped',
      url: '/x',
      status: 1,
      ms: 2,
      method: 'GET',
    };
    expect(readableEntry(shutdown)).toBe(shutdown);
  });
});
