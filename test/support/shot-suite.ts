/** The set-up and calls of the release-shot integration files: one runtime with the shot pages, two workspaces. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, expect } from 'vitest';
import { useRuntimeWithPages } from './capture-suite.ts';
import { call } from './client.ts';
import { waitFor } from './expectations.ts';
import { createFixtures, type FixtureOrg, type Fixtures } from './route-requests.ts';
import { startShotPages } from './shot-pages.ts';

export const VIEWPORT = 1920 * 1080;

/** Starts the runtime, the pages and the fixture for the file; the helpers call the API as an organization. */
export function useShotSuite() {
  const suite = useRuntimeWithPages(startShotPages);
  const state: { fixtures?: Fixtures; dynamo?: DynamoDBDocumentClient } = {};
  beforeAll(async () => {
    state.fixtures = await createFixtures(suite.runtime);
    const aws = { region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } };
    state.dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({ ...aws, endpoint: suite.runtime.env.DYNAMODB_ENDPOINT }));
  });
  afterAll(() => {
    state.dynamo?.destroy();
    state.fixtures?.close();
  });

  const api = (org: FixtureOrg, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    call(suite.runtime.url, path, { ...(body === undefined ? {} : { method: 'POST', body }), headers: { 'x-api-key': org.key, ...headers } });

  return {
    suite,
    get fixtures() {
      return state.fixtures!;
    },
    get dynamo() {
      return state.dynamo!;
    },
    api,
    async createRelease(org: FixtureOrg, sourceUrls: string[] = []): Promise<string> {
      const created = await api(org, '/api/v1/releases', { title: 'Release', benefitStatement: 'Better', sourceUrls });
      expect(created.status).toBe(201);
      return created.body.id as string;
    },
    /** The release's shots once none is queued or running. */
    settled(org: FixtureOrg, releaseId: string) {
      return waitFor(async () => {
        const read = await api(org, `/api/v1/releases/${releaseId}/shots`);
        expect(read.status).toBe(200);
        return read.body.counts.queued + read.body.counts.running === 0 ? read.body : undefined;
      }, 90_000);
    },
    /** An asset's bytes, base64, through its download URL. */
    async download(org: FixtureOrg, assetId: string): Promise<string> {
      const signed = await api(org, `/api/v1/assets/${assetId}/download-url`);
      expect(signed.status).toBe(200);
      const response = await fetch(signed.body.downloadUrl);
      return Buffer.from(await response.arrayBuffer()).toString('base64');
    },
    /** The workspace's asset records of a release's shots. */
    async shotAssets(org: FixtureOrg, releaseId: string) {
      const { Items = [] } = await state.dynamo!.send(
        new QueryCommand({
          TableName: suite.runtime.env.WORKSPACE_TABLE,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :asset)',
          FilterExpression: 'releaseId = :release',
          ExpressionAttributeValues: { ':pk': `WS#${org.workspaceId}`, ':asset': 'ASSET#', ':release': releaseId },
        }),
      );
      return Items;
    },
  };
}

/** A shot as the run answers it, queued. */
export const queued = (name: string, url: string, runId: string, extra: Record<string, unknown> = {}) => ({
  name,
  url,
  deviceType: 'desktop',
  colorScheme: 'light',
  status: 'queued',
  runId,
  queuedAt: expect.any(String),
  ...extra,
});
