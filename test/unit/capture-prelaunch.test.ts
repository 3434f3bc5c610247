/**
 * What the capture function's and the shot worker's modules do as Lambda loads them: a container made for a waiting
 * request only launches the browser, so that request's capture is the first; only a container no
 * request waits on takes a warm-up capture, before its init phase ends.
 */
import '../support/env.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const started: string[] = [];
let warmUpDone = false;

vi.mock('#shared/wiring/capture.ts', async (actual) => ({
  ...(await actual<object>()),
  prelaunch: vi.fn(async () => void started.push('launch')),
  warmUp: vi.fn(async () => {
    started.push('warm-up');
    await new Promise((resolve) => setImmediate(resolve));
    warmUpDone = true;
  }),
}));

const LAMBDA = ['AWS_LAMBDA_FUNCTION_NAME', 'AWS_LAMBDA_INITIALIZATION_TYPE', 'CAPTURE_PRELAUNCH'] as const;

const HANDLERS = {
  'the capture function': () => import('#functions/screenshot/capture-page.ts'),
  'the shot worker': () => import('#functions/releases/process-shot.ts'),
};
let handler: keyof typeof HANDLERS = 'the capture function';

/** Loads the handler's module afresh, as a new container does, with `env` set. */
async function coldStart(env: Partial<Record<(typeof LAMBDA)[number], string>>): Promise<void> {
  vi.resetModules();
  for (const name of LAMBDA) delete process.env[name];
  Object.assign(process.env, env);
  await HANDLERS[handler]();
}

afterEach(() => {
  for (const name of LAMBDA) delete process.env[name];
  started.length = 0;
  warmUpDone = false;
});

describe.each(Object.keys(HANDLERS) as (keyof typeof HANDLERS)[])('%s at cold start', (name) => {
  beforeEach(() => {
    handler = name;
  });

  it('only launches the browser in a container made on demand, where the request that made it waits', async () => {
    // Act
    await coldStart({ AWS_LAMBDA_FUNCTION_NAME: 'easel-capture', AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand' });

    // Assess
    expect(started).toEqual(['launch']);
  });

  it('takes a warm-up capture, and finishes it before the init phase ends, with provisioned concurrency', async () => {
    // Act
    await coldStart({ AWS_LAMBDA_FUNCTION_NAME: 'easel-capture', AWS_LAMBDA_INITIALIZATION_TYPE: 'provisioned-concurrency' });

    // Assess
    expect({ started, warmUpDone }).toEqual({ started: ['warm-up'], warmUpDone: true });
  });

  it('starts nothing outside Lambda unless CAPTURE_PRELAUNCH says so', async () => {
    // Act
    await coldStart({});
    const local = [...started];
    await coldStart({ CAPTURE_PRELAUNCH: 'launch' });

    // Assess
    expect({ local, asked: started }).toEqual({ local: [], asked: ['launch'] });
  });
});
