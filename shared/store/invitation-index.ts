/** Invitations written before the address index (gsi1) existed, which sign-in reads, so missing from it; for operators only. */
import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { InvitationRecord } from '#shared/schemas/identity.ts';
import type { IdentityStoreDeps } from '#shared/store/identity-items.ts';
import { prefixes } from '#shared/store/keys.ts';
import { guard } from '#shared/store/outage.ts';

export class InvitationIndexStore {
  private readonly dynamo: DynamoDBDocumentClient;
  private readonly table: string;

  constructor(deps: IdentityStoreDeps) {
    this.dynamo = deps.dynamo;
    this.table = deps.table;
  }

  /** Every invitation without an address index entry, expired ones included, page after page of a whole-table scan. */
  async listUnindexedInvitations(): Promise<InvitationRecord[]> {
    const out: InvitationRecord[] = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await guard('The workspace table', () =>
        this.dynamo.send(
          new ScanCommand({
            TableName: this.table,
            FilterExpression: 'begins_with(sk, :prefix) AND attribute_not_exists(gsi1pk)',
            ExpressionAttributeValues: { ':prefix': prefixes.invitation },
            ExclusiveStartKey,
          }),
        ),
      );
      out.push(...(page.Items ?? []).map((item) => v.parse(InvitationRecord, item)));
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    return out;
  }
}
