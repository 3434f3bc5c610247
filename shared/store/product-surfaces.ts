/** Product surfaces of a workspace, in its partition (releases name one in productSurfaceId). */
import * as v from 'valibot';
import { ProductSurfaceRecord, WorkspaceRecord } from '#shared/schemas/identity.ts';
import { IdentityItems, type IdentityStoreDeps } from '#shared/store/identity-items.ts';
import { keys, prefixes } from '#shared/store/keys.ts';

export class ProductSurfaceStore {
  private readonly items: IdentityItems;

  constructor(deps: IdentityStoreDeps) {
    this.items = new IdentityItems(deps);
  }

  async listProductSurfaces(workspaceId: string): Promise<ProductSurfaceRecord[]> {
    const items = await this.items.queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.workspace(workspaceId).pk, ':prefix': prefixes.productSurface },
    });
    return items.map((item) => v.parse(ProductSurfaceRecord, item)).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** The workspace and its surfaces in one Query: `SURFACE#` sorts just before `WORKSPACE`; other kinds between are left out. */
  async getWorkspaceWithSurfaces(workspaceId: string): Promise<{ workspace: WorkspaceRecord | undefined; surfaces: ProductSurfaceRecord[] }> {
    const { pk, sk } = keys.workspace(workspaceId);
    const items = await this.items.queryAll({
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pk, ':from': prefixes.productSurface, ':to': sk },
    });
    const record = items.find((item) => item.sk === sk);
    return {
      workspace: record && v.parse(WorkspaceRecord, record),
      surfaces: items
        .filter((item) => String(item.sk).startsWith(prefixes.productSurface))
        .map((item) => v.parse(ProductSurfaceRecord, item))
        .sort((a, b) => a.name.localeCompare(b.name)),
    };
  }

  /** A product surface of this workspace, or undefined (releases validate productSurfaceId with it). */
  async getProductSurface(workspaceId: string, productSurfaceId: string): Promise<ProductSurfaceRecord | undefined> {
    const item = await this.items.get(keys.productSurface(workspaceId, productSurfaceId));
    return item && v.parse(ProductSurfaceRecord, item);
  }

  async putProductSurface(record: ProductSurfaceRecord): Promise<void> {
    await this.items.create({ ...keys.productSurface(record.workspaceId, record.productSurfaceId), ...record }, 'Product surface');
  }
}
