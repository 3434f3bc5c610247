import { describe, expect, it, vi } from 'vitest';
import { parseConfig } from '#shared/config.ts';
import { HttpError } from '#shared/errors.ts';
import { cachingResolver } from '#shared/net/guard.ts';
import { EMULATED_GPU_FLAGS, UNSAFE_CHROMIUM_FLAGS, chromiumArgs } from '#shared/services/capture/browsers.ts';
import { DEVICES, imageSize, userAgentFor } from '#shared/services/capture/devices.ts';
import { createTargetGuard, normaliseTargetUrl } from '#shared/services/capture/target.ts';

const resolver = (answers: Record<string, string[] | NodeJS.ErrnoException>) => async (host: string) => {
  const answer = answers[host];
  if (answer instanceof Error) throw answer;
  return (answer ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const dnsError = (code: string) => Object.assign(new Error(`getaddrinfo ${code}`), { code });

async function errorOf(promise: Promise<unknown>): Promise<{ status: number; code: string; hint: string }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HttpError);
  const { status, code, hint } = error as HttpError;
  return { status, code, hint };
}

describe('normaliseTargetUrl', () => {
  it.each([
    ['HTTPS://Example.COM:443/a/../b?q=1#frag', 'https://example.com/b?q=1'],
    ['http://example.com:80', 'http://example.com/'],
    ['http://example.com:8080/x', 'http://example.com:8080/x'],
    ['http://bücher.example/ä', 'http://xn--bcher-kva.example/%C3%A4'],
    ['http://2130706433/', 'http://127.0.0.1/'],
    ['http://0x7f.1/', 'http://127.0.0.1/'],
    ['http://017700000001/', 'http://127.0.0.1/'],
    ['http://１２７.０.０.１/', 'http://127.0.0.1/'],
    ['  https://example.com/padded  ', 'https://example.com/padded'],
    ['http://@example.com/', 'http://example.com/'],
  ])('normalises %s to %s', (raw, expected) => {
    expect(normaliseTargetUrl(raw).href).toBe(expected);
  });

  it.each([
    ['a malformed URL', 'http://exa mple.com/', 'Malformed URL'],
    ['ftp', 'ftp://example.com/', 'Unsupported URL scheme'],
    ['file', 'file:///etc/passwd', 'Unsupported URL scheme'],
    ['javascript', 'javascript:alert(1)', 'Unsupported URL scheme'],
    ['data', 'data:text/html,hi', 'Unsupported URL scheme'],
    ['a user and password', 'https://user:pass@example.com/', 'URL carries credentials'],
    ['a user alone', 'https://user@example.com/', 'URL carries credentials'],
  ])('refuses %s with invalid_url', (_case, raw, message) => {
    expect(() => normaliseTargetUrl(raw)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_url', message }));
  });
});

describe('createTargetGuard', () => {
  const policy = { loopbackPorts: [] };

  it('allows a host whose every address is public', async () => {
    const guard = createTargetGuard(policy, resolver({ 'example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'] }));
    await expect(guard.assertCapturable(new URL('https://example.com/'))).resolves.toBeUndefined();
  });

  it.each([
    ['a private answer among public ones', { 'mixed.example': ['93.184.215.14', '10.1.2.3'] }, 'http://mixed.example/', /resolves to a private address/],
    ['the metadata address', {}, 'http://169.254.169.254/', /169\.254\.169\.254 is a link-local address/],
    ['an IPv4-mapped loopback', {}, 'http://[::ffff:127.0.0.1]/', /is a loopback \(embedded IPv4\) address/],
    ['a name with no address', { 'empty.example': [] }, 'http://empty.example/', /has no address/],
    ['a name that does not exist', { 'typo.example': dnsError('ENOTFOUND') }, 'http://typo.example/', /does not resolve/],
  ])('refuses %s with 400 invalid_url', async (_case, answers, url, hint) => {
    const guard = createTargetGuard(policy, resolver(answers as Record<string, string[]>));
    expect(await errorOf(guard.assertCapturable(new URL(url)))).toEqual({ status: 400, code: 'invalid_url', hint: expect.stringMatching(hint) });
  });

  it('answers 500 upstream_failed when DNS itself fails', async () => {
    const guard = createTargetGuard(policy, resolver({ 'flaky.example': dnsError('EAI_AGAIN') }));
    expect(await errorOf(guard.assertCapturable(new URL('http://flaky.example/')))).toEqual({
      status: 500,
      code: 'upstream_failed',
      hint: expect.stringContaining('EAI_AGAIN'),
    });
  });

  it.each(['ws://example.com/', 'ftp://example.com/', 'chrome://settings/', 'file:///etc/hosts'])('never lets a page request %s', async (url) => {
    const guard = createTargetGuard(policy, resolver({ 'example.com': ['93.184.215.14'] }));
    expect(await guard.verdict(new URL(url))).toEqual({ allowed: false, kind: 'scheme', reason: expect.any(String) });
  });

  it('lets the test opt-in reach loopback on its listed port only', async () => {
    const guard = createTargetGuard({ loopbackPorts: [4010] }, resolver({}));
    expect(await guard.verdict(new URL('http://127.0.0.1:4010/'))).toEqual({ allowed: true });
    expect(await guard.verdict(new URL('http://127.0.0.1:4011/'))).toMatchObject({ allowed: false, kind: 'address' });
    expect(await guard.verdict(new URL('http://10.0.0.1:4010/'))).toMatchObject({ allowed: false, kind: 'address' });
  });
});

describe('cachingResolver', () => {
  it('answers a name from its first look-up until the answer expires, so a check and its connection agree', async () => {
    // Prepare: a rebinding name, public first and internal afterwards
    let now = 0;
    const upstream = vi
      .fn<(host: string) => Promise<{ address: string; family: number }[]>>()
      .mockResolvedValueOnce([{ address: '93.184.215.14', family: 4 }])
      .mockResolvedValue([{ address: '10.0.0.1', family: 4 }]);
    const resolve = cachingResolver(upstream, 1_000, () => now);

    // Act
    const first = await resolve('rebind.example');
    now = 999;
    const pinned = await resolve('REBIND.example');
    now = 1_000;
    const fresh = await resolve('rebind.example');

    // Assess
    expect([first, pinned, fresh].map((answer) => answer[0]!.address)).toEqual(['93.184.215.14', '93.184.215.14', '10.0.0.1']);
    expect(upstream).toHaveBeenCalledTimes(2);
  });

  it('does not remember a failed look-up', async () => {
    const upstream = vi
      .fn<(host: string) => Promise<{ address: string; family: number }[]>>()
      .mockRejectedValueOnce(dnsError('EAI_AGAIN'))
      .mockResolvedValue([{ address: '93.184.215.14', family: 4 }]);
    const resolve = cachingResolver(upstream, 60_000);
    await expect(resolve('example.com')).rejects.toThrow('EAI_AGAIN');
    await expect(resolve('example.com')).resolves.toEqual([{ address: '93.184.215.14', family: 4 }]);
  });
});

describe('chromiumArgs', () => {
  it('drops the flags that switch off web security and routes page traffic through the proxy', async () => {
    // Act
    const args = await chromiumArgs({ singleProcess: true, proxyUrl: 'http://127.0.0.1:9999' });

    // Assess
    expect(args.filter((flag) => UNSAFE_CHROMIUM_FLAGS.has(flag))).toEqual([]);
    expect(args).not.toContain('--disable-web-security');
    expect(args).not.toContain('--allow-running-insecure-content');
    expect(args).not.toContain('--disable-popup-blocking');
    expect(args).toEqual(
      expect.arrayContaining([
        '--single-process',
        '--proxy-server=http://127.0.0.1:9999',
        '--proxy-bypass-list=<-loopback>',
        '--disable-quic',
        '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
      ]),
    );
  });

  it('draws on the CPU: no emulated-GPU flag, --disable-gpu instead', async () => {
    // Act
    const args = await chromiumArgs({ singleProcess: true });

    // Assess
    expect(args.filter((flag) => EMULATED_GPU_FLAGS.has(flag))).toEqual([]);
    expect(args).not.toContain('--use-angle=swiftshader');
    expect(args).toContain('--disable-gpu');
  });

  it('leaves --single-process out when contexts are wanted', async () => {
    expect(await chromiumArgs({ singleProcess: false })).not.toContain('--single-process');
  });
});

describe('devices', () => {
  it('gives desktop a 1920×1080 image and mobile 375×667 at scale 2 (750×1334)', () => {
    expect(imageSize('desktop')).toEqual({ width: 1920, height: 1080 });
    expect(imageSize('mobile')).toEqual({ width: 750, height: 1334 });
    expect(DEVICES.mobile).toMatchObject({ width: 375, height: 667, isMobile: true, hasTouch: true });
  });

  it('presents Chrome with the real major version, never HeadlessChrome', () => {
    const desktop = userAgentFor('desktop', 'HeadlessChrome/153.0.8010.36');
    const mobile = userAgentFor('mobile', 'HeadlessChrome/153.0.8010.36');
    expect(desktop.userAgent).toBe('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/153.0.0.0 Safari/537.36');
    expect(mobile.userAgent).toMatch(/Android 10; K\).*Chrome\/153\.0\.0\.0 Mobile Safari/);
    expect(mobile.userAgentMetadata).toMatchObject({ mobile: true, platform: 'Android' });
  });
});

describe('capture configuration', () => {
  const base = {
    PUBLIC_BASE_URL: 'http://easel.test',
    WORKSPACE_TABLE: 'w',
    CACHE_TABLE: 'c',
    RATE_TABLE: 'r',
    ASSETS_BUCKET: 'a',
    CACHE_BUCKET: 'b',
    DELETION_QUEUE_URL: 'http://q',
    MAIL_QUEUE_URL: 'http://m',
    SHOT_QUEUE_URL: 'http://s',
    AWS_REGION: 'us-east-1',
  };

  it('defaults to a 15 s time-out, a 1 h cache, the bundled multi-process Chromium and no secret', () => {
    const cfg = parseConfig(base);
    expect(cfg.capture).toEqual({
      timeoutMs: 15_000,
      remoteEndpoint: undefined,
      chromiumPath: undefined,
      singleProcess: false,
      prelaunch: 'none',
      localPorts: [],
    });
    expect(cfg.cacheTtlSeconds).toBe(3_600);
    expect(cfg.internalSecret).toBeUndefined();
  });

  it('runs single-process and starts the browser at cold start on Lambda', () => {
    expect(parseConfig({ ...base, AWS_LAMBDA_FUNCTION_NAME: 'easel-capture' }).capture).toMatchObject({ singleProcess: true, prelaunch: 'launch' });
    expect(parseConfig({ ...base, AWS_LAMBDA_FUNCTION_NAME: 'f', CHROMIUM_SINGLE_PROCESS: 'false' }).capture.singleProcess).toBe(false);
  });

  it('warms up with a capture only where no request waits on the cold start: provisioned concurrency, or when asked', () => {
    const lambda = { ...base, AWS_LAMBDA_FUNCTION_NAME: 'f' };
    expect(parseConfig({ ...lambda, AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand' }).capture.prelaunch).toBe('launch');
    expect(parseConfig({ ...lambda, AWS_LAMBDA_INITIALIZATION_TYPE: 'provisioned-concurrency' }).capture.prelaunch).toBe('warm-up');
    expect(parseConfig({ ...base, CAPTURE_PRELAUNCH: 'warm-up' }).capture.prelaunch).toBe('warm-up');
    expect(parseConfig({ ...lambda, CAPTURE_PRELAUNCH: 'none' }).capture.prelaunch).toBe('none');
  });

  it('reads every capture setting', () => {
    const cfg = parseConfig({
      ...base,
      CAPTURE_TIMEOUT_MS: '8000',
      CACHE_TTL_SECONDS: '86400',
      BROWSER_WS_ENDPOINT: 'wss://browser.internal:3000/devtools/browser/abc',
      CHROMIUM_PATH: '/usr/bin/chromium',
      CHROMIUM_PACK: '/var/task/chromium',
      INTERNAL_SECRET_ARN: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:easel-AbCdEf',
    });
    expect(cfg.capture).toMatchObject({
      timeoutMs: 8_000,
      remoteEndpoint: 'wss://browser.internal:3000/devtools/browser/abc',
      chromiumPath: '/usr/bin/chromium',
      chromiumPack: '/var/task/chromium',
    });
    expect(cfg.cacheTtlSeconds).toBe(86_400);
    expect(cfg.internalSecret).toEqual({ arn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:easel-AbCdEf' });
  });

  it.each([
    ['CAPTURE_TIMEOUT_MS', '500', /CAPTURE_TIMEOUT_MS must be an integer from 1000 to 25000/],
    ['CAPTURE_TIMEOUT_MS', 'soon', /CAPTURE_TIMEOUT_MS/],
    ['CACHE_TTL_SECONDS', '86401', /CACHE_TTL_SECONDS must be an integer from 1 to 86400/],
    ['BROWSER_WS_ENDPOINT', 'http://browser:3000', /ws:\/\/ or wss:\/\//],
    ['INTERNAL_SECRET', 'short', /at least 32 characters/],
    ['INTERNAL_SECRET_ARN', 'arn:aws:ssm:us-east-1:1:parameter/x', /Secrets Manager ARN/],
    ['CHROMIUM_SINGLE_PROCESS', 'maybe', /true or false/],
    ['CAPTURE_PRELAUNCH', 'always', /CAPTURE_PRELAUNCH must be one of none, launch, warm-up, got always/],
  ])('fails the cold start when %s is %s', (name, value, message) => {
    expect(() => parseConfig({ ...base, [name]: value })).toThrow(message);
  });
});
