/**
 * Releases with shots for the editor's Releases tab, run through the API as CI runs them and
 * taken by the local runtime's worker on its embedded queue, of pages served here: a green page,
 * a page whose box changes colour when the test says, and one held until the test lets it load.
 */
import type { ServerResponse } from 'node:http';
import { expect } from 'vitest';
import * as admin from '#shared/services/identity-admin.ts';
import { connect } from '#infra/admin/connection.ts';
import type { TestRuntime } from '../../support/local.ts';
import { call } from '../../support/client.ts';
import { waitFor } from '../../support/expectations.ts';
import { serveOnLoopback } from '../../support/loopback-server.ts';
import type { LoopbackServer } from '../../support/loopback-server.ts';

/** Where /changing draws its box, in CSS pixels of a desktop shot. */
export const BOX = { x: 100, y: 100, width: 200, height: 100 } as const;

export interface ReleasePages extends LoopbackServer {
  /** /changing's box colour, as CSS. */
  box: { colour: string };
  /** Lets every /held request waiting so far load. */
  release(): void;
}

const html = (response: ServerResponse, body: string) =>
  response
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    .end(`<!doctype html><html><head><meta charset="utf-8"></head><body style="margin:0;background:#fff">${body}</body></html>`);

export async function startReleasePages(): Promise<ReleasePages> {
  const box = { colour: 'rgb(0,0,255)' };
  let waiting: (() => void)[] = [];
  const server = await serveOnLoopback((request, response) => {
    const { x, y, width, height } = BOX;
    const boxed = () =>
      html(response, `<div style="position:absolute;left:${x}px;top:${y}px;width:${width}px;height:${height}px;background:${box.colour}"></div>`);
    if (request.url === '/held') return void waiting.push(boxed);
    if (request.url === '/changing') return boxed();
    html(response, '<div style="position:fixed;inset:0;background:rgb(0,160,0)"></div>');
  });
  return {
    ...server,
    box,
    release() {
      for (const load of waiting.splice(0)) load();
      waiting = [];
    },
  };
}

/** An organization of one owner, a key for CI and a session for the browser. */
export async function createTeam(runtime: TestRuntime): Promise<{ key: string; token: string; organizationId: string }> {
  const db = connect(runtime.env);
  try {
    const deps = { store: db.store };
    await admin.createUser(deps, { email: 'ria@example.com', name: 'Ria Release' });
    const { organizationId } = (await admin.createOrganization(deps, { name: 'Alpha', plan: 'pro', ownerUserId: 'ria@example.com' })).organization;
    const { key } = await admin.issueApiKey(deps, { organizationId, name: 'ci', scopes: ['release:create', 'release:capture', 'artifact:read'] });
    const { token } = await admin.createSession(deps, { user: 'ria@example.com', organizationId });
    return { key, token, organizationId };
  } finally {
    db.close();
  }
}

/** The API as CI calls it, with the team's key. */
export function ciClient(runtime: TestRuntime, key: string) {
  const api = (path: string, body?: unknown) =>
    call(runtime.url, path, { ...(body === undefined ? {} : { method: 'POST', body }), headers: { 'x-api-key': key } });
  return {
    api,
    /** Creates a release and runs `shots` on it; returns its id once they are queued. */
    async run(title: string, shots: Record<string, unknown>[]): Promise<string> {
      const created = await api('/api/v1/releases', { title, benefitStatement: `Release ${title}` });
      expect(created.status).toBe(201);
      const run = await api(`/api/v1/releases/${created.body.id}/shots`, { shots });
      expect(run.status).toBe(202);
      return created.body.id as string;
    },
    /** The release's shots once none is queued or running. */
    settled(releaseId: string) {
      return waitFor(async () => {
        const read = await api(`/api/v1/releases/${releaseId}/shots`);
        expect(read.status).toBe(200);
        return read.body.counts.queued + read.body.counts.running === 0 ? read.body : undefined;
      }, 120_000);
    },
  };
}
