/**
 * Warm sign-in through the local server: a code check (POST /api/v1/auth/email-code/verify) and a
 * passkey verification (POST /api/v1/auth/passkey/verify), each to a new session, interleaved
 * with GET /api/v1/me as the reference of a warm session route. The e-mail send is queued and
 * not part of either. Goal: each ≤ 20 ms at the median.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashAddress, hashEmailCode } from '#shared/identity/credentials.ts';
import * as admin from '#shared/services/identity-admin.ts';
import { connect } from '#infra/admin/connection.ts';
import { startLocal } from '#infra/local/runtime.ts';
import { call, freshClient } from '../test/support/client.ts';
import { sessionCookieOf } from '../test/support/sign-in.ts';
import { SoftAuthenticator } from '../test/support/soft-authenticator.ts';
import { median } from './lib/measure.ts';
import { ms, percentile } from './support/report.ts';
import type { BenchTable } from './support/report.ts';

const ROUNDS = Number(process.env.BENCH_SIGN_IN_ROUNDS ?? 41);
export const WARM_GOAL_MS = 20;

export async function bench(): Promise<BenchTable[]> {
  process.env.LOG_LEVEL = 'silent';
  const dataDir = await mkdtemp(join(tmpdir(), 'easel-bench-sign-in-'));
  const runtime = await startLocal({ port: 0, backendPorts: { dynamodb: 0, s3: 0, sqs: 0 }, dataDir, workers: false, env: { ...process.env } });
  const db = connect(runtime.env);
  try {
    const deps = { store: db.store };
    const { organization } = await admin.createOrganization(deps, { name: 'Bench', plan: 'pro' });
    // One address per code check: the per-address limit allows ten tries an hour.
    const emails = Array.from({ length: ROUNDS + 1 }, (_, index) => `bench-${index}@example.com`);
    for (const email of emails) {
      await admin.createUser(deps, { email, name: 'Bench' });
      await admin.addMember(deps, { organizationId: organization.organizationId, user: email, role: 'member' });
    }
    const code = async (email: string) => {
      const addressHash = hashAddress(email);
      await db.store.putEmailCode({
        addressHash,
        codeHash: hashEmailCode(addressHash, '123456'),
        createdAt: new Date().toISOString(),
        expiresAt: Math.floor(Date.now() / 1000) + 600,
      });
    };
    await code(emails[0]!);
    const cookie = sessionCookieOf(await call(runtime.url, '/api/v1/auth/email-code/verify', { body: { email: emails[0], code: '123456' } }))!;
    const key = new SoftAuthenticator({ origin: runtime.url.replace('127.0.0.1', 'localhost'), rpId: 'localhost' });
    const options = await call(runtime.url, '/api/v1/auth/passkeys/options', { method: 'POST', headers: { cookie } });
    const registered = await call(runtime.url, '/api/v1/auth/passkeys', { body: { response: key.register(options.body) }, headers: { cookie } });
    if (registered.status !== 201) throw new Error(`passkey registration answered ${registered.status}`);

    const times = { code: [] as number[], passkey: [] as number[], me: [] as number[] };
    const timed = async (into: number[], send: () => Promise<{ status: number }>, expected: number) => {
      const started = performance.now();
      const { status } = await send();
      into.push(performance.now() - started);
      if (status !== expected) throw new Error(`answered ${status}, not ${expected}`);
    };
    // One warm-up each, then rounds interleaved so drift hits all three alike.
    for (let round = 0; round <= ROUNDS; round++) {
      const email = emails[round % emails.length]!;
      await code(email);
      const asked = await call(runtime.url, '/api/v1/auth/passkey/options', { method: 'POST' });
      const response = key.authenticate(asked.body);
      const [codeTimes, passkeyTimes, meTimes] = round === 0 ? [[], [], []] : [times.code, times.passkey, times.me];
      await timed(codeTimes, () => call(runtime.url, '/api/v1/auth/email-code/verify', { body: { email, code: '123456' }, from: freshClient() }), 200);
      await timed(passkeyTimes, () => call(runtime.url, '/api/v1/auth/passkey/verify', { body: { response }, from: freshClient() }), 200);
      await timed(meTimes, () => call(runtime.url, '/api/v1/me', { headers: { cookie } }), 200);
    }
    const row = (name: string, values: number[], goal: boolean) => [
      name,
      ms(median(values)),
      ms(percentile(values, 90)),
      goal ? `≤ ${WARM_GOAL_MS} ms` : '',
      goal ? (median(values) <= WARM_GOAL_MS ? 'met' : 'MISSED') : '',
    ];
    return [
      {
        title: `Warm sign-in through the local server (${ROUNDS} interleaved rounds, each to a new session)`,
        columns: ['call', 'p50', 'p90', 'goal', 'result'],
        rows: [
          row('POST /api/v1/auth/email-code/verify (a right code)', times.code, true),
          row('POST /api/v1/auth/passkey/verify (ES256)', times.passkey, true),
          row('GET /api/v1/me (reference: a warm session route)', times.me, false),
        ],
        notes: [
          'Each call over loopback HTTP to the local server, its handler warm, against the embedded dynalite (one thread: its calls queue there).',
          'A code check: the per-IP and per-address counters, the try counted, the code used, the user and their organizations read, the session written.',
          'A passkey verification: the per-IP counter, the challenge taken, the passkey read, the signature checked, the counter moved, the session written.',
        ],
      },
    ];
  } finally {
    db.close();
    await runtime.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
