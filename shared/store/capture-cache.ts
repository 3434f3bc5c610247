/**
 * The capture cache: a table item per (URL, device, scheme, options) pointing at the PNG in the cache bucket, as captures
 * outgrow DynamoDB items. Reads treat a past `expiresAt` as absent: TTL deletion lags, and the local stand-in has none.
 */
import { createHash } from 'node:crypto';
import { DeleteObjectsCommand, GetObjectCommand, NoSuchKey, PutObjectCommand, type DeleteObjectsCommandOutput, type S3Client } from '@aws-sdk/client-s3';
import { BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { BatchWriteCommandOutput, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { UpstreamUnavailableError } from '#shared/errors.ts';
import { guard } from '#shared/store/outage.ts';
import { BUCKETS } from '#shared/resources.ts';
import type { CaptureReport } from '#shared/schemas/screenshot.ts';
import type { Redaction } from '#shared/schemas/redaction.ts';

export type CacheDevice = 'desktop' | 'mobile';
export type CacheScheme = 'light' | 'dark';

/** What a capture is cached under; `url` is the normalised target URL. */
export interface CaptureKey {
  url: string;
  deviceType: CacheDevice;
  colorScheme: CacheScheme;
  /** A hash of the capture options that differ from the defaults; absent when none do. */
  variant?: string;
}

export interface CaptureExtent {
  truncated: boolean;
  /** CSS pixels. */
  capturedHeight: number;
  /** CSS pixels; only when an element was cut in width. */
  capturedWidth?: number;
}

export interface CachedCapture {
  png: Uint8Array;
  /** The backend that produced the image. */
  strategy: string;
  /** Epoch milliseconds of the capture. */
  capturedAt: number;
  /** The drawn document's address, where a redirect or a click took the page off the key's. */
  drawnUrl?: string;
  extent?: CaptureExtent;
  report?: CaptureReport;
  redactions?: Redaction[];
}

export interface CaptureCache {
  /** The live entry for the key, or undefined (missing, expired, or its object is gone). */
  get(key: CaptureKey, now?: number): Promise<CachedCapture | undefined>;
  put(key: CaptureKey, capture: Omit<CachedCapture, 'capturedAt'>, ttlSeconds: number, now?: number): Promise<void>;
  /** Removes every entry of one normalised URL (all devices, schemes and options); returns how many existed. */
  purgeUrl(url: string): Promise<number>;
  purgeAll(): Promise<number>;
}

/** DeleteObjects attempts per batch before the keys S3 keeps failing on fail the purge. */
const DELETE_ATTEMPTS = 3;
const DELETE_BACKOFF_MS = 100;
/** S3's per-key errors that mean "try again" rather than "this will never work" (AccessDenied, say). */
const TRANSIENT_DELETE_ERRORS = new Set(['InternalError', 'SlowDown', 'ServiceUnavailable', 'RequestTimeout', 'OperationAborted']);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The purge's failure when S3 would not delete some objects: 503 if S3 called it transient, else a 500 to look into. */
function objectsNotDeleted(count: number, errors: NonNullable<DeleteObjectsCommandOutput['Errors']>): Error {
  const first = errors[0];
  const detail = `${count} cached capture object${count === 1 ? '' : 's'} could not be deleted (${first?.Code ?? 'no code'}: ${first?.Message ?? 'no message'})`;
  if (errors.every((error) => TRANSIENT_DELETE_ERRORS.has(error.Code ?? ''))) {
    return new UpstreamUnavailableError(`The capture cache's storage is temporarily unavailable: ${detail}; retry the purge with back-off.`);
  }
  return new Error(`Cache purge: ${detail}`);
}

const DEVICES: readonly CacheDevice[] = ['desktop', 'mobile'];
const SCHEMES: readonly CacheScheme[] = ['light', 'dark'];
const OBJECT_PREFIX = BUCKETS.cache.prefixes.captures;

/** A URL can be longer than a partition key may be: keys use its SHA-256. */
function urlHash(url: string): string {
  return createHash('sha256').update(url, 'utf8').digest('hex');
}

/** Requests without options keep the key they had before options existed. */
export function itemKey(key: CaptureKey): string {
  return `CAPTURE#${urlHash(key.url)}#${key.deviceType}#${key.colorScheme}${key.variant ? `#${key.variant}` : ''}`;
}

/** One object per key, overwritten on refresh: no orphans, and S3 reads never see half an object. */
export function objectKey(key: CaptureKey): string {
  return `${OBJECT_PREFIX}${urlHash(key.url)}/${key.deviceType}-${key.colorScheme}${key.variant ? `-${key.variant}` : ''}.png`;
}

interface Item {
  pk: string;
  url: string;
  deviceType: CacheDevice;
  colorScheme: CacheScheme;
  variant?: string;
  objectKey: string;
  strategy: string;
  capturedAt: number;
  bytes: number;
  /** 'express' when the object is in the Express One Zone bucket; absent, the cache bucket. */
  objectBucket?: 'express';
  drawnUrl?: string;
  extent?: CaptureExtent;
  report?: CaptureReport;
  redactions?: Redaction[];
  /** Epoch seconds. */
  expiresAt: number;
}

export interface CaptureCacheDeps {
  dynamo: DynamoDBDocumentClient;
  s3: S3Client;
  table: string;
  bucket: string;
  /** An S3 Express One Zone directory bucket for PNGs under `maxBytes`, where they cost less per miss. */
  express?: { bucket: string; maxBytes: number };
}

/** The cache on a DynamoDB table (partition key `pk`, TTL `expiresAt`), an S3 bucket and, for small PNGs, a directory bucket. */
export function s3DynamoCaptureCache(deps: CaptureCacheDeps): CaptureCache {
  const { dynamo, s3, table, bucket, express } = deps;
  const buckets = [bucket, ...(express ? [express.bucket] : [])];
  const bucketOf = (item: Pick<Item, 'objectBucket'>) => (item.objectBucket === 'express' ? express?.bucket : bucket);

  // DeleteObjects answers 200 naming the keys it could not delete; still failing they fail the purge, which deletes objects
  // before items so an answer means the bytes are gone. Every bucket: a refresh of another size may have left one there.
  const deleteObjects = (keys: string[]) => Promise.all(buckets.map((name) => deleteObjectsIn(name, keys)));
  const deleteObjectsIn = async (name: string, keys: string[]) => {
    for (let start = 0; start < keys.length; start += 1000) {
      let pending = keys.slice(start, start + 1000);
      let errors: NonNullable<DeleteObjectsCommandOutput['Errors']> = [];
      for (let attempt = 0; pending.length > 0 && attempt < DELETE_ATTEMPTS; attempt += 1) {
        if (attempt > 0) await sleep(DELETE_BACKOFF_MS * 2 ** (attempt - 1));
        const result = await s3.send(new DeleteObjectsCommand({ Bucket: name, Delete: { Objects: pending.map((Key) => ({ Key })), Quiet: true } }));
        errors = result.Errors ?? [];
        const failed = new Set(errors.map((error) => error.Key));
        pending = pending.filter((key) => failed.has(key));
      }
      if (pending.length > 0) throw objectsNotDeleted(pending.length, errors);
    }
  };

  const itemsOfUrl = async (url: string) => {
    const found: Pick<Item, 'pk' | 'objectKey'>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await dynamo.send(
        new ScanCommand({
          TableName: table,
          ConsistentRead: true,
          FilterExpression: '#url = :url',
          ExpressionAttributeNames: { '#url': 'url' },
          ExpressionAttributeValues: { ':url': url },
          ProjectionExpression: 'pk, objectKey',
          ExclusiveStartKey: startKey,
        }),
      );
      found.push(...((page.Items ?? []) as Pick<Item, 'pk' | 'objectKey'>[]));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return found;
  };

  return {
    get: (key, now = Date.now()) =>
      guard('The capture cache', async () => {
        const { Item } = await dynamo.send(new GetCommand({ TableName: table, Key: { pk: itemKey(key) } }));
        const item = Item as Item | undefined;
        const from = item && bucketOf(item);
        // An object in a directory bucket this container was not given is out of reach: a miss.
        if (!item || !from || item.url !== key.url || item.expiresAt * 1000 <= now) return undefined;
        try {
          const object = await s3.send(new GetObjectCommand({ Bucket: from, Key: item.objectKey }));
          const png = await object.Body!.transformToByteArray();
          return {
            png,
            strategy: item.strategy,
            capturedAt: item.capturedAt,
            ...(item.drawnUrl ? { drawnUrl: item.drawnUrl } : {}),
            ...(item.extent ? { extent: item.extent } : {}),
            ...(item.report ? { report: item.report } : {}),
            ...(item.redactions ? { redactions: item.redactions } : {}),
          };
        } catch (error) {
          // The bucket's lifecycle may have removed the object before the item expired: a miss.
          if (error instanceof NoSuchKey || (error as Error).name === 'NoSuchKey') return undefined;
          throw error;
        }
      }),

    put: (key, capture, ttlSeconds, now = Date.now()) =>
      guard('The capture cache', async () => {
        const item: Item = {
          pk: itemKey(key),
          url: key.url,
          deviceType: key.deviceType,
          colorScheme: key.colorScheme,
          ...(key.variant ? { variant: key.variant } : {}),
          objectKey: objectKey(key),
          strategy: capture.strategy,
          capturedAt: now,
          bytes: capture.png.byteLength,
          ...(express && capture.png.byteLength < express.maxBytes ? { objectBucket: 'express' as const } : {}),
          ...(capture.drawnUrl ? { drawnUrl: capture.drawnUrl } : {}),
          ...(capture.extent ? { extent: capture.extent } : {}),
          ...(capture.report ? { report: capture.report } : {}),
          ...(capture.redactions ? { redactions: capture.redactions } : {}),
          expiresAt: Math.floor(now / 1000) + ttlSeconds,
        };
        // Object first: an item must never point at bytes that are not there yet.
        await s3.send(new PutObjectCommand({ Bucket: bucketOf(item), Key: item.objectKey, Body: capture.png, ContentType: 'image/png' }));
        await dynamo.send(new PutCommand({ TableName: table, Item: item }));
      }),

    // Option variants are open-ended, so their items are found by URL: a Scan, as purges are rare
    // maintenance. The option-less keys are deleted by name too, whatever the Scan saw.
    purgeUrl: (url) =>
      guard('The capture cache', async () => {
        const plain = DEVICES.flatMap((deviceType) =>
          SCHEMES.map((colorScheme) => ({ pk: itemKey({ url, deviceType, colorScheme }), objectKey: objectKey({ url, deviceType, colorScheme }) })),
        );
        const variants = await itemsOfUrl(url);
        const entries = new Map([...plain, ...variants].map((entry) => [entry.pk, entry.objectKey]));
        await deleteObjects([...new Set(entries.values())]);
        const removed = await Promise.all(
          [...entries.keys()].map(async (pk) => {
            const { Attributes } = await dynamo.send(new DeleteCommand({ TableName: table, Key: { pk }, ReturnValues: 'ALL_OLD' }));
            return Attributes !== undefined;
          }),
        );
        return removed.filter(Boolean).length;
      }),

    purgeAll: () =>
      guard('The capture cache', async () => {
        let purged = 0;
        let startKey: Record<string, unknown> | undefined;
        do {
          const page = await dynamo.send(new ScanCommand({ TableName: table, ProjectionExpression: 'pk, objectKey', ExclusiveStartKey: startKey }));
          const items = (page.Items ?? []) as Pick<Item, 'pk' | 'objectKey'>[];
          await deleteObjects(items.map((item) => item.objectKey).filter(Boolean));
          for (let start = 0; start < items.length; start += 25) {
            const batch = items.slice(start, start + 25);
            let unprocessed: unknown[] | undefined = batch.map((item) => ({ DeleteRequest: { Key: { pk: item.pk } } }));
            // BatchWrite may hand back part of a batch under load; retry what it did not do.
            for (let attempt = 0; unprocessed?.length && attempt < 5; attempt += 1) {
              const result: BatchWriteCommandOutput = await dynamo.send(new BatchWriteCommand({ RequestItems: { [table]: unprocessed as never } }));
              unprocessed = result.UnprocessedItems?.[table];
            }
            if (unprocessed?.length) throw new Error(`Cache purge left ${unprocessed.length} items undeleted`);
          }
          purged += items.length;
          startKey = page.LastEvaluatedKey;
        } while (startKey);
        return purged;
      }),
  };
}
