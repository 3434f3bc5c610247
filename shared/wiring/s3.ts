/** The S3 client of this container (limits: sdk-limits.ts). */
import { S3Client } from '@aws-sdk/client-s3';
import { config } from '#shared/config.ts';
import { SDK_LIMITS, requestHandler } from '#shared/wiring/sdk-limits.ts';

const cfg = config();

// Checksums only when S3 requires them: otherwise streamed uploads carry chunk framing on
// S3-compatible servers and presigned PUT URLs pin the CRC32 of an empty body (FACTS.md).
export const s3 = new S3Client({
  region: cfg.region,
  endpoint: cfg.endpoints.s3,
  forcePathStyle: cfg.endpoints.s3 !== undefined,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
  maxAttempts: SDK_LIMITS.maxAttempts,
  requestHandler,
});
