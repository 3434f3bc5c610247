/** The `redact` request field and the answer's `redactions` of POST /api/screenshot (docs/capture.md, "Redaction"). */
import * as v from 'valibot';

export const REDACT_KINDS = ['email', 'phone', 'card', 'secret', 'ip'] as const;
export type RedactKind = (typeof REDACT_KINDS)[number];

export const RedactField = v.optional(
  v.pipe(
    v.array(v.picklist(REDACT_KINDS)),
    v.maxLength(REDACT_KINDS.length * 2),
    v.description(
      "Kinds of sensitive text to find in what the page draws and paint over with solid black boxes in the picture's pixels: email, phone (validated by libphonenumber; no date, time or decimal), card (grouping, prefix, length and Luhn), secret (API keys and tokens by secretlint's recommended rules, private keys, JWTs, bearer tokens), ip (IPv4 and IPv6). The text is read as laid out: after text-transform, with generated content, form fields as shown, alt text of broken images, SVG text, shadow roots (closed too) and frames of any origin; pieces on one line joined. Text that does not show is left out. Text drawn inside images, canvas or video is not read: report.unread counts them. The answer lists each box in `redactions`.",
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
      'With redact: every solid box painted into the picture over a finding, in image pixels of the PNG, one per line fragment of a finding that wraps (a form field: its padding box). Exactly the boxes painted; cached with the picture.',
    ),
  ),
);
