/**
 * Data access for identity: users, organizations, workspaces, memberships, invitations, API
 * keys, sessions and product surfaces in the workspace table (layout in shared/store/keys.ts).
 *
 * Every call goes through `guard`, so an unreachable or throttled table becomes 503
 * `upstream_unavailable`; a failed write condition becomes a typed conflict. Items whose
 * `expiresAt` (epoch seconds) is past read as absent: DynamoDB deletes them only eventually,
 * and the local backend never does.
 */
import * as v from 'valibot';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient, QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError, UpstreamUnavailableError } from '#shared/errors.ts';
import type { Entitlement } from '#shared/identity/plans.ts';
import { guard } from '#shared/store/sdk-calls.ts';
import { API_KEY_LAST_USED, indexKeys, keys, prefixes } from '#shared/store/keys.ts';
import {
  ApiKeyRecord,
  InvitationRecord,
  MembershipRecord,
  OrganizationRecord,
  ProductSurfaceRecord,
  SessionRecord,
  UserRecord,
  WorkspaceRecord,
} from '#shared/schemas/identity.ts';
import type { DeletionState } from '#shared/schemas/identity.ts';

type Key = { pk: string; sk: string };
type Item = Record<string, unknown>;

const TABLE = 'The workspace table';
const BATCH_GET_LIMIT = 100;

/** A record that must be new already exists (an e-mail in use, a duplicate membership). */
export class AlreadyExistsError extends ConflictError {
  constructor(what: string) {
    super(`${what} already exists`, `Use the existing ${what.toLowerCase()}, or choose another identifier.`);
  }
}

export interface IdentityStoreDeps {
  dynamo: DynamoDBDocumentClient;
  table: string;
  /** Clock; tests pass their own. */
  now?: () => Date;
}

/** What the auth middleware needs to know about a member of an organization, read in one round trip. */
export interface MemberContext {
  organization: OrganizationRecord | undefined;
  membership: MembershipRecord | undefined;
}

/**
 * The identity items of the workspace table. Services receive it (or a `Pick` of it) so they can
 * be tested against a fake; the container's instance comes from #shared/wiring/identity.ts.
 */
export class IdentityStore {
  private readonly dynamo: DynamoDBDocumentClient;
  private readonly table: string;
  private readonly now: () => Date;

  constructor(deps: IdentityStoreDeps) {
    this.dynamo = deps.dynamo;
    this.table = deps.table;
    this.now = deps.now ?? (() => new Date());
  }

  private nowSeconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  private live(item: Item | undefined): Item | undefined {
    if (!item) return undefined;
    return typeof item.expiresAt === 'number' && item.expiresAt <= this.nowSeconds() ? undefined : item;
  }

  // ------------------------------------------------------------ primitives

  private async get(key: Key, consistent = false): Promise<Item | undefined> {
    const { Item } = await guard(TABLE, () => this.dynamo.send(new GetCommand({ TableName: this.table, Key: key, ConsistentRead: consistent })));
    return this.live(Item);
  }

  /** Reads up to any number of items by key in batches of 100, retrying what DynamoDB leaves unprocessed. */
  private async batchGet(keyList: readonly Key[], consistent = false): Promise<Item[]> {
    const out: Item[] = [];
    for (let start = 0; start < keyList.length; start += BATCH_GET_LIMIT) {
      let pending: Record<string, unknown>[] | undefined = keyList.slice(start, start + BATCH_GET_LIMIT);
      for (let attempt = 0; pending && pending.length > 0; attempt += 1) {
        // Give up before waiting: a back-off that no attempt follows only delays the 503.
        if (attempt > 5) throw new UpstreamUnavailableError(`${TABLE} is throttling reads; retry with back-off.`);
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 50 * 2 ** attempt)));
        const request: Record<string, unknown>[] = pending;
        const result = await guard(TABLE, () =>
          this.dynamo.send(new BatchGetCommand({ RequestItems: { [this.table]: { Keys: request, ConsistentRead: consistent } } })),
        );
        for (const item of result.Responses?.[this.table] ?? []) {
          const current = this.live(item);
          if (current) out.push(current);
        }
        pending = result.UnprocessedKeys?.[this.table]?.Keys;
      }
    }
    return out;
  }

  private async queryAll(input: Omit<QueryCommandInput, 'TableName'>): Promise<Item[]> {
    const out: Item[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await guard(TABLE, () => this.dynamo.send(new QueryCommand({ ...input, TableName: this.table, ExclusiveStartKey })));
      for (const item of page.Items ?? []) {
        const current = this.live(item);
        if (current) out.push(current);
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return out;
  }

  private async count(input: Omit<QueryCommandInput, 'TableName' | 'Select'>): Promise<number> {
    let total = 0;
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await guard(TABLE, () =>
        this.dynamo.send(new QueryCommand({ ...input, TableName: this.table, Select: 'COUNT', ExclusiveStartKey })),
      );
      total += page.Count ?? 0;
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return total;
  }

  /** Writes an item that must not exist yet. */
  private async create(item: Item, what: string): Promise<void> {
    try {
      await guard(TABLE, () =>
        this.dynamo.send(new PutCommand({ TableName: this.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' })),
      );
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) throw new AlreadyExistsError(what);
      throw error;
    }
  }

  /** Applies an update to an item that must exist; returns false when it does not. */
  private async updateExisting(key: Key, update: Omit<ConstructorParameters<typeof UpdateCommand>[0], 'TableName' | 'Key'>): Promise<boolean> {
    const condition = update.ConditionExpression ? `attribute_exists(pk) AND (${update.ConditionExpression})` : 'attribute_exists(pk)';
    try {
      await guard(TABLE, () => this.dynamo.send(new UpdateCommand({ ...update, TableName: this.table, Key: key, ConditionExpression: condition })));
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  // ------------------------------------------------------------ credentials

  /** The API key with this hash, revoked or not; one strongly consistent GetItem. */
  async getApiKey(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const item = await this.get(keys.apiKey(keyHash), true);
    return item && v.parse(ApiKeyRecord, item);
  }

  /** Records when a key was last used. A write only: it never reads the item back. */
  async touchApiKey(keyHash: string, at: string): Promise<void> {
    await this.updateExisting(keys.apiKey(keyHash), {
      UpdateExpression: `SET ${API_KEY_LAST_USED} = :at`,
      ExpressionAttributeValues: { ':at': at },
    });
  }

  /**
   * Stores a key: first a reference in the organization's partition, then the key itself. Plan
   * changes and deletions find keys through those references with a strongly consistent query
   * (gsi1 lags), so a key written moments before such a change is not missed.
   */
  async putApiKey(record: ApiKeyRecord): Promise<void> {
    await this.create({ ...keys.apiKeyRef(record.organizationId, record.keyId), keyId: record.keyId, keyHash: record.keyHash }, 'API key reference');
    await this.create({ ...keys.apiKey(record.keyHash), ...indexKeys.apiKeyOfOrganization(record.organizationId, record.keyId), ...record }, 'API key');
  }

  /** Hashes of every key of an organization, from the references: strongly consistent. */
  private async apiKeyHashes(organizationId: string): Promise<string[]> {
    const items = await this.queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.organization(organizationId).pk, ':prefix': prefixes.apiKeyRef },
      ConsistentRead: true,
    });
    return items.map((item) => String(item.keyHash));
  }

  /** Every key of an organization, revoked ones included, newest first. */
  async listApiKeys(organizationId: string): Promise<ApiKeyRecord[]> {
    const items = await this.queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': indexKeys.organizationPartition(organizationId), ':prefix': prefixes.apiKey },
    });
    return items.map((item) => v.parse(ApiKeyRecord, item)).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  /** Revokes a key; false when there is no such key. Revoking twice keeps the first time. */
  async revokeApiKey(keyHash: string, at: string): Promise<boolean> {
    return this.updateExisting(keys.apiKey(keyHash), {
      UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :at)',
      ExpressionAttributeValues: { ':at': at },
    });
  }

  /** The live (not expired) session with this hash; one strongly consistent GetItem. */
  async getSession(tokenHash: string): Promise<SessionRecord | undefined> {
    const item = await this.get(keys.session(tokenHash), true);
    return item && v.parse(SessionRecord, item);
  }

  async putSession(record: SessionRecord): Promise<void> {
    await this.create({ ...keys.session(record.tokenHash), ...indexKeys.sessionOfUser(record.userId, record.sessionId), ...record }, 'Session');
  }

  /** Sessions of a user that have not expired. */
  async listSessionsOfUser(userId: string): Promise<SessionRecord[]> {
    const items = await this.queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': indexKeys.userPartition(userId), ':prefix': prefixes.session },
    });
    return items.map((item) => v.parse(SessionRecord, item));
  }

  /** Ends a session at once by making it expired (the TTL then removes it). */
  async endSession(tokenHash: string): Promise<boolean> {
    return this.updateExisting(keys.session(tokenHash), {
      UpdateExpression: 'SET expiresAt = :past',
      ExpressionAttributeValues: { ':past': 0 },
    });
  }

  /**
   * Makes an organization the session's active one. False when the session has expired or is
   * gone in the meantime: the condition keeps an ended session from being revived.
   */
  async setActiveOrganization(tokenHash: string, organizationId: string): Promise<boolean> {
    return this.updateExisting(keys.session(tokenHash), {
      UpdateExpression: 'SET activeOrganizationId = :org',
      ConditionExpression: 'expiresAt > :now',
      ExpressionAttributeValues: { ':org': organizationId, ':now': this.nowSeconds() },
    });
  }

  // ------------------------------------------------------------ organizations and members

  /** The organization and the user's membership in it, in one BatchGetItem. */
  async getMemberContext(organizationId: string, userId: string, consistent = false): Promise<MemberContext> {
    const items = await this.batchGet([keys.organization(organizationId), keys.membership(organizationId, userId)], consistent);
    const organization = items.find((item) => item.sk === 'ORG');
    const membership = items.find((item) => item.sk !== 'ORG');
    return {
      organization: organization && v.parse(OrganizationRecord, organization),
      membership: membership && v.parse(MembershipRecord, membership),
    };
  }

  async getOrganization(organizationId: string, consistent = false): Promise<OrganizationRecord | undefined> {
    const item = await this.get(keys.organization(organizationId), consistent);
    return item && v.parse(OrganizationRecord, item);
  }

  async getOrganizations(organizationIds: readonly string[]): Promise<OrganizationRecord[]> {
    const items = await this.batchGet([...new Set(organizationIds)].map((id) => keys.organization(id)));
    return items.map((item) => v.parse(OrganizationRecord, item));
  }

  /**
   * Creates an organization with its workspace. The workspace is written first: an organization
   * item never points at a workspace that does not exist.
   */
  async createOrganization(organization: OrganizationRecord, workspace: WorkspaceRecord): Promise<void> {
    await this.create({ ...keys.workspace(workspace.workspaceId), ...workspace }, 'Workspace');
    await this.create({ ...keys.organization(organization.organizationId), ...organization }, 'Organization');
  }

  /**
   * Changes an organization's entitlement, then copies it to each of its API keys (a key carries
   * it so that verifying the key is a single read). Safe to repeat if interrupted.
   */
  async setEntitlement(organizationId: string, entitlement: Entitlement): Promise<void> {
    const updated = await this.updateExisting(keys.organization(organizationId), {
      UpdateExpression: 'SET entitlement = :entitlement',
      ExpressionAttributeValues: { ':entitlement': entitlement },
    });
    if (!updated) throw new NotFoundError('Organization not found', `No organization ${organizationId}.`);
    for (const keyHash of await this.apiKeyHashes(organizationId)) await this.copyEntitlementToKey(keyHash, entitlement);
  }

  /** Copies an organization's entitlement onto one of its keys (false when the key is not written yet). */
  async copyEntitlementToKey(keyHash: string, entitlement: Entitlement): Promise<boolean> {
    return this.updateExisting(keys.apiKey(keyHash), {
      UpdateExpression: 'SET entitlement = :entitlement',
      ExpressionAttributeValues: { ':entitlement': entitlement },
    });
  }

  /**
   * Moves an organization to a deletion state and revokes every key it has: a key must not
   * outlive its organization, and revoked keys are refused within the verification cache bound.
   */
  async setDeletionState(organizationId: string, state: Exclude<DeletionState, 'active'>): Promise<void> {
    const at = this.now().toISOString();
    const updated = await this.updateExisting(keys.organization(organizationId), {
      UpdateExpression: 'SET deletionState = :state, deletionRequestedAt = if_not_exists(deletionRequestedAt, :at)',
      ExpressionAttributeValues: { ':state': state, ':at': at },
    });
    if (!updated) throw new NotFoundError('Organization not found', `No organization ${organizationId}.`);
    for (const keyHash of await this.apiKeyHashes(organizationId)) await this.revokeApiKey(keyHash, at);
  }

  /** Memberships of a user across organizations (gsi1). */
  async listMembershipsOfUser(userId: string): Promise<MembershipRecord[]> {
    const items = await this.queryAll({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      ExpressionAttributeValues: { ':pk': indexKeys.userPartition(userId), ':prefix': prefixes.organization },
    });
    return items.map((item) => v.parse(MembershipRecord, item));
  }

  async listMembers(organizationId: string): Promise<MembershipRecord[]> {
    const items = await this.queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.organization(organizationId).pk, ':prefix': prefixes.member },
    });
    return items.map((item) => v.parse(MembershipRecord, item));
  }

  async countMembers(organizationId: string): Promise<number> {
    return this.count({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.organization(organizationId).pk, ':prefix': prefixes.member },
    });
  }

  async putMembership(record: MembershipRecord): Promise<void> {
    await this.create(
      { ...keys.membership(record.organizationId, record.userId), ...indexKeys.membershipOfUser(record.userId, record.organizationId), ...record },
      'Membership',
    );
  }

  /** Invitations that have not expired, newest first. */
  async listInvitations(organizationId: string): Promise<InvitationRecord[]> {
    const items = await this.queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.organization(organizationId).pk, ':prefix': prefixes.invitation },
    });
    return items.map((item) => v.parse(InvitationRecord, item)).sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async countPendingInvitations(organizationId: string): Promise<number> {
    return this.count({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: '#status = :pending AND expiresAt > :now',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pk': keys.organization(organizationId).pk,
        ':prefix': prefixes.invitation,
        ':pending': 'pending',
        ':now': this.nowSeconds(),
      },
    });
  }

  async putInvitation(record: InvitationRecord): Promise<void> {
    await this.create({ ...keys.invitation(record.organizationId, record.invitationId), ...record }, 'Invitation');
  }

  async countActiveApiKeys(organizationId: string): Promise<number> {
    return this.count({
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
      FilterExpression: 'attribute_not_exists(revokedAt)',
      ExpressionAttributeValues: { ':pk': indexKeys.organizationPartition(organizationId), ':prefix': prefixes.apiKey },
    });
  }

  // ------------------------------------------------------------ users

  async getUser(userId: string): Promise<UserRecord | undefined> {
    const item = await this.get(keys.user(userId));
    return item && v.parse(UserRecord, item);
  }

  async getUsers(userIds: readonly string[]): Promise<UserRecord[]> {
    const items = await this.batchGet([...new Set(userIds)].map((id) => keys.user(id)));
    return items.map((item) => v.parse(UserRecord, item));
  }

  /** The user registered with an e-mail address (case-insensitive). */
  async findUserByEmail(email: string): Promise<UserRecord | undefined> {
    const claim = await this.get(keys.userEmail(email), true);
    return typeof claim?.userId === 'string' ? this.getUser(claim.userId) : undefined;
  }

  /**
   * Creates a user. The e-mail is claimed first with a conditional write, so two users can never
   * share an address even when created concurrently.
   */
  async createUser(record: UserRecord): Promise<void> {
    await this.create({ ...keys.userEmail(record.email), userId: record.userId, email: record.email.toLowerCase() }, 'User with this e-mail');
    await this.create({ ...keys.user(record.userId), ...record }, 'User');
  }

  // ------------------------------------------------------------ workspaces

  async getWorkspace(workspaceId: string): Promise<WorkspaceRecord | undefined> {
    const item = await this.get(keys.workspace(workspaceId));
    return item && v.parse(WorkspaceRecord, item);
  }

  async listProductSurfaces(workspaceId: string): Promise<ProductSurfaceRecord[]> {
    const items = await this.queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.workspace(workspaceId).pk, ':prefix': prefixes.productSurface },
    });
    return items.map((item) => v.parse(ProductSurfaceRecord, item)).sort((a, b) => a.name.localeCompare(b.name));
  }

  /** A product surface of this workspace, or undefined (releases validate productSurfaceId with it). */
  async getProductSurface(workspaceId: string, productSurfaceId: string): Promise<ProductSurfaceRecord | undefined> {
    const item = await this.get(keys.productSurface(workspaceId, productSurfaceId));
    return item && v.parse(ProductSurfaceRecord, item);
  }

  async putProductSurface(record: ProductSurfaceRecord): Promise<void> {
    await this.create({ ...keys.productSurface(record.workspaceId, record.productSurfaceId), ...record }, 'Product surface');
  }
}
