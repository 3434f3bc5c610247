import { S3Client } from '@aws-sdk/client-s3';
import { clientConfig, unset, type AwsClientSettings } from '#shared/aws/settings.ts';
import { traceAwsCalls } from '#shared/aws/tracing.ts';

/**
 * Path-style on a local stand-in. Checksums only where S3 requires them: otherwise streamed uploads
 * carry chunk framing on S3-compatible servers and presigned PUT URLs pin the CRC32 of an empty body.
 */
export function s3Client(settings: AwsClientSettings): S3Client {
  const client = new S3Client({
    ...clientConfig(settings),
    forcePathStyle: settings.endpoint !== undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // S3's own lookups, at their defaults (see clientConfig()).
    disableS3ExpressSessionAuth: false,
    useArnRegion: unset,
    sigv4aSigningRegionSet: unset,
  });
  traceAwsCalls(client);
  return client;
}

/** As CopyObject's CopySource takes it: URI-encoded, the slashes kept. */
export const copySource = (bucket: string, key: string): string => `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
