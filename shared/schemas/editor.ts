import * as v from 'valibot';

/** A built file's name, looked up, never joined to a path. */
export const EditorAssetParams = v.object({
  file: v.pipe(
    v.string(),
    v.maxLength(100, 'must have at most 100 characters'),
    v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'must be a file name of letters, digits, dots, dashes and underscores'),
    v.description('Name of a built editor file, with its content hash.'),
  ),
});
export type EditorAssetParams = v.InferOutput<typeof EditorAssetParams>;
