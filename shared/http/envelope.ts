import { HttpError, InternalError } from '#shared/errors.ts';

export interface Envelope {
  error: string;
  code: string;
  message: string;
  hint: string;
  status: number;
  documentation: string;
  [extra: string]: unknown;
}

/** The one place an error becomes the envelope; anything not an HttpError is a generic internal error. */
export function toEnvelope(error: unknown, publicBaseUrl: string): { status: number; headers: Record<string, string>; body: Envelope } {
  const known = error instanceof HttpError ? error : new InternalError(error);
  const body: Envelope = {
    error: known.message,
    code: known.code,
    message: known.message,
    hint: known.hint,
    status: known.status,
    documentation: `${publicBaseUrl}/docs/errors#${known.code}`,
    ...known.extra,
  };
  return { status: known.status, headers: { ...known.headers }, body };
}
