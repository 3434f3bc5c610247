/** Hands the parsed multipart form to validation; apart from the parser so validation does not bundle busboy. */

type FormInternal = { form?: { value: unknown } };

export function leaveForm(request: { internal: object }, value: unknown): void {
  (request.internal as FormInternal).form = { value };
}

/** Undefined for an absent optional body. */
export function parsedForm(request: { internal: object }): unknown {
  const form = (request.internal as FormInternal).form;
  if (!form) throw new Error('The multipartBody middleware has not run for this request');
  return form.value;
}
