import { EventEmitter } from 'node:events';

import { onResponseDone } from './response-done';

describe('onResponseDone', () => {
  it('runs every callback once the response closes, through one listener', () => {
    const res = new EventEmitter();
    const ran: string[] = [];
    onResponseDone(res, () => ran.push('log'));
    onResponseDone(res, () => ran.push('metrics'));
    onResponseDone(res, () => ran.push('deadline'));
    expect(res.listenerCount('close')).toBe(1);
    res.emit('finish');
    expect(ran).toEqual([]);
    res.emit('close');
    res.emit('close');
    expect(ran).toEqual(['log', 'metrics', 'deadline']);
    expect(res.listenerCount('close')).toBe(0);
  });

  it('keeps each response its own callbacks', () => {
    const first = new EventEmitter();
    const second = new EventEmitter();
    const ran: string[] = [];
    onResponseDone(first, () => ran.push('first'));
    onResponseDone(second, () => ran.push('second'));
    second.emit('close');
    expect(ran).toEqual(['second']);
  });
});
