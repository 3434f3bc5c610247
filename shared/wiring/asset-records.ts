/** The asset records of this container, on the DynamoDB client and the workspace table. */
import { config } from '#shared/config.ts';
import { AssetStore } from '#shared/store/assets.ts';
import { dynamo } from '#shared/wiring/dynamo.ts';

let records: AssetStore | undefined;

/** The asset store, created on first use. */
export const assetStore = (): AssetStore => (records ??= new AssetStore({ dynamo, table: config().tables.workspace }));
