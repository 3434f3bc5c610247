/**
 * Where the multipart middleware (multipart.ts) leaves a parsed form for the validation that
 * follows it. Apart from the parser so that validation, which every function bundles, reads the
 * form without carrying busboy.
 */

type FormInternal = { form?: { value: unknown } };

/** Leaves the parsed form (undefined for an absent optional body) on the request. */
export function leaveForm(request: { internal: object }, value: unknown): void {
  (request.internal as FormInternal).form = { value };
}

/** The form the multipart middleware read for this request (undefined for an absent optional body). */
export function parsedForm(request: { internal: object }): unknown {
  const form = (request.internal as FormInternal).form;
  if (!form) throw new Error('The multipartBody middleware has not run for this request');
  return form.value;
}
