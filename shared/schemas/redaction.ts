/** The `redact` request field and the answer's `redactions` of POST /api/screenshot (docs/capture.md, "Redaction"). */
import * as v from 'valibot';

export const REDACT_KINDS = ['email', 'phone', 'card', 'secret', 'ip'] as const;
export type RedactKind = (typeof REDACT_KINDS)[number];

export const RedactField = v.optional(
  v.pipe(
    v.array(v.picklist(REDACT_KINDS)),
    v.maxLength(REDACT_KINDS.length * 2),
    v.description(
      "Kinds of sensitive text to find in the page and cover with solid boxes before the picture is taken: email, phone (validated by libphonenumber), card (length, prefix and Luhn), secret (API keys and tokens by secretlint's recommended rules, private keys, JWTs, bearer tokens), ip (IPv4 and IPv6). Text nodes (shadow DOM included), form field values and same-origin frames are searched; text drawn in images or canvas is not. The answer lists each box in `redactions`.",
    ),
  ),
);

export const RedactionSchema = v.object({
  kind: v.picklist(REDACT_KINDS),
  x: v.pipe(v.number(), v.integer()),
  y: v.pipe(v.number(), v.integer()),
  width: v.pipe(v.number(), v.integer()),
  height: v.pipe(v.number(), v.integer()),
});
export type Redaction = v.InferOutput<typeof RedactionSchema>;

export const RedactionsField = v.optional(
  v.pipe(
    v.array(RedactionSchema),
    v.description(
      'With redact: each solid box drawn over a finding, in image pixels of the PNG, one per line fragment of a finding that wraps (a form field: its text area). Cached with the picture.',
    ),
  ),
);
