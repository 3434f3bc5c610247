/**
 * Key layout of the single-table workspace store; indexKeys are gsi1's reverse lookups. A workspace's items share its
 * partition, so no query can cross workspaces; credentials are keyed by their secret's SHA-256 (one GetItem).
 */
export const keys = {
  asset: (workspaceId: string, assetId: string) => ({ pk: `WS#${workspaceId}`, sk: `ASSET#${assetId}` }),
  /** Release ids are UUIDv7: the sort key orders releases by creation time. */
  release: (workspaceId: string, releaseId: string) => ({ pk: `WS#${workspaceId}`, sk: `RELEASE#${releaseId}` }),
  sourceApp: (workspaceId: string, sourceAppId: string) => ({ pk: `WS#${workspaceId}`, sk: `SOURCEAPP#${sourceAppId}` }),
  /** Where an app's intake finds its workspace: the intake address names the app alone. */
  sourceAppAddress: (sourceAppId: string) => ({ pk: `SOURCEAPP#${sourceAppId}`, sk: 'ADDRESS' }),
  /** Which release an external one became: one per app's external id, provider and release id. */
  intakeRelease: (workspaceId: string, externalHash: string) => ({ pk: `WS#${workspaceId}`, sk: `INTAKE#${externalHash}` }),
  /** A shot's name is unique in its release; names have no `#` (schemas/shots.ts). */
  shot: (workspaceId: string, releaseId: string, name: string) => ({ pk: `WS#${workspaceId}`, sk: `SHOT#${releaseId}#${name}` }),
  /** The client's key is hashed: it can be up to 128 arbitrary characters. */
  idempotency: (workspaceId: string, scope: string, keyHash: string) => ({ pk: `WS#${workspaceId}`, sk: `IDEMPOTENCY#${scope}#${keyHash}` }),
  user: (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  userEmail: (email: string) => ({ pk: `EMAIL#${email.trim().toLowerCase()}`, sk: 'USER' }),
  organization: (organizationId: string) => ({ pk: `ORG#${organizationId}`, sk: 'ORG' }),
  membership: (organizationId: string, userId: string) => ({ pk: `ORG#${organizationId}`, sk: `MEMBER#${userId}` }),
  invitation: (organizationId: string, invitationId: string) => ({ pk: `ORG#${organizationId}`, sk: `INVITE#${invitationId}` }),
  apiKey: (keyHash: string) => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  /** A pointer from the organization to one of its keys, readable with a strongly consistent query. */
  apiKeyRef: (organizationId: string, keyId: string) => ({ pk: `ORG#${organizationId}`, sk: `KEYREF#${keyId}` }),
  session: (tokenHash: string) => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' }),
  /** One live code per address (its hash, see hashAddress): a new code replaces the last. */
  emailCode: (addressHash: string) => ({ pk: `EMAILCODE#${addressHash}`, sk: 'CODE' }),
  /** By the credential id an authenticator answers with, so a sign-in is one GetItem. */
  passkey: (credentialId: string) => ({ pk: `PASSKEY#${credentialId}`, sk: 'PASSKEY' }),
  challenge: (challenge: string) => ({ pk: `CHALLENGE#${challenge}`, sk: 'CHALLENGE' }),
  workspace: (workspaceId: string) => ({ pk: `WS#${workspaceId}`, sk: 'WORKSPACE' }),
  productSurface: (workspaceId: string, productSurfaceId: string) => ({ pk: `WS#${workspaceId}`, sk: `SURFACE#${productSurfaceId}` }),
};

/** The attribute of an API-key item the authenticator stamps; the only one its grant lets it set. */
export const API_KEY_LAST_USED = 'lastUsedAt';

export const prefixes = {
  member: 'MEMBER#',
  invitation: 'INVITE#',
  productSurface: 'SURFACE#',
  release: 'RELEASE#',
  sourceApp: 'SOURCEAPP#',
  shotsOf: (releaseId: string) => `SHOT#${releaseId}#`,
  apiKey: 'APIKEY#',
  apiKeyRef: 'KEYREF#',
  session: 'SESSION#',
  passkey: 'PASSKEY#',
  organization: 'ORG#',
};

/** gsi1 entries: the reverse lookups (a user's memberships, sessions and passkeys, an organization's keys, an address's invitations). */
export const indexKeys = {
  membershipOfUser: (userId: string, organizationId: string) => ({ gsi1pk: `USER#${userId}`, gsi1sk: `ORG#${organizationId}` }),
  apiKeyOfOrganization: (organizationId: string, keyId: string) => ({ gsi1pk: `ORG#${organizationId}`, gsi1sk: `APIKEY#${keyId}` }),
  sessionOfUser: (userId: string, sessionId: string) => ({ gsi1pk: `USER#${userId}`, gsi1sk: `SESSION#${sessionId}` }),
  passkeyOfUser: (userId: string, passkeyId: string) => ({ gsi1pk: `USER#${userId}`, gsi1sk: `PASSKEY#${passkeyId}` }),
  invitationOfEmail: (email: string, invitationId: string) => ({ gsi1pk: `INVITEE#${email.trim().toLowerCase()}`, gsi1sk: `INVITE#${invitationId}` }),
  inviteePartition: (email: string) => `INVITEE#${email.trim().toLowerCase()}`,
  userPartition: (userId: string) => `USER#${userId}`,
  organizationPartition: (organizationId: string) => `ORG#${organizationId}`,
};
