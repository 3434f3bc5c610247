import { describe, expect, it } from 'vitest';
import { log, serializeError, withoutUrlQueries } from '#shared/log.ts';
import { useLogLines } from '../support/log-lines.ts';

const captured = useLogLines();

describe('log lines', () => {
  it('cut every URL before its query string and fragment: in the message, in fields and in an error, its cause and their stacks', () => {
    // Prepare: what puppeteer throws for a target that fails to load
    const cause = new Error('net::ERR_CERT_AUTHORITY_INVALID at https://shop.example/reset?token=s3cr3t&user=7');
    const error = new Error('Upstream request failed', { cause });

    // Act
    log.error('request failed for https://shop.example/a?b=c#d', {
      target: 'https://shop.example/reset?token=s3cr3t',
      list: ['wss://socket.example/live#room'],
      error: serializeError(error),
    });

    // Assess
    const [line] = captured.lines;
    expect(JSON.stringify(line)).not.toMatch(/s3cr3t|token|\?b=c|#d|#room/);
    expect(line).toMatchObject({
      msg: 'request failed for https://shop.example/a',
      target: 'https://shop.example/reset',
      list: ['wss://socket.example/live'],
      error: { cause: { message: 'net::ERR_CERT_AUTHORITY_INVALID at https://shop.example/reset' } },
    });
    expect((line!.error as { cause: { stack: string } }).cause.stack).toMatch(/^Error: net::ERR_CERT_AUTHORITY_INVALID at https:\/\/shop\.example\/reset\n/);
  });

  it.each([
    ['a URL without query', 'GET https://api.example/v1/things failed', 'GET https://api.example/v1/things failed'],
    ['a query ended by a quote', '"https://a.example/x?y=1" refused', '"https://a.example/x" refused'],
    ['two URLs', 'from http://a.example/?k=1 to http://b.example/p#f', 'from http://a.example/ to http://b.example/p'],
    ['text that is no URL', 'what? #1 of 2', 'what? #1 of 2'],
  ])('%s: %j becomes %j', (_case, text, expected) => {
    expect(withoutUrlQueries(text)).toBe(expected);
  });
});
