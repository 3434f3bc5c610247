/** The container's asset records. */
import { config } from '#shared/config.ts';
import { AssetStore } from '#shared/store/assets.ts';
import { dynamo } from '#shared/wiring/dynamo.ts';

let records: AssetStore | undefined;

export const assetStore = (): AssetStore => (records ??= new AssetStore({ dynamo, table: config().tables.workspace }));
