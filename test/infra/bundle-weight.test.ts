import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { ROUTE_LIST } from '#shared/routes.ts';

// Routes that touch no table, bucket or queue must not carry (or construct at cold start) AWS SDK
// clients: what route() and the shared middlewares import lands in every function.
const untouched = ROUTE_LIST.filter((row) => Object.values(row.access).every((grants) => Object.keys(grants ?? {}).length === 0));

describe('bundles of routes without AWS access', () => {
  it.each(untouched.map((row) => [row.operationId, row.handler] as const))('keeps the AWS SDK out of %s', async (_operationId, entry) => {
    // Act
    const result = await build({ entryPoints: [entry], bundle: true, write: false, platform: 'node', format: 'esm', target: 'node24', metafile: true, logLevel: 'silent' });

    // Assess
    const sdk = Object.keys(result.metafile.inputs).filter((input) => input.includes('node_modules/@aws-sdk/'));
    expect(sdk).toEqual([]);
  });
});
