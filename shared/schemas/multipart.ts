import * as v from 'valibot';
import type { MultipartFile } from '#shared/route-types.ts';

function isFile(value: unknown): value is MultipartFile {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Buffer.isBuffer((value as MultipartFile).content) &&
    typeof (value as MultipartFile).mimetype === 'string'
  );
}

/** One file part: a text field or a repeated name fails with `message`. Documented as OpenAPI describes uploads. */
export function filePart(message: string, description: string) {
  return v.pipe(
    v.custom<MultipartFile>(isFile, message),
    v.metadata({ type: 'string', contentMediaType: 'application/octet-stream' }),
    v.description(description),
  );
}
