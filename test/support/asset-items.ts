import { keys } from '#shared/store/keys.ts';

/** The asset of the mocked workspace table in unit tests (workspace `ws_a`). */
export const MOCK_ASSET_ID = '0b6f1c7e-8a4b-4f3e-9d2a-6c1e5b7a9f00';

/** The table item of that asset: a 4-byte PNG, with `fields` (status, sha256…) on top. */
export function mockAssetItem(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    ...keys.asset('ws_a', MOCK_ASSET_ID),
    assetId: MOCK_ASSET_ID,
    contentType: 'image/png',
    bytes: 4,
    fileName: 'shot.png',
    classification: 'input',
    createdAt: '2026-01-01T00:00:00.000Z',
    objectKey: `workspaces/ws_a/assets/${MOCK_ASSET_ID}`,
    ...fields,
  };
}
