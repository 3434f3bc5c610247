/**
 * Proves that no secret reaches a log line or a stored item, across the whole integration suite:
 * every test runtime (./local.ts) collects the log lines of its process at every level, and when
 * it stops, every table item, S3 object and queue message of its embedded backends and every
 * collected line are searched for API keys, session tokens, webhook secrets and the runtime's internal secret.
 * A runtime that finds one fails its stop (and so its test file), naming where it was found.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DynamoDBClient, ListTablesCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, ListBucketsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { hashSecret } from '#shared/identity/credentials.ts';
import { setLogTap } from '#shared/log.ts';
import type { LocalRuntime } from '#infra/local/runtime.ts';

/** Anything shaped like an API key or a session token (the formats of #shared/identity/credentials.ts, at any length). */
const CREDENTIAL_SHAPE = /easel_(sk|st)_[1-9A-HJ-NP-Za-km-z]{20,}/g;

/** A webhook signing secret as `npm run admin -- new-webhook-secret` makes one (Standard Webhooks' form). */
const WEBHOOK_SECRET_SHAPE = /whsec_[A-Za-z0-9+/]{20,}/g;

/** One secret found where none may be. */
export interface Finding {
  /** Where: a log line, a table item, an object or a queue message. */
  where: string;
  /** What, without the secret itself: "API key easel_sk_4f…". */
  what: string;
}

const lines: string[] = [];
let tapped = false;

/**
 * Starts collecting every log line of this process, whatever LOG_LEVEL says (debug lines are the
 * likeliest to carry a stray credential). Test runtimes call it before they start; later calls do nothing.
 */
export function collectLogLines(): void {
  if (tapped) return;
  tapped = true;
  const previous = setLogTap((line) => {
    lines.push(line);
    previous?.(line);
  });
}

/** The log lines collected so far in this process. */
export function collectedLogLines(): readonly string[] {
  return lines;
}

const mask = (secret: string) => `${secret.slice(0, 12)}…`;

/**
 * The secrets in a text. `credentials` limits shaped matches to real ones (by their SHA-256, as the
 * table stores them); without it every credential-shaped string counts. Literals (the internal
 * secret) count wherever they appear.
 */
export function secretsIn(text: string, literals: readonly string[], credentials?: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(CREDENTIAL_SHAPE)) {
    if (credentials && !credentials.has(hashSecret(match[0]))) continue;
    found.push(`${match[1] === 'sk' ? 'API key' : 'session token'} ${mask(match[0])}`);
  }
  for (const match of text.matchAll(WEBHOOK_SECRET_SHAPE)) found.push(`webhook secret ${mask(match[0])}`);
  for (const literal of literals) if (text.includes(literal)) found.push('the internal secret');
  return found;
}

/** Every line that holds a secret; a client's credential, valid or not, must never be logged. */
export function scanLogLines(logLines: readonly string[], literals: readonly string[]): Finding[] {
  return logLines.flatMap((line, index) => {
    const msg = /"msg":"([^"]*)"/.exec(line)?.[1] ?? '?';
    return secretsIn(line, literals).map((what) => ({ where: `log line ${index + 1} (msg "${msg}")`, what }));
  });
}

/** Text of a DynamoDB attribute value, binary included (read as latin1), for searching. */
function textOf(value: AttributeValue | undefined): string {
  if (!value) return '';
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return value.N;
  if (value.B !== undefined) return Buffer.from(value.B).toString('latin1');
  if (value.SS) return value.SS.join('\n');
  if (value.NS) return value.NS.join('\n');
  if (value.BS) return value.BS.map((item) => Buffer.from(item).toString('latin1')).join('\n');
  if (value.L) return value.L.map(textOf).join('\n');
  if (value.M)
    return Object.entries(value.M)
      .map(([name, item]) => `${name}\n${textOf(item)}`)
      .join('\n');
  return '';
}

async function allItems(client: DynamoDBClient): Promise<{ table: string; item: Record<string, AttributeValue> }[]> {
  const out: { table: string; item: Record<string, AttributeValue> }[] = [];
  const { TableNames = [] } = await client.send(new ListTablesCommand({}));
  for (const table of TableNames) {
    let ExclusiveStartKey: Record<string, AttributeValue> | undefined;
    do {
      const page = await client.send(new ScanCommand({ TableName: table, ExclusiveStartKey }));
      for (const item of page.Items ?? []) out.push({ table, item });
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
  }
  return out;
}

async function allObjects(client: S3Client): Promise<{ bucket: string; key: string; text: string }[]> {
  const out: { bucket: string; key: string; text: string }[] = [];
  const { Buckets = [] } = await client.send(new ListBucketsCommand({}));
  for (const { Name: bucket } of Buckets) {
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }));
      for (const { Key: key } of page.Contents ?? []) {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        const body = Buffer.from(await object.Body!.transformToByteArray()).toString('latin1');
        out.push({ bucket: bucket!, key: key!, text: `${JSON.stringify(object.Metadata ?? {})}\n${body}` });
      }
      ContinuationToken = page.NextContinuationToken;
    } while (ContinuationToken);
  }
  return out;
}

/** Messages of every queue, in flight and dead-lettered included, from the embedded queue's own store. */
function allMessages(dataDir: string): { queue: string; messageId: string; text: string }[] {
  const file = join(dataDir, 'sqs', 'fauxqs.db');
  if (!existsSync(file)) return [];
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare('SELECT queue_name, message_id, body, message_attributes FROM sqs_messages').all() as Record<string, string>[];
    return rows.map((row) => ({ queue: row.queue_name!, messageId: row.message_id!, text: `${row.body}\n${row.message_attributes}` }));
  } finally {
    db.close();
  }
}

const keyOf = (item: Record<string, AttributeValue>) =>
  JSON.stringify(Object.fromEntries(['pk', 'sk'].filter((name) => item[name]).map((name) => [name, textOf(item[name])])));

/**
 * Every secret stored in the runtime's embedded backends: credential-shaped strings that are real
 * credentials of its table (a key or session whose hash it holds; a client may well write such a
 * string into a release it owns), and the internal secret anywhere.
 */
export async function scanStored(runtime: Pick<LocalRuntime, 'env' | 'dataDir' | 'embedded'>): Promise<Finding[]> {
  const findings: Finding[] = [];
  const literals = runtime.env.INTERNAL_SECRET ? [runtime.env.INTERNAL_SECRET] : [];
  const credentials = { accessKeyId: 'audit', secretAccessKey: 'audit' };
  const region = runtime.env.AWS_REGION ?? 'us-east-1';
  const hashes = new Set<string>();
  if (runtime.embedded.dynamodb) {
    const client = new DynamoDBClient({ region, endpoint: runtime.embedded.dynamodb.endpoint, credentials });
    try {
      const items = await allItems(client);
      for (const { item } of items) {
        for (const name of ['keyHash', 'tokenHash']) if (item[name]?.S) hashes.add(item[name].S);
      }
      for (const { table, item } of items) {
        for (const what of secretsIn(textOf({ M: item }), literals, hashes)) findings.push({ where: `DynamoDB ${table} item ${keyOf(item)}`, what });
      }
    } finally {
      client.destroy();
    }
  }
  if (runtime.embedded.s3) {
    const client = new S3Client({ region, endpoint: runtime.embedded.s3.endpoint, forcePathStyle: true, credentials });
    try {
      for (const { bucket, key, text } of await allObjects(client)) {
        for (const what of secretsIn(text, literals, hashes)) findings.push({ where: `S3 object ${bucket}/${key}`, what });
      }
    } finally {
      client.destroy();
    }
  }
  if (runtime.embedded.sqs) {
    for (const { queue, messageId, text } of allMessages(runtime.dataDir)) {
      for (const what of secretsIn(text, literals, hashes)) findings.push({ where: `SQS queue ${queue} message ${messageId}`, what });
    }
  }
  return findings;
}

/** Fails with every finding, one a line. */
export function assertNoSecrets(findings: readonly Finding[]): void {
  if (findings.length === 0) return;
  throw new Error(`Secrets found where none may be:\n${findings.map((finding) => `  - ${finding.where}: ${finding.what}`).join('\n')}`);
}

/**
 * The stop of an audited runtime: scans what its backends store (starting any a test left
 * stopped), stops it, then scans every log line collected so far; throws if anything was found.
 * Safe to call more than once: later calls wait for the first.
 */
export function auditedStop(runtime: LocalRuntime): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () =>
    (stopping ??= (async () => {
      let stored: Finding[] = [];
      try {
        for (const backend of Object.values(runtime.embedded)) await backend.start();
        stored = await scanStored(runtime);
      } finally {
        await runtime.stop();
      }
      const literals = runtime.env.INTERNAL_SECRET ? [runtime.env.INTERNAL_SECRET] : [];
      assertNoSecrets([...stored, ...scanLogLines(lines, literals)]);
    })());
}
