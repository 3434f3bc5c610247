/** The stateful resources, defined once for the CDK stack and the local runtime; `env` is the variable giving functions the name (or URL). */
export interface TableDef {
  env: string;
  localName: string;
  partitionKey: string;
  sortKey?: string;
  indexes: readonly { name: string; partitionKey: string; sortKey?: string }[];
  /** Epoch-seconds TTL attribute; readers also treat a past value as absent, as DynamoDB deletes late. */
  ttlAttribute?: string;
  pointInTimeRecovery: boolean;
}

export interface BucketDef {
  env: string;
  localName: string;
  browserCors: boolean;
  /** S3 expires an object at the first midnight UTC at least this many whole days after it was written. */
  expireAfterDays?: number;
  expirePrefixes?: readonly { prefix: string; days: number }[];
  /** Where the code keeps objects: every key starts with one of these, and grants name them. */
  prefixes: Readonly<Record<string, string>>;
}

export interface QueueDef {
  env: string;
  localName: string;
  visibilityTimeoutSeconds: number;
  /** How long a message may wait (default SQS's 4 days): no longer than what it carries is of use. */
  retentionSeconds?: number;
  deadLetter: { localName: string; maxReceiveCount: number; retentionDays: number };
  worker: {
    handler: string;
    batchSize: number;
    maxBatchingWindowSeconds: number;
    memory: number;
    timeout: number;
    /** The most invocations the queue keeps busy at once (the event source's maximum concurrency, 2 or more). */
    maxConcurrency?: number;
    /** Batches the local runtime's poller works on at once (default 1). */
    localConcurrency?: number;
    /** As a route row's: installed packages, the clean-capture files, the capture fonts and Chromium's pack (the capture function's set-up). */
    nodeModules?: readonly string[];
    cleanCapture?: boolean;
    fonts?: boolean;
    chromiumPack?: boolean;
  };
}

export const TABLES = {
  workspace: {
    env: 'WORKSPACE_TABLE',
    localName: 'easel-workspace',
    partitionKey: 'pk',
    sortKey: 'sk',
    indexes: [{ name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' }],
    ttlAttribute: 'expiresAt',
    pointInTimeRecovery: true,
  },
  cache: {
    env: 'CACHE_TABLE',
    localName: 'easel-cache',
    partitionKey: 'pk',
    indexes: [],
    ttlAttribute: 'expiresAt',
    pointInTimeRecovery: false,
  },
  rate: {
    env: 'RATE_TABLE',
    localName: 'easel-rate',
    partitionKey: 'pk',
    indexes: [],
    ttlAttribute: 'expiresAt',
    pointInTimeRecovery: false,
  },
} as const satisfies Record<string, TableDef>;

/** Presigned PUTs write to uploads/…; completion copies verified bytes to workspaces/…. */
const ASSET_PREFIXES = { uploads: 'uploads/', objects: 'workspaces/' } as const;

export const BUCKETS = {
  assets: {
    env: 'ASSETS_BUCKET',
    localName: 'easel-assets',
    browserCors: true,
    expirePrefixes: [{ prefix: ASSET_PREFIXES.uploads, days: 1 }],
    prefixes: ASSET_PREFIXES,
  },
  // The shortest expiry S3 has: an object outlives its hour-long cache entry by 23-47 hours.
  cache: { env: 'CACHE_BUCKET', localName: 'easel-cache', browserCors: false, expireAfterDays: 1, prefixes: { captures: 'captures/' } },
} as const satisfies Record<string, BucketDef>;

/** The S3 Express One Zone bucket a `cacheZone` deployment adds for PNGs under `maxBytes`, where a miss costs less (docs/performance.md). */
export const EXPRESS_CACHE = { env: 'CACHE_EXPRESS_BUCKET', maxBytes: 512 * 1024, expireAfterDays: BUCKETS.cache.expireAfterDays } as const;

export const QUEUES = {
  deletion: {
    env: 'DELETION_QUEUE_URL',
    localName: 'easel-deletion',
    // AWS advises six times the worker timeout, so a retried batch never overlaps its first try.
    visibilityTimeoutSeconds: 180,
    deadLetter: { localName: 'easel-deletion-dlq', maxReceiveCount: 5, retentionDays: 14 },
    worker: {
      handler: 'functions/assets/process-deletion.ts',
      batchSize: 10,
      maxBatchingWindowSeconds: 1,
      memory: 256,
      timeout: 30,
    },
  },
  /** E-mail sign-in: the API only queues the address, so its answer takes the same time whether or not a code is sent. */
  mail: {
    env: 'MAIL_QUEUE_URL',
    localName: 'easel-mail',
    visibilityTimeoutSeconds: 60,
    // A code lives ten minutes: a later delivery is of no use.
    retentionSeconds: 600,
    deadLetter: { localName: 'easel-mail-dlq', maxReceiveCount: 3, retentionDays: 1 },
    worker: {
      handler: 'functions/auth/send-sign-in-code.ts',
      batchSize: 10,
      maxBatchingWindowSeconds: 0,
      memory: 256,
      timeout: 10,
    },
  },
  shots: {
    env: 'SHOT_QUEUE_URL',
    localName: 'easel-shots',
    visibilityTimeoutSeconds: 360,
    // A dependency's failure (a browser that cannot start, S3 down) gets three tries; a page's own is a failed shot at the first.
    deadLetter: { localName: 'easel-shots-dlq', maxReceiveCount: 3, retentionDays: 14 },
    worker: {
      handler: 'functions/releases/process-shot.ts',
      // One capture per invocation: concurrency is counted in browsers.
      batchSize: 1,
      maxBatchingWindowSeconds: 0,
      // As the capture function: Chromium's floor is 1.6 GB; one vCPU.
      memory: 1769,
      // The capture time-out (at most 25 s), the shrink of a large picture, storing and comparing.
      timeout: 60,
      // So a run of a hundred shots cannot take every browser of the account.
      maxConcurrency: 10,
      localConcurrency: 2,
      nodeModules: ['@sparticuz/chromium', 'sharp'],
      cleanCapture: true,
      fonts: true,
      chromiumPack: true,
    },
  },
} as const satisfies Record<string, QueueDef>;

export type TableName = keyof typeof TABLES;
export type BucketName = keyof typeof BUCKETS;
export type QueueName = keyof typeof QUEUES;
